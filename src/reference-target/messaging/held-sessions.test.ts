import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagingClient, type MessagingSocket, type WireEvent } from '../../clients/messaging.js';
import { SESSION_IDLE_EXPIRY_MS } from '../../contract/messaging/shapes.js';
import { type RunningTarget, startTarget } from '../server.js';
import { type MessagingState, messagingStateOf } from './state.js';

// What a real target holds for a messaging session after its sockets close, driven through the documented API: the
// session stays resumable with all its events for the idle expiry, packed; after the expiry nothing of it is left.

const isBatch = (e: WireEvent) => e.type === 'EVENT_TYPE_EVENT_BATCH';
const idsOf = (events: readonly WireEvent[]) => events.map((e) => e.id);
const payloadOf = (e: WireEvent) => (e.payload ?? {}) as { is_typing?: boolean; events?: WireEvent[] };

describe('a messaging session the reference target holds after its sockets close', () => {
  let target: RunningTarget;
  let client: MessagingClient;
  let state: MessagingState;
  beforeAll(async () => {
    target = await startTarget();
    client = new MessagingClient(target.loaded);
    state = messagingStateOf(target.context) as MessagingState;
  });
  afterAll(async () => {
    await client.closeAll();
    await target.close();
  });

  /** One user message and its whole answer, seen on `socket`. */
  const turn = async (socket: MessagingSocket, text: string) => {
    const from = socket.events.length;
    socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text });
    await socket.waitFor((e) => e.type === 'EVENT_TYPE_TYPING_INDICATOR' && payloadOf(e).is_typing === false, { what: 'the end of the answer', from });
  };

  /** A session that joined the agent and had `messages` answered on one socket, which is then closed. */
  const heldSession = async (messages: number) => {
    const h = await client.handshake({ streaming_enabled: true });
    const socket = await client.open(h);
    socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
    await socket.waitFor((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED', { what: 'the join' });
    for (let m = 0; m < messages; m++) await turn(socket, `Where is parcel ${m}?`);
    await socket.close();
    return { h, sent: socket.events.filter((e) => !isBatch(e)) };
  };

  it('keeps a closed session’s events packed and replays them whole when a client resumes it', async () => {
    const { h, sent } = await heldSession(2);
    const history = state.sessions.get(h.sessionId)?.history;
    expect(history?.packed).toBe(true);
    expect(history?.length).toBe(sent.length);

    const back = await client.open(h, 'seq:0');
    const { event: batch } = await back.waitFor(isBatch, { what: 'the history batch' });
    expect(idsOf(payloadOf(batch).events ?? [])).toEqual(idsOf(sent));
    // The session goes on: a new answer lands after the packed events, and a later resume gets exactly it.
    await turn(back, 'And parcel 3?');
    const after = back.events.filter((e) => !isBatch(e));
    await back.close();
    const again = await client.open(h, `seq:${sent.length}`);
    const { event: tail } = await again.waitFor(isBatch, { what: 'the history batch' });
    expect(idsOf(payloadOf(tail).events ?? [])).toEqual(idsOf(after));
    await again.close();
  });

  it('holds nothing of twenty sessions once they have been idle for the documented expiry', async () => {
    state.sessions.sweep();
    const before = { sessions: state.sessions.size, sockets: state.sockets.size, conversations: state.conversations.size };
    const held = [];
    for (let i = 0; i < 20; i++) held.push(await heldSession(1));
    expect(state.sessions.size).toBe(before.sessions + 20);
    expect(state.conversations.size).toBe(before.conversations + 20);
    expect(held.every(({ h }) => state.sessions.get(h.sessionId)?.history.packed)).toBe(true);

    target.context.clock.advance(SESSION_IDLE_EXPIRY_MS);
    state.sessions.sweep();
    expect([state.sessions.size, state.sockets.size, state.conversations.size]).toEqual([0, 0, 0]);
    const gone = await client.connect({ access_token: held[0]?.h.accessToken, session_id: held[0]?.h.sessionId });
    expect(gone.opened ? 101 : gone.status).toBe(404);
  });
});
