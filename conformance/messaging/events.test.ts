import type { MessagingSocket, WireEvent } from '../../src/clients/messaging.js';
import { eventTypeNotAllowed, formatCursor, ServerEvent, SocketEventErrors } from '../../src/contract/messaging/shapes.js';
import { rule } from '../../src/suite/case.js';
import {
  batchEvents,
  closeSocketsAfter,
  control,
  customOf,
  ERROR_LEVEL,
  errorsIn,
  isSystem,
  levelOf,
  ofType,
  opened,
  openOn,
  socketsSettled,
  systemText,
  untilBarrier,
} from './steps.js';

// Events: the envelope, client types, invalid events, and the agent join.

// --- events ----------------------------------------------------------------------------------------------

const UNKNOWN = SocketEventErrors.UNKNOWN_OR_INVALID.text;

/** Sends one frame and waits for the first system message or agent join after it. */
async function answer(socket: MessagingSocket, frame: unknown, what: string): Promise<WireEvent> {
  const from = socket.events.length;
  socket.send(frame);
  const match = (e: WireEvent) => isSystem()(e) || e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED';
  return (await socket.waitFor(match, { what: `the answer to ${what}`, from })).event;
}

/** A valid example of each of the four client events the document does not name (reference-target names). */
const OTHER_CLIENT_EVENTS: readonly [string, Record<string, unknown>][] = [
  ['EVENT_TYPE_USER_MESSAGE', { text: 'Hello, I need some help', client_message_id: 'dialtone-msg-1' }],
  ['EVENT_TYPE_TYPING_INDICATOR', { is_typing: true }],
  ['EVENT_TYPE_DELIVERY_RECEIPT', { message_id: 'dialtone-msg-0', status: 'read' }],
  ['EVENT_TYPE_REQUEST_LIVE_AGENT', { reason: 'dialtone conformance' }],
];

rule('messaging.events.envelope-type-payload', 'sends every event as a JSON object with a string type and an object payload', async (api) => {
  const { socket } = await opened(api, { join: true });
  await answer(socket, { type: 'EVENT_TYPE_NOT_A_REAL_TYPE', payload: {} }, 'an unknown type');
  for (const [i, e] of socket.events.entries()) {
    const ok = typeof e.type === 'string' && typeof e.payload === 'object' && e.payload !== null && !Array.isArray(e.payload);
    api.check.that(ok, `event ${i}: type (string) and payload (object)`, e);
  }
});

rule(
  'messaging.events.envelope-invalid',
  'answers an event without type or without an object payload with Unknown event type or invalid message format',
  async (api) => {
    const { socket } = await opened(api);
    const frames: [string, unknown][] = [
      ['an event without type', { payload: {} }],
      ['a join without payload', { type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN' }],
      ['a join whose payload is a string', { type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', payload: 'join' }],
      ['a join whose payload is an array', { type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', payload: [] }],
    ];
    for (const [what, frame] of frames) {
      const e = await answer(socket, frame, what);
      api.check.that(isSystem(UNKNOWN)(e), `${what}: EVENT_TYPE_SYSTEM_MESSAGE "${UNKNOWN}"`, e);
    }
  },
);

rule('messaging.events.server-envelope-fields', 'stamps every server event with id, timestamp and metadata', async (api) => {
  const { socket } = await opened(api, { join: true });
  await answer(socket, { type: 'EVENT_TYPE_SERVICE_AGENT_JOINED', payload: {} }, 'a server-only type');
  for (const [i, e] of socket.events.entries()) {
    const present = (v: unknown) => (typeof v === 'string' && v.length > 0) || typeof v === 'number';
    api.check.that(present(e.id), `event ${i} (${String(e.type)}): an id`, e);
    api.check.that(present(e.timestamp), `event ${i} (${String(e.type)}): a timestamp`, e);
    api.check.that(typeof e.metadata === 'object' && e.metadata !== null, `event ${i} (${String(e.type)}): metadata`, e);
    api.check.names(e, ServerEvent, `event ${i} (${String(e.type)}): id, timestamp, type, payload and metadata`);
  }
});

rule('messaging.events.metadata-custom-echo', "echoes the join request's metadata.custom in EVENT_TYPE_SERVICE_AGENT_JOINED", async (api) => {
  const { socket } = await opened(api);
  const custom = { dialtone_case: 'custom-echo', order: 42, nested: { tags: ['a', 'b'] } };
  const e = await answer(socket, { type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', payload: {}, metadata: { custom } }, 'a join with custom metadata');
  api.check.equal(e.type, 'EVENT_TYPE_SERVICE_AGENT_JOINED', 'the join is answered');
  api.check.equal(customOf(e), custom, 'metadata.custom echoed unchanged');
});

rule('messaging.events.metadata-custom-echo-errors', 'echoes metadata.custom inside the error message answering an invalid event', async (api) => {
  const { socket } = await opened(api);
  const frames: [string, string][] = [
    ['an unknown type', 'EVENT_TYPE_NOT_A_REAL_TYPE'],
    ['a server-only type', 'EVENT_TYPE_SERVICE_AGENT_JOINED'],
  ];
  for (const [what, type] of frames) {
    const custom = { dialtone_case: 'error-echo', sent_as: type };
    const e = await answer(socket, { type, payload: {}, metadata: { custom } }, what);
    api.check.that(isSystem()(e), `${what}: a system message`, e);
    api.check.equal(customOf(e), custom, `${what}: metadata.custom echoed in the error message`);
  }
});

rule('messaging.events.envelope-extra-fields', 'records envelope fields beyond the documented ones and the id and timestamp formats', async (api) => {
  const { socket } = await opened(api, { join: true });
  const documented = new Set(['type', 'payload', 'id', 'timestamp', 'metadata']);
  const extra = new Set(socket.events.flatMap((e) => Object.keys(e).filter((k) => !documented.has(k))));
  api.observe('extra envelope fields', extra.size ? [...extra] : 'none');
  const joined = socket.events.find(ofType('EVENT_TYPE_SERVICE_AGENT_JOINED'));
  api.observe('id / timestamp', `${JSON.stringify(joined?.id)} / ${JSON.stringify(joined?.timestamp)}`);
  api.observe('metadata keys', Object.keys((joined?.metadata as object | undefined) ?? {}));
});

rule('messaging.events.client-types-five', 'accepts each of the five client event types without an error and refuses a sixth', async (api) => {
  const { socket } = await opened(api, { join: true });
  const from = socket.events.length;
  for (const [type, payload] of OTHER_CLIENT_EVENTS) socket.sendEvent(type, payload);
  const errors = errorsIn(await untilBarrier(socket, from));
  api.check.equal(errors.map(systemText), [], 'no error message answers any of the five client types');
  const sixth = await answer(socket, { type: 'EVENT_TYPE_CLOSE_CONVERSATION', payload: {} }, 'a sixth type');
  api.check.that(isSystem(UNKNOWN)(sixth), `a sixth type is refused with "${UNKNOWN}"`, sixth);
});

rule('messaging.events.client-type-names', 'records whether the target accepts the reference names of the four other client types', async (api) => {
  const { socket } = await opened(api, { join: true });
  for (const [type, payload] of OTHER_CLIENT_EVENTS) {
    const from = socket.events.length;
    socket.sendEvent(type, payload);
    const errors = errorsIn(await untilBarrier(socket, from)).map(systemText);
    api.observe(type, errors.length ? `refused: ${errors.join('; ')}` : 'accepted');
  }
});

rule('messaging.events.client-payloads', 'records what the four other client types answer with an empty payload', async (api) => {
  const { socket } = await opened(api, { join: true });
  for (const [type] of OTHER_CLIENT_EVENTS) {
    const from = socket.events.length;
    socket.sendEvent(type, {});
    const answered = await untilBarrier(socket, from);
    api.observe(`${type} with {}`, answered.length ? answered.map((e) => systemText(e) ?? e.type) : 'no answer');
  }
});

rule('messaging.events.join-empty-payload', 'accepts the join request with exactly the empty payload object {}', async (api) => {
  const { socket } = await opened(api);
  const frame = '{"type":"EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN","payload":{}}';
  const e = await answer(socket, frame, 'the join request with payload {}');
  api.check.equal(e.type, 'EVENT_TYPE_SERVICE_AGENT_JOINED', 'EVENT_TYPE_SERVICE_AGENT_JOINED answers payload {}, with no error');
});

rule('messaging.events.server-only-rejected', 'answers each server-only type from a client with a system message and stays open', async (api) => {
  const { socket } = await opened(api);
  for (const type of ['EVENT_TYPE_SERVICE_AGENT_JOINED', 'EVENT_TYPE_EVENT_BATCH', 'EVENT_TYPE_SYSTEM_MESSAGE', 'SESSION_END']) {
    const e = await answer(socket, { type, payload: {} }, `a client ${type}`);
    api.check.that(isSystem()(e), `${type} from a client is answered with EVENT_TYPE_SYSTEM_MESSAGE`, e);
  }
  await socket.barrier();
  api.check.that(socket.isOpen, 'the connection stays open', 'closed');
});

rule('messaging.events.not-allowed-text', 'answers a server-only type with Event type not allowed: <type> at level SYSTEM_MESSAGE_LEVEL_ERROR', async (api) => {
  const { socket } = await opened(api);
  for (const type of ['EVENT_TYPE_SERVICE_AGENT_JOINED', 'EVENT_TYPE_EVENT_BATCH']) {
    const e = await answer(socket, { type, payload: {} }, `a client ${type}`);
    api.check.equal(systemText(e), eventTypeNotAllowed(type), `the text "${eventTypeNotAllowed(type)}"`);
    api.check.equal(levelOf(e), ERROR_LEVEL, `level ${ERROR_LEVEL}`);
  }
});

rule('messaging.events.unknown-type-text', 'answers an unknown type and unparseable JSON with Unknown event type or invalid message format', async (api) => {
  const { socket } = await opened(api);
  // The unparseable frame goes last: what a target does to the connection afterwards is another rule's subject.
  const frames: [string, unknown][] = [
    ['an unknown type', { type: 'EVENT_TYPE_NOT_A_REAL_TYPE', payload: {} }],
    ['unparseable JSON', '{"type": "EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN", "payload": {'],
  ];
  for (const [what, frame] of frames) {
    const e = await answer(socket, frame, what);
    api.check.equal(systemText(e), UNKNOWN, `${what}: the text "${UNKNOWN}"`);
    api.check.equal(levelOf(e), ERROR_LEVEL, `${what}: level ${ERROR_LEVEL}`);
  }
});

rule('messaging.events.invalid-keeps-open', 'keeps the connection open after an invalid event and processes the next valid one', async (api) => {
  const { socket } = await opened(api);
  await answer(socket, 'this is not JSON', 'unparseable JSON');
  const e = await answer(socket, { type: 'EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', payload: {} }, 'the join request after it');
  api.check.equal(e.type, 'EVENT_TYPE_SERVICE_AGENT_JOINED', 'the join after an invalid event is processed');
  api.check.that(socket.isOpen, 'the connection is still open', 'closed');
});

rule('messaging.events.error-level', 'gives error system messages level SYSTEM_MESSAGE_LEVEL_ERROR', async (api) => {
  const { socket } = await opened(api);
  for (const [what, frame] of [
    ['an unknown type', { type: 'EVENT_TYPE_NOT_A_REAL_TYPE', payload: {} }],
    ['a server-only type', { type: 'SESSION_END', payload: {} }],
  ] as const) {
    const e = await answer(socket, frame, what);
    api.check.equal(levelOf(e), ERROR_LEVEL, `${what}: level ${ERROR_LEVEL}`);
  }
});

rule('messaging.events.server-catalogue', 'records the server event types a conversation with an agent and a handoff produces', async (api) => {
  const { socket } = await opened(api, { join: true });
  const from = socket.events.length;
  socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: 'Hello there' });
  await socket.waitFor(ofType('EVENT_TYPE_AGENT_MESSAGE'), { what: 'the agent reply', from }).catch(() => undefined);
  socket.sendEvent('EVENT_TYPE_REQUEST_LIVE_AGENT', {});
  socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: 'Are you a person?' });
  await socket.waitFor(ofType('EVENT_TYPE_LIVE_AGENT_MESSAGE'), { what: 'the live agent reply', from }).catch(() => undefined);
  api.observe('server event types seen', [...new Set(socket.events.map((e) => e.type))]);
});

rule(
  'messaging.events.session-end-after-errors',
  'records what follows Error: Session not found on a socket whose session is gone',
  async (api) => {
    const { h, socket } = await opened(api, { join: true });
    await control(api).removeSession(h.sessionId);
    const from = socket.events.length;
    socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
    await socket.waitFor(ofType('SESSION_END'), { what: 'SESSION_END', from, timeoutMs: 1000 }).catch(() => undefined);
    api.observe(
      'after the session was removed',
      socket.events.slice(from).map((e) => systemText(e) ?? e.type),
    );
    api.observe('socket', socket.isOpen ? 'still open' : 'closed');
  },
  { needs: ['control'] },
);

// --- join ------------------------------------------------------------------------------------------------

rule(
  'messaging.join.after-history',
  'answers EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN sent after the history batch with EVENT_TYPE_SERVICE_AGENT_JOINED',
  async (api) => {
    const { socket } = await opened(api);
    const batchIndex = socket.events.findIndex(ofType('EVENT_TYPE_EVENT_BATCH'));
    const from = socket.events.length;
    socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
    const joined = await socket.waitFor(ofType('EVENT_TYPE_SERVICE_AGENT_JOINED'), { what: 'EVENT_TYPE_SERVICE_AGENT_JOINED', from });
    api.check.that(batchIndex === 0 && joined.index > batchIndex, 'the batch first, then EVENT_TYPE_SERVICE_AGENT_JOINED', {
      batchIndex,
      joined: joined.index,
    });
  },
);

rule('messaging.join.not-automatic', 'sends no EVENT_TYPE_SERVICE_AGENT_JOINED without a join request', async (api) => {
  const first = await opened(api);
  const second = await openOn(api, first.h);
  const settled = await untilBarrier(second.socket, 0);
  const joins = [...first.socket.events, ...settled].filter(ofType('EVENT_TYPE_SERVICE_AGENT_JOINED'));
  api.check.equal(joins.length, 0, 'no EVENT_TYPE_SERVICE_AGENT_JOINED on either socket of a session nobody asked the agent to join');
  api.check.equal(batchEvents(second.batch).filter(ofType('EVENT_TYPE_SERVICE_AGENT_JOINED')).length, 0, 'no join in the history');
});

rule('messaging.join.reconnect-joined-in-history', 'replays the join on reconnect and keeps the agent answering without a new join request', async (api) => {
  const { check } = api;
  const first = await opened(api, { join: true });
  await first.socket.close();
  await socketsSettled(api, first.h.sessionId, 0);
  const again = await openOn(api, first.h, formatCursor(0));
  check.that(
    batchEvents(again.batch).some(ofType('EVENT_TYPE_SERVICE_AGENT_JOINED')),
    'the replayed history holds EVENT_TYPE_SERVICE_AGENT_JOINED',
    again.batch,
  );
  const from = again.socket.events.length;
  again.socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: 'I am back, is anyone there?' });
  const answer = await again.socket.waitFor((e) => e.type === 'EVENT_TYPE_AGENT_MESSAGE' || errorsIn([e]).length > 0, { what: 'the agent reply', from });
  check.equal(answer.event.type, 'EVENT_TYPE_AGENT_MESSAGE', 'the agent answers without a new join request');
});

rule('messaging.join.second-request', 'records what a second join request after the agent joined does', async (api) => {
  const { h, socket } = await opened(api, { join: true });
  const from = socket.events.length;
  socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
  const answer = await untilBarrier(socket, from);
  api.observe(
    'events answering a second join',
    answer.map((e) => e.type),
  );
  const replayed = await openOn(api, h, formatCursor(0));
  api.observe('joins in the history afterwards', batchEvents(replayed.batch).filter(ofType('EVENT_TYPE_SERVICE_AGENT_JOINED')).length);
});

rule('messaging.join.before-history', 'records what a join request sent before the history batch arrives does', async (api) => {
  closeSocketsAfter(api);
  const h = await api.t.messaging.handshake();
  const socket = await api.t.messaging.open(h);
  const receivedBeforeSend = socket.events.length;
  socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
  const answer = await untilBarrier(socket, 0);
  api.observe('events received before the join was sent', receivedBeforeSend);
  api.observe(
    'events in order',
    answer.map((e) => e.type),
  );
});
