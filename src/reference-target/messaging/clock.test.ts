import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagingClient } from '../../clients/messaging.js';
import { SESSION_IDLE_EXPIRY_MS, SessionErrors, SocketHandshakeErrors } from '../../contract/messaging/shapes.js';
import { type RunningTarget, startTarget } from '../server.js';

// The conformance suite forces time on single tokens and sessions; this checks the shared clock drives the same expiry.

describe('messaging time on the target clock', () => {
  let target: RunningTarget;
  let client: MessagingClient;
  beforeAll(async () => {
    target = await startTarget();
    client = new MessagingClient(target.loaded);
  });
  afterAll(async () => {
    await client.closeAll();
    await target.close();
  });

  it('keeps a session 9 minutes idle and expires it at 10', async () => {
    const h = await client.handshake();
    target.context.clock.advance(SESSION_IDLE_EXPIRY_MS - 60_000);
    const alive = await client.connect({ access_token: h.accessToken, session_id: h.sessionId });
    expect(alive.opened).toBe(true);
    if (alive.opened) await alive.socket.close();
    target.context.clock.advance(SESSION_IDLE_EXPIRY_MS);
    const expired = await client.connect({ access_token: h.accessToken, session_id: h.sessionId });
    expect(expired.opened).toBe(false);
    if (!expired.opened) expect([expired.status, expired.json]).toEqual([404, { error: SocketHandshakeErrors.SESSION_NOT_FOUND.text }]);
  });

  it('refuses an access token once expires_in seconds have passed', async () => {
    const { accessToken, expiresIn } = await client.token();
    target.context.clock.advance(expiresIn * 1000);
    const res = await client.createSession(accessToken, {});
    expect([res.status, res.json]).toEqual([401, { error: SessionErrors.INVALID_ACCESS_TOKEN.text }]);
  });

  it('answers the next event on an open socket of an expired session with Error: Session not found and SESSION_END', async () => {
    const h = await client.handshake();
    const socket = await client.open(h);
    await socket.waitFor((e) => e.type === 'EVENT_TYPE_EVENT_BATCH', { what: 'the batch' });
    target.context.clock.advance(SESSION_IDLE_EXPIRY_MS);
    socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
    const end = await socket.waitFor((e) => e.type === 'SESSION_END', { what: 'SESSION_END' });
    const texts = socket.events.slice(1, end.index).map((e) => (e.payload as { text?: string }).text);
    expect(texts).toEqual(['Error: Session not found']);
    expect((await socket.closed).code).toBe(1000);
  });
});
