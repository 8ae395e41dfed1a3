import type { MessagingSocket, WireEvent } from '../../src/clients/messaging.js';
import { formatCursor } from '../../src/contract/messaging/shapes.js';
import { rule } from '../../src/suite/case.js';
import { batchEvents, control, ofType, opened, openOn } from './steps.js';

/** The documented fields of a server event, as a replay must carry them. */
const fieldsOf = (e: WireEvent) => ({ id: e.id, timestamp: e.timestamp, type: e.type, payload: e.payload, metadata: e.metadata });

/** Whether a string value anywhere in the event is `text` (the live agent's event names are not shown). */
const carries = (e: WireEvent, text: string): boolean => {
  const seen = (v: unknown): boolean => v === text || (typeof v === 'object' && v !== null && Object.values(v).some(seen));
  return seen(e.payload);
};

/** The server-stamped events a socket received after its history batch. */
const liveEvents = (socket: MessagingSocket) => socket.events.filter((e) => e.id !== undefined && e.type !== 'EVENT_TYPE_EVENT_BATCH');

rule('messaging.ws.replay-same-as-live', 'replays on reconnect each event with the id, timestamp, type, payload and metadata it had live', async (api) => {
  const { check } = api;
  const { h, socket } = await opened(api, { join: true });
  const from = socket.events.length;
  socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: 'Where is my order?' }, { dialtone_case: 'replay-same-as-live' });
  await socket.waitFor(ofType('EVENT_TYPE_AGENT_MESSAGE'), { what: 'the agent reply', from });
  await socket.barrier();
  const live = new Map(liveEvents(socket).map((e) => [e.id, e]));
  const { batch } = await openOn(api, h, formatCursor(0));
  const replayed = batchEvents(batch);
  const reply = replayed.find((e) => e.type === 'EVENT_TYPE_AGENT_MESSAGE');
  check.that(
    reply !== undefined && live.has(reply.id),
    "the agent's reply, delivered live, is replayed under the same id",
    replayed.map((e) => e.id),
  );
  for (const e of replayed.filter((r) => live.has(r.id))) {
    check.equal(fieldsOf(e), fieldsOf(live.get(e.id) as WireEvent), `replayed ${String(e.type)} ${String(e.id)} carries the fields it had live`);
  }
});

rule(
  'messaging.handoff.live-agent-reaches-session',
  "delivers a live agent's message to every socket of the session, and replays it on reconnect",
  async (api) => {
    const { check } = api;
    const { h, socket } = await opened(api, { join: true });
    const other = (await openOn(api, h)).socket;
    await other.barrier();
    const from = socket.events.length;
    socket.sendEvent('EVENT_TYPE_REQUEST_LIVE_AGENT', { reason: 'dialtone conformance' });
    await socket.waitFor(ofType('EVENT_TYPE_LIVE_AGENT_JOINED'), { what: 'the live agent joining', from });
    const text = `Hello, this is your live agent (${Math.random().toString(36).slice(2, 10)})`;
    await control(api).liveAgentMessage(h.sessionId, text);
    for (const [label, s] of [
      ['the socket that asked for the handoff', socket],
      ['another socket of the session', other],
    ] as const) {
      await s.barrier();
      const got = s.events.filter((e) => carries(e, text));
      check.that(got.length === 1, `${label} receives the live agent's message once`, got.length);
    }
    const [mine, theirs] = [socket, other].map((s) => s.events.find((e) => carries(e, text)));
    check.equal(fieldsOf(theirs as WireEvent), fieldsOf(mine as WireEvent), 'both sockets receive the same event');
    const { batch } = await openOn(api, h, formatCursor(0));
    const replayed = batchEvents(batch).find((e) => carries(e, text));
    check.that(
      replayed !== undefined,
      "a reconnect replays the live agent's message",
      batchEvents(batch).map((e) => e.type),
    );
    check.equal(fieldsOf(replayed as WireEvent), fieldsOf(mine as WireEvent), 'the replay carries the fields it had live');
  },
  { needs: ['control'] },
);
