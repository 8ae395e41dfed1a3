import type { MessagingSocket, WireEvent } from '../../src/clients/messaging.js';
import type { SessionFaultName } from '../../src/clients/messaging-control.js';
import { HandoffMessages, SessionStateMessages } from '../../src/contract/messaging/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { control, ERROR_LEVEL, isSystem, levelOf, ofType, opened, systemText, untilBarrier } from './steps.js';

// Agent replies: streaming, session-state, agent-side and handoff system messages.

// --- streaming -------------------------------------------------------------------------------------------

const isReply = (e: WireEvent) => e.type === 'EVENT_TYPE_AGENT_MESSAGE' || (e.type === 'EVENT_TYPE_AGENT_MESSAGE_CHUNK' && isFinal(e));
const isFinal = (e: WireEvent) => (e.payload as { final?: unknown } | undefined)?.final === true;

/** Sends a user message and returns every event up to the end of the agent's reply (and a marker after it). */
async function reply(socket: MessagingSocket, text: string): Promise<WireEvent[]> {
  return (await replyEnding(socket, text)).events;
}

/** `reply`, with how many of the events came up to and including the one that ended the reply. */
async function replyEnding(socket: MessagingSocket, text: string): Promise<{ events: WireEvent[]; ending: number }> {
  const from = socket.events.length;
  socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text });
  const { index } = await socket.waitFor(isReply, { what: 'a complete agent message or the final chunk', from });
  return { events: await untilBarrier(socket, from), ending: index - from + 1 };
}

rule('messaging.streaming.enabled-chunks', 'streams the agent reply as several chunk events when streaming_enabled is true', async (api) => {
  const { socket } = await opened(api, { sessionBody: { streaming_enabled: true }, join: true });
  const { events, ending } = await replyEnding(socket, 'Can you tell me about your delivery options?');
  // The chunks up to the one that ends the reply: chunks after it are not this reply's, and whether they beat the
  // marker depends on timing, so counting them would make the verdict depend on how busy the machine is.
  const reply = events.slice(0, ending);
  api.check.that(
    reply.filter(ofType('EVENT_TYPE_AGENT_MESSAGE_CHUNK')).length >= 2,
    'the reply arrives as two or more chunk events',
    reply.map((e) => e.type),
  );
  api.check.equal(events.filter(ofType('EVENT_TYPE_AGENT_MESSAGE')).length, 0, 'no complete message besides the chunks');
});

rule('messaging.streaming.disabled-complete', 'answers with one complete message and no chunks when streaming_enabled is false or left out', async (api) => {
  for (const [label, body] of [
    ['streaming_enabled false', { streaming_enabled: false }],
    ['streaming_enabled left out', {}],
  ] as const) {
    const { socket } = await opened(api, { sessionBody: body, join: true });
    const events = await reply(socket, 'Can you tell me about your delivery options?');
    api.check.equal(events.filter(ofType('EVENT_TYPE_AGENT_MESSAGE')).length, 1, `${label}: exactly one complete agent message`);
    api.check.equal(events.filter(ofType('EVENT_TYPE_AGENT_MESSAGE_CHUNK')).length, 0, `${label}: no chunk events`);
  }
});

rule('messaging.streaming.chunk-shape', 'records the type and payload of chunks and complete agent messages', async (api) => {
  const streamed = await opened(api, { sessionBody: { streaming_enabled: true }, join: true });
  const chunks = (await reply(streamed.socket, 'Tell me more')).filter(ofType('EVENT_TYPE_AGENT_MESSAGE_CHUNK'));
  api.observe('chunk', chunks.length ? { type: chunks[0]?.type, payload_keys: Object.keys(chunks[0]?.payload ?? {}), count: chunks.length } : 'none');
  const whole = await opened(api, { join: true });
  const message = (await reply(whole.socket, 'Tell me more')).find(ofType('EVENT_TYPE_AGENT_MESSAGE'));
  api.observe('complete message', message ? { type: message.type, payload_keys: Object.keys(message.payload ?? {}) } : 'none');
});

// --- system-messages -------------------------------------------------------------------------------------

/** Sends one event and waits for the first system message after it. */
async function systemAnswer(socket: MessagingSocket, type: string, payload: Record<string, unknown>): Promise<WireEvent> {
  const from = socket.events.length;
  socket.sendEvent(type, payload);
  return (await socket.waitFor(isSystem(), { what: `a system message answering ${type}`, from })).event;
}

/** Checks a documented system message: exact text at the error level. */
function expectSystemError({ check }: CaseApi, e: WireEvent, text: string): void {
  check.equal(systemText(e), text, `the text "${text}"`);
  check.equal(levelOf(e), ERROR_LEVEL, `level ${ERROR_LEVEL}`);
}

/** Records what one armed agent-side fault produces (the texts are not shown). */
async function observeFault(api: CaseApi, fault: SessionFaultName, type: string, payload: Record<string, unknown>, sessionBody: unknown = {}) {
  const { h, socket } = await opened(api, { sessionBody, join: type !== 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' });
  await control(api).sessionFault(h.sessionId, fault);
  const e = await systemAnswer(socket, type, payload);
  api.observe('system message', `${String(levelOf(e))}: ${systemText(e)}`);
  return { h, socket };
}

const USER_MESSAGE = 'EVENT_TYPE_USER_MESSAGE';
const JOIN = 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN';
const LIVE = 'EVENT_TYPE_REQUEST_LIVE_AGENT';
const needsControl = { needs: ['control'] } as const;

rule(
  'messaging.session-state.session-not-found',
  'answers an event on a socket whose session is gone with Error: Session not found',
  async (api) => {
    const { h, socket } = await opened(api, { join: true });
    await control(api).removeSession(h.sessionId);
    expectSystemError(api, await systemAnswer(socket, JOIN, {}), SessionStateMessages.SESSION_NOT_FOUND.text);
  },
  needsControl,
);

rule(
  'messaging.session-state.unable-to-retrieve',
  'reports a transient failure to load the session with Error: Unable to retrieve session',
  async (api) => {
    const { h, socket } = await opened(api, { join: true });
    await control(api).sessionFault(h.sessionId, 'retrieve-session');
    expectSystemError(api, await systemAnswer(socket, USER_MESSAGE, { text: 'Hello?' }), SessionStateMessages.UNABLE_TO_RETRIEVE_SESSION.text);
  },
  needsControl,
);

rule(
  'messaging.session-state.connector-not-found',
  'reports a session whose connector is gone with Error: Connector not found',
  async (api) => {
    const host = 'gone.dialtone.test';
    const connector = await control(api).connector({ host_domain: host });
    const { socket } = await opened(api, { connectorToken: connector.connector_token, host, join: true });
    await control(api).removeConnector(connector.connector_token);
    expectSystemError(api, await systemAnswer(socket, USER_MESSAGE, { text: 'Hello?' }), SessionStateMessages.CONNECTOR_NOT_FOUND.text);
  },
  needsControl,
);

rule(
  'messaging.session-state.conversation-not-found',
  'reports a session whose conversation is gone with Error: Conversation not found',
  async (api) => {
    const { h, socket } = await opened(api, { join: true });
    await control(api).removeConversation(h.sessionId);
    expectSystemError(api, await systemAnswer(socket, USER_MESSAGE, { text: 'Hello?' }), SessionStateMessages.CONVERSATION_NOT_FOUND.text);
  },
  needsControl,
);

rule(
  'messaging.session-state.conversation-id-missing',
  'answers a user message sent before the join request with Error: Conversation ID not found in session',
  async (api) => {
    const { socket } = await opened(api);
    const e = await systemAnswer(socket, USER_MESSAGE, { text: 'Is anybody there?' });
    expectSystemError(api, e, SessionStateMessages.CONVERSATION_ID_NOT_IN_SESSION.text);
  },
);

rule(
  'messaging.agent.high-load',
  'records the system message sent when the agent is under high load',
  async (api) => void (await observeFault(api, 'high-load', USER_MESSAGE, { text: 'Hello?' })),
  needsControl,
);

rule(
  'messaging.agent.start-failed',
  'records the system message sent when a conversation cannot start, and whether a new join request works',
  async (api) => {
    const { socket } = await observeFault(api, 'start-failed', JOIN, {});
    const from = socket.events.length;
    socket.sendEvent(JOIN, {});
    const again = await socket.waitFor((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED' || isSystem()(e), { what: 'the answer to a new join', from });
    api.observe('a new join request', again.event.type);
  },
  needsControl,
);

rule(
  'messaging.agent.trouble-responding',
  'records the system message sent when the agent has trouble responding',
  async (api) => void (await observeFault(api, 'trouble-responding', USER_MESSAGE, { text: 'Hello?' })),
  needsControl,
);

rule(
  'messaging.agent.streaming-error',
  'records the system message sent when streaming breaks off',
  async (api) => {
    const { socket } = await observeFault(api, 'streaming-error', USER_MESSAGE, { text: 'Please tell me a long story' }, { streaming_enabled: true });
    api.observe('chunks before it', socket.events.filter(ofType('EVENT_TYPE_AGENT_MESSAGE_CHUNK')).length);
  },
  needsControl,
);

rule(
  'messaging.handoff.forward-failed',
  'answers a user message that cannot reach the live agent with Failed to forward message to live agent',
  async (api) => {
    const { h, socket } = await opened(api, { join: true });
    const from = socket.events.length;
    socket.sendEvent(LIVE, { reason: 'dialtone conformance' });
    await socket.waitFor(ofType('EVENT_TYPE_LIVE_AGENT_JOINED'), { what: 'EVENT_TYPE_LIVE_AGENT_JOINED', from });
    await control(api).sessionFault(h.sessionId, 'forward-failed');
    expectSystemError(api, await systemAnswer(socket, USER_MESSAGE, { text: 'Hello, human?' }), HandoffMessages.FORWARD_FAILED.text);
  },
  needsControl,
);

rule(
  'messaging.handoff.not-initiated',
  'answers a handoff request on a connector without handoff with Sorry, handoff could not be initiated.',
  async (api) => {
    const host = 'nohandoff.dialtone.test';
    const connector = await control(api).connector({ host_domain: host, handoff: false });
    const { socket } = await opened(api, { connectorToken: connector.connector_token, host, join: true });
    expectSystemError(api, await systemAnswer(socket, LIVE, { reason: 'dialtone conformance' }), HandoffMessages.HANDOFF_NOT_INITIATED.text);
  },
  needsControl,
);

rule(
  'messaging.handoff.agent-connect-failed',
  'records the system message sent when no live agent can be connected',
  async (api) => void (await observeFault(api, 'no-live-agent', LIVE, { reason: 'dialtone conformance' })),
  needsControl,
);
