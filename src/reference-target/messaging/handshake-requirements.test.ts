import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Handshake, MessagingClient } from '../../clients/messaging.js';
import { MAX_SOCKETS_PER_SESSION, SessionErrors, SocketHandshakeErrors } from '../../contract/messaging/shapes.js';
import type { DefectId } from '../defects.js';
import { type RunningTarget, startTarget } from '../server.js';
import { messagingStateOf } from './state.js';

// What the two handshake endpoints require of a request (Content-Type: application/json), and the per-session socket
// limit under a burst and after closes, on the reference target and with the defects that break each.

const PARSE_ERROR = { error: SessionErrors.PARSE_ERROR.text };
const BURST = MAX_SOCKETS_PER_SESSION + 3;

/** A target with these defects and a messaging client of it, for one describe block. */
function withTarget(defects: DefectId[]) {
  const s = {} as { target: RunningTarget; m: MessagingClient };
  beforeAll(async () => {
    s.target = await startTarget({ defects });
    s.m = new MessagingClient(s.target.loaded);
  });
  afterAll(async () => {
    await s.target?.close();
  });
  return s;
}

/** Opens `n` sockets on one session at once; the open ones and the statuses of the refused ones. */
async function burst(m: MessagingClient, h: Handshake, n: number) {
  const all = await Promise.all(Array.from({ length: n }, () => m.connect({ access_token: h.accessToken, session_id: h.sessionId })));
  const open = all.flatMap((c) => (c.opened ? [c.socket] : []));
  const refused = all.flatMap((c) => (c.opened ? [] : [{ status: c.status, text: c.text }]));
  return { open, refused };
}

/** Waits until the target holds `n` sockets for the session (a close completes on the server after the client's). */
async function settled(target: RunningTarget, sessionId: string, n: number): Promise<void> {
  const state = messagingStateOf(target.context);
  while ((state?.sockets.get(sessionId)?.size ?? 0) !== n) await new Promise((r) => setTimeout(r, 5));
}

describe('the handshake endpoints requiring Content-Type: application/json', () => {
  const s = withTarget([]);

  it.each([
    ['absent', undefined],
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['a JSON look-alike', 'application/jsonp'],
  ])('refuses an access-token request with Content-Type %s: 400 Error parsing request', async (_name, type) => {
    const res = await s.m.accessToken({ headers: { 'Content-Type': type } });
    expect([res.status, res.json]).toEqual([400, PARSE_ERROR]);
  });

  it('accepts application/json with parameters, in any case', async () => {
    expect((await s.m.accessToken({ headers: { 'Content-Type': 'application/json; charset=utf-8' } })).status).toBe(200);
    expect((await s.m.accessToken({ headers: { 'Content-Type': 'Application/JSON' } })).status).toBe(200);
  });

  it('refuses a session request without it or with another type, with a body and without one', async () => {
    const { accessToken } = await s.m.token();
    for (const type of [undefined, 'text/plain']) {
      for (const body of [{}, undefined]) {
        const res = await s.m.createSession(accessToken, body, { headers: { 'Content-Type': type }, rawBody: body === undefined ? null : undefined });
        expect([res.status, res.json], `${type} ${JSON.stringify(body)}`).toEqual([400, PARSE_ERROR]);
      }
    }
    expect((await s.m.createSession(accessToken, undefined, { rawBody: null })).status).toBe(200);
    expect((await s.m.createSession(accessToken, {}, { headers: { 'Content-Type': 'application/json; charset=utf-8' } })).status).toBe(200);
  });

  it('checks the credential headers first, keeping their statuses and texts', async () => {
    const noToken = await s.m.accessToken({ headers: { 'X-Token': undefined, 'Content-Type': undefined } });
    expect([noToken.status, noToken.json]).toEqual([401, { error: 'Missing authentication headers' }]);
    const unknown = await s.m.accessToken({ connectorToken: 'nope', headers: { 'Content-Type': undefined } });
    expect(unknown.status).toBe(401);
    const noAuth = await s.m.createSession(undefined, {}, { headers: { 'Content-Type': undefined } });
    expect([noAuth.status, noAuth.json]).toEqual([400, { error: SessionErrors.MISSING_ACCESS_TOKEN.text }]);
    const notBearer = await s.m.createSession(undefined, {}, { headers: { Authorization: 'Basic x', 'Content-Type': 'text/plain' } });
    expect([notBearer.status, notBearer.json]).toEqual([401, { error: SessionErrors.MISSING_HEADERS.text }]);
    const badToken = await s.m.createSession('not-a-token', {}, { headers: { 'Content-Type': undefined } });
    expect([badToken.status, badToken.json]).toEqual([401, { error: SessionErrors.INVALID_ACCESS_TOKEN.text }]);
  });
});

describe('the defect messaging-content-type-ignored', () => {
  const s = withTarget(['messaging-content-type-ignored']);

  it('serves both endpoints without Content-Type or with another type', async () => {
    const token = await s.m.accessToken({ headers: { 'Content-Type': undefined } });
    expect(token.status).toBe(200);
    expect((await s.m.accessToken({ headers: { 'Content-Type': 'text/plain' } })).status).toBe(200);
    const accessToken = String(token.json?.access_token);
    expect((await s.m.createSession(accessToken, {}, { headers: { 'Content-Type': undefined } })).status).toBe(200);
    expect((await s.m.createSession(accessToken, undefined, { headers: { 'Content-Type': 'text/plain' }, rawBody: null })).status).toBe(200);
  });
});

describe('the socket limit per session', () => {
  const s = withTarget([]);

  it(`opens exactly ${MAX_SOCKETS_PER_SESSION} of ${BURST} simultaneous handshakes and refuses the rest with 429`, async () => {
    const h = await s.m.handshake();
    const { open, refused } = await burst(s.m, h, BURST);
    expect(open).toHaveLength(MAX_SOCKETS_PER_SESSION);
    expect(refused).toEqual(
      Array.from({ length: BURST - MAX_SOCKETS_PER_SESSION }, () => ({
        status: 429,
        text: expect.stringContaining(SocketHandshakeErrors.CONNECTION_LIMIT.text),
      })),
    );
    await Promise.all(open.map((w) => w.close()));
  });

  it('gives a closed socket its slot back', async () => {
    const h = await s.m.handshake();
    const first = await burst(s.m, h, MAX_SOCKETS_PER_SESSION);
    expect(first.open).toHaveLength(MAX_SOCKETS_PER_SESSION);
    await Promise.all(first.open.slice(0, 3).map((w) => w.close()));
    await settled(s.target, h.sessionId, MAX_SOCKETS_PER_SESSION - 3);
    const again = await burst(s.m, h, 4);
    expect([again.open.length, again.refused.map((r) => r.status)]).toEqual([3, [429]]);
    await Promise.all([...first.open.slice(3), ...again.open].map((w) => w.close()));
  });
});

describe('the defect messaging-socket-limit-races', () => {
  const s = withTarget(['messaging-socket-limit-races']);

  it(`opens more than ${MAX_SOCKETS_PER_SESSION} sockets on one session from a burst of ${BURST}`, async () => {
    const h = await s.m.handshake();
    const { open } = await burst(s.m, h, BURST);
    expect(open.length).toBeGreaterThan(MAX_SOCKETS_PER_SESSION);
    await Promise.all(open.map((w) => w.close()));
  });
});

describe('the defect messaging-socket-slot-kept', () => {
  const s = withTarget(['messaging-socket-slot-kept']);

  it('refuses a socket after closes although fewer than the limit are open', async () => {
    const h = await s.m.handshake();
    const first = await burst(s.m, h, MAX_SOCKETS_PER_SESSION);
    expect(first.open).toHaveLength(MAX_SOCKETS_PER_SESSION);
    await Promise.all(first.open.slice(0, 3).map((w) => w.close()));
    await settled(s.target, h.sessionId, MAX_SOCKETS_PER_SESSION - 3);
    const next = await s.m.connect({ access_token: h.accessToken, session_id: h.sessionId });
    expect(next.opened ? 'opened' : next.status).toBe(429);
    await Promise.all(first.open.slice(3).map((w) => w.close()));
  });
});
