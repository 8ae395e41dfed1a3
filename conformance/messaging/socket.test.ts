import type { Handshake, MessagingSocket, WireEvent } from '../../src/clients/messaging.js';
import {
  formatCursor,
  MAX_SOCKETS_PER_SESSION,
  RETRY_AFTER_HEADER,
  retryAfterSeconds,
  SESSION_IDLE_EXPIRY_MS,
  SessionErrors,
  SessionResponse,
  SocketHandshakeErrors,
} from '../../src/contract/messaging/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { realTime, SECOND_MS, sleep, sleepUntil } from '../../src/suite/slow.js';
import { batchEvents, closeSocketsAfter, control, expectHttpError, idsOf, type Opened, ofType, opened, openOn, socketsSettled, tampered } from './steps.js';

// The WebSocket: handshake errors, history replay and cursors, per-session limits, session expiry.

// --- ws --------------------------------------------------------------------------------------------------

rule('messaging.ws.connect', "upgrades GET /ws with the session's access_token and session_id to a WebSocket", async (api) => {
  closeSocketsAfter(api);
  const h = await api.t.messaging.handshake();
  const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
  api.check.that(conn.opened, 'the upgrade succeeds (101 Switching Protocols) and the socket opens', conn.opened ? 'open' : `${conn.status} ${conn.text}`);
});

rule('messaging.ws.history-batch-on-connect', 'sends EVENT_TYPE_EVENT_BATCH first, also on a new session with no history', async (api) => {
  closeSocketsAfter(api);
  const h = await api.t.messaging.handshake();
  for (const label of ['a new session', 'the same session again']) {
    const socket = await api.t.messaging.open(h);
    const { index, event } = await socket.waitFor(ofType('EVENT_TYPE_EVENT_BATCH'), { what: `EVENT_TYPE_EVENT_BATCH on ${label}` });
    api.check.equal(index, 0, `EVENT_TYPE_EVENT_BATCH is the first event on ${label}`);
    api.check.that(typeof event.payload === 'object' && event.payload !== null, 'the batch carries a payload object', event.payload);
  }
});

rule('messaging.ws.invalid-params', 'refuses a handshake without session_id or access_token with 400 invalid connection parameters', async (api) => {
  const h = await api.t.messaging.handshake();
  const queries: [string, { access_token?: string; session_id?: string }][] = [
    ['without session_id', { access_token: h.accessToken }],
    ['without access_token', { session_id: h.sessionId }],
    ['without either', {}],
  ];
  for (const [what, q] of queries) expectHttpError(api, await api.t.messaging.connect(q), SocketHandshakeErrors.INVALID_PARAMS, what);
});

rule('messaging.ws.session-not-found', 'refuses a handshake for an unknown session_id with 404 session not found', async (api) => {
  const { accessToken } = await api.t.messaging.token();
  const conn = await api.t.messaging.connect({ access_token: accessToken, session_id: 'sess_dialtone_unknown_0000' });
  expectHttpError(api, conn, SocketHandshakeErrors.SESSION_NOT_FOUND, 'an unknown session_id');
});

rule('messaging.ws.auth-failed', 'refuses a malformed or a tampered access_token with 401 authentication failed', async (api) => {
  const h = await api.t.messaging.handshake();
  const tokens: [string, string][] = [
    ['a malformed token', 'not-a-token'],
    ['a tampered token (expiry changed, signature kept)', tampered(h.accessToken)],
  ];
  for (const [what, access_token] of tokens) {
    expectHttpError(api, await api.t.messaging.connect({ access_token, session_id: h.sessionId }), SocketHandshakeErrors.AUTH_FAILED, what);
  }
});

rule(
  'messaging.ws.auth-failed-expired',
  'refuses an access_token past its expires_in with 401 authentication failed',
  async (api) => {
    const h = await api.t.messaging.handshake();
    await control(api).ageToken(h.accessToken, h.expiresIn * 1000 + 1000);
    const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
    expectHttpError(api, conn, SocketHandshakeErrors.AUTH_FAILED, `a token ${h.expiresIn + 1} s old (expires_in ${h.expiresIn})`);
  },
  { needs: ['control'] },
);

rule(
  'messaging.ws.token-must-belong-to-session',
  "refuses a valid access_token of another connector than the session's with 401 authentication failed",
  async (api) => {
    const host = 'other.dialtone.test';
    const other = await control(api).connector({ host_domain: host });
    const foreign = await api.t.messaging.token({ connectorToken: other.connector_token, host });
    const h = await api.t.messaging.handshake();
    const conn = await api.t.messaging.connect({ access_token: foreign.accessToken, session_id: h.sessionId });
    expectHttpError(api, conn, SocketHandshakeErrors.AUTH_FAILED, "a token of another connector than the session's");
  },
  { needs: ['control'] },
);

rule('messaging.ws.token-same-connector', 'records whether a second access token of the same connector opens the session', async (api) => {
  closeSocketsAfter(api);
  const h = await api.t.messaging.handshake();
  const second = await api.t.messaging.token();
  const conn = await api.t.messaging.connect({ access_token: second.accessToken, session_id: h.sessionId });
  api.observe('second token of the same connector', conn.opened ? 'opened' : `${conn.status} ${conn.text.slice(0, 200)}`);
});

rule('messaging.ws.connection-limit', 'refuses the handshake beyond the per-session limit with 429 connection limit exceeded for session', async (api) => {
  closeSocketsAfter(api);
  const h = await api.t.messaging.handshake();
  for (let i = 1; i <= MAX_SOCKETS_PER_SESSION + 3; i++) {
    const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
    if (conn.opened) continue;
    api.observe('refused at socket', i);
    return expectHttpError(api, conn, SocketHandshakeErrors.CONNECTION_LIMIT, `socket ${i} of one session`);
  }
  api.check.that(false, `a refusal within ${MAX_SOCKETS_PER_SESSION + 3} simultaneous sockets`, `all ${MAX_SOCKETS_PER_SESSION + 3} opened`);
});

rule('messaging.ws.handshake-errors-are-http', 'answers failed handshakes as HTTP errors: no socket opens and no event arrives', async (api) => {
  const h = await api.t.messaging.handshake();
  const failing: [string, { access_token?: string; session_id?: string }][] = [
    ['missing parameters', { access_token: h.accessToken }],
    ['unknown session', { access_token: h.accessToken, session_id: 'sess_dialtone_unknown_0000' }],
    ['invalid token', { access_token: 'not-a-token', session_id: h.sessionId }],
  ];
  for (const [what, q] of failing) {
    const conn = await api.t.messaging.connect(q);
    api.check.that(!conn.opened, `${what}: the upgrade is refused (no 101)`, conn.opened ? 'the socket opened' : conn.status);
    if (conn.opened) continue;
    api.check.that(conn.status >= 400 && conn.status < 500, `${what}: an HTTP 4xx status`, conn.status);
    api.check.equal(conn.exchange.frames?.length ?? 0, 0, `${what}: no WebSocket frame at all`);
  }
});

// --- history ---------------------------------------------------------------------------------------------

/** A session with a few history events: the agent joined and answered one message. */
async function withHistory(api: CaseApi): Promise<Opened> {
  const o = await opened(api, { join: true });
  const from = o.socket.events.length;
  o.socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: 'Where is my order?' });
  await o.socket.waitFor(ofType('EVENT_TYPE_AGENT_MESSAGE'), { what: 'the agent reply', from });
  await o.socket.barrier();
  return o;
}

/** The events a new socket on `h` replays from `cursor`. */
async function replay(api: CaseApi, h: Handshake, cursor: string | undefined): Promise<WireEvent[]> {
  const { socket, batch } = await openOn(api, h, cursor);
  await socket.close();
  return batchEvents(batch);
}

rule('messaging.ws.invalid-cursor-full-replay', 'replays the full history, as from seq:0, for a non-numeric cursor', async (api) => {
  const { h } = await withHistory(api);
  const full = await replay(api, h, formatCursor(0));
  api.check.that(full.length > 0, 'seq:0 replays a non-empty history', full.length);
  for (const cursor of ['seq:abc', 'latest', 'seq:']) {
    const got = await replay(api, h, cursor);
    api.check.equal(idsOf(got), idsOf(full), `cursor "${cursor}" replays the same ${full.length} events as seq:0`);
  }
});

rule('messaging.ws.cursor-replays-after', 'replays exactly the history events after seq:n, none before and none twice', async (api) => {
  const { h } = await withHistory(api);
  const full = await replay(api, h, formatCursor(0));
  api.check.that(full.length >= 3, 'a history of at least three events to cut', full.length);
  for (const n of [1, full.length - 1, full.length]) {
    const got = await replay(api, h, formatCursor(n));
    api.check.equal(idsOf(got), idsOf(full.slice(n)), `seq:${n} replays the last ${full.length - n} of ${full.length} events`);
  }
});

rule('messaging.ws.no-cursor-replay', 'records what a reconnect without a cursor replays', async (api) => {
  const { h } = await withHistory(api);
  const full = await replay(api, h, formatCursor(0));
  const got = await replay(api, h, undefined);
  api.observe('without cursor', `${got.length} events (seq:0 replays ${full.length}); same ids: ${JSON.stringify(idsOf(got)) === JSON.stringify(idsOf(full))}`);
});

rule('messaging.ws.cursor-beyond-end', 'records what a cursor beyond the end of the history replays', async (api) => {
  const { h } = await withHistory(api);
  const full = await replay(api, h, formatCursor(0));
  const got = await replay(api, h, formatCursor(full.length + 100));
  api.observe(`seq:${full.length + 100} on a history of ${full.length}`, `${got.length} events`);
});

rule('messaging.ws.history-contents', 'records the batch payload and which events enter the history', async (api) => {
  const { h } = await withHistory(api);
  const { socket, batch } = await openOn(api, h, formatCursor(0));
  await socket.close();
  api.observe('batch payload keys', Object.keys((batch.payload as object | undefined) ?? {}));
  api.observe(
    'history event types',
    batchEvents(batch).map((e) => e.type),
  );
});

rule(
  'messaging.ws.dropped-not-session-end',
  'sends no SESSION_END when a socket drops, and takes a reconnect with the same session_id and a cursor',
  async (api) => {
    const { check, t } = api;
    const a = await opened(api, { join: true });
    const b = await openOn(api, a.h);
    const full = batchEvents(b.batch);
    // A's position: the history events it saw (its own batch plus what arrived live).
    const seenByA = new Set(a.socket.events.flatMap((e) => [e.id, ...idsOf(batchEvents(e))]));
    const position = full.filter((e) => seenByA.has(e.id)).length;
    await a.socket.drop();
    await socketsSettled(api, a.h.sessionId, 1);
    const from = b.socket.events.length;
    await b.socket.barrier();
    check.equal(b.socket.events.slice(from).filter(ofType('SESSION_END')).length, 0, 'no SESSION_END after a socket of the session dropped');
    const conn = await t.messaging.connect({ access_token: a.h.accessToken, session_id: a.h.sessionId, cursor: formatCursor(position) });
    check.that(conn.opened, `a reconnect with cursor seq:${position} opens`, conn.opened ? 'open' : `${conn.status} ${conn.text}`);
    if (!conn.opened) return;
    await conn.socket.waitFor(ofType('EVENT_TYPE_EVENT_BATCH'), { what: 'EVENT_TYPE_EVENT_BATCH on the reconnect' });
    check.that(b.socket.isOpen, 'the other socket of the session stays open', 'closed');
  },
);

// --- limits ----------------------------------------------------------------------------------------------

/** Opens `n` sockets on one new session, one after the other; fails if any is refused. */
async function fill(api: CaseApi, n: number) {
  closeSocketsAfter(api);
  const h = await api.t.messaging.handshake();
  const sockets: MessagingSocket[] = [];
  for (let i = 1; i <= n; i++) {
    const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
    api.check.that(conn.opened, `simultaneous socket ${i} of ${n} opens`, conn.opened ? 'open' : `${conn.status} ${conn.text}`);
    if (conn.opened) sockets.push(conn.socket);
  }
  return { h, sockets };
}

/** Retry-After is whole seconds or an HTTP date (RFC 9110). */
const retryAfterOk = (v: string | undefined) => retryAfterSeconds(v) !== undefined;

rule('messaging.limits.sockets-per-session', 'accepts ten simultaneous sockets on one session and refuses the eleventh with 429', async (api) => {
  const { h } = await fill(api, MAX_SOCKETS_PER_SESSION);
  const eleventh = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
  api.check.that(
    !eleventh.opened && eleventh.status === 429,
    'the eleventh simultaneous socket is refused with 429',
    eleventh.opened ? 'opened' : eleventh.status,
  );
});

rule('messaging.limits.socket-slot-freed', 'records whether closing one of ten sockets frees a slot at once', async (api) => {
  const { h, sockets } = await fill(api, MAX_SOCKETS_PER_SESSION);
  await sockets[0]?.close();
  await socketsSettled(api, h.sessionId, MAX_SOCKETS_PER_SESSION - 1);
  const next = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
  api.observe('a socket after closing one of ten', next.opened ? 'opened' : `${next.status} ${next.text}`);
});

rule(
  'messaging.limits.rate-limit-http',
  'answers a rate-limited access-token or session request with 429 and a Retry-After header',
  async (api) => {
    const { check, t } = api;
    const host = 'limited.dialtone.test';
    const connector = await control(api).connector({ host_domain: host, rate_limits: { http: { limit: 2, window_ms: 60_000 } } });
    const o = { connectorToken: connector.connector_token, host };
    const statuses: number[] = [];
    let first: string | undefined;
    for (let i = 0; i < 3; i++) {
      const res = await t.messaging.accessToken(o);
      statuses.push(res.status);
      first ??= (res.json as { access_token?: string } | undefined)?.access_token;
      if (res.status === 429) {
        check.that(retryAfterOk(res.headers[RETRY_AFTER_HEADER.toLowerCase()]), 'access-token 429 carries Retry-After', res.headers);
      }
    }
    check.equal(statuses, [200, 200, 429], 'with a limit of 2 the third access-token request is rate-limited');
    if (!first) return;
    const sessions: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.messaging.createSession(first, {});
      sessions.push(res.status);
      if (res.status === 429) check.that(retryAfterOk(res.headers[RETRY_AFTER_HEADER.toLowerCase()]), 'sessions 429 carries Retry-After', res.headers);
    }
    check.equal(sessions, [200, 200, 429], 'with a limit of 2 the third session request is rate-limited');
  },
  { needs: ['control'] },
);

rule(
  'messaging.limits.retry-after-when',
  'refuses a rate-limited access-token request retried before the time its Retry-After gives, and accepts it after',
  async (api) => {
    const { check, t } = api;
    const host = 'limited-until.dialtone.test';
    const connector = await control(api).connector({ host_domain: host, rate_limits: { http: { limit: 2, window_ms: 60_000 } } });
    const o = { connectorToken: connector.connector_token, host };
    for (let i = 0; i < 2; i++) check.success(await t.messaging.accessToken(o), `access-token request ${i + 1} of the limit of 2`);
    const limited = await t.messaging.accessToken(o);
    check.status(limited, 429, 'with a limit of 2 the third access-token request is rate-limited');
    const wait = retryAfterSeconds(limited.headers[RETRY_AFTER_HEADER.toLowerCase()], limited.headers.date);
    check.that(wait !== undefined, 'the 429 carries Retry-After (whole seconds or an HTTP date)', limited.headers);
    const s = wait ?? 0;
    // Time passes for this connector's window alone, so cases beside this one keep the shared clock.
    let aged = 0;
    const retryAt = async (ms: number) => {
      await control(api).ageRateLimit(connector.connector_token, ms - aged);
      aged = ms;
      return t.messaging.accessToken(o);
    };
    // Halfway to the announced time, so the real time the requests take cannot carry the retry past it.
    if (s > 0) check.status(await retryAt((s * SECOND_MS) / 2), 429, `a retry ${s / 2} s after the 429, before the Retry-After of ${s} s, is still refused`);
    check.success(await retryAt(s * SECOND_MS + SECOND_MS / 2), `a retry ${s + 0.5} s after the 429, once the Retry-After of ${s} s has passed, is accepted`);
  },
  { needs: ['control'] },
);

rule('messaging.limits.rate-limit-values', 'records when session requests and socket messages start being limited', async (api) => {
  closeSocketsAfter(api);
  const { accessToken } = await api.t.messaging.token();
  const statuses: Record<number, number> = {};
  for (let i = 0; i < 20; i++) {
    const res = await api.t.messaging.createSession(accessToken, {});
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
  api.observe('20 session requests with one token', statuses);
  const sessionId = await api.t.messaging.session(accessToken);
  const socket = await api.t.messaging.open({ accessToken, expiresIn: 0, sessionId });
  for (let i = 0; i < 30; i++) socket.sendEvent('EVENT_TYPE_TYPING_INDICATOR', { is_typing: i % 2 === 0 });
  const answered = await socket.barrier().then(
    () => 'answered',
    () => 'not answered (dropped?)',
  );
  api.observe('a marker after 30 quick socket messages', answered);
  if (api.t.capabilities.has('control')) api.observe('reference configuration', (await control(api).config()).rate_limits);
});

rule(
  'messaging.limits.access-token-lifetime',
  'accepts an access token until expires_in has passed and answers 401 Invalid access token afterwards',
  async (api) => {
    const { accessToken, expiresIn } = await api.t.messaging.token();
    await control(api).ageToken(accessToken, expiresIn * 1000 - 30_000);
    const before = await api.t.messaging.createSession(accessToken, {});
    api.check.that(before.status === 200, `accepted ${expiresIn - 30} s after issue (expires_in ${expiresIn})`, `${before.status} ${before.text}`);
    await control(api).ageToken(accessToken, 31_000);
    const after = await api.t.messaging.createSession(accessToken, {});
    expectHttpError(api, after, SessionErrors.INVALID_ACCESS_TOKEN, `${expiresIn + 1} s after issue`);
  },
  { needs: ['control'] },
);

// --- expiry ----------------------------------------------------------------------------------------------

const MINUTE = 60_000;
/** "About 10 minutes": the suite ages sessions by 11 minutes to be past it, and by 5 to be well before it. */
const PAST_EXPIRY_MS = SESSION_IDLE_EXPIRY_MS + MINUTE;
const WELL_BEFORE_MS = SESSION_IDLE_EXPIRY_MS / 2;
const needsControl = { needs: ['control'] } as const;

rule(
  'messaging.expiry.idle-ten-minutes',
  'refuses the WebSocket of a session idle for 11 minutes with 404 session not found',
  async (api) => {
    const h = await api.t.messaging.handshake();
    await control(api).ageSession(h.sessionId, PAST_EXPIRY_MS);
    const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
    expectHttpError(api, conn, SocketHandshakeErrors.SESSION_NOT_FOUND, 'a session idle for 11 minutes');
  },
  needsControl,
);

rule(
  'messaging.expiry.alive-before',
  'takes a reconnect to a session idle for 5 minutes',
  async (api) => {
    closeSocketsAfter(api);
    const h = await api.t.messaging.handshake();
    const first = await openOn(api, h);
    await first.socket.close();
    await socketsSettled(api, h.sessionId, 0);
    await control(api).ageSession(h.sessionId, WELL_BEFORE_MS);
    const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId, cursor: formatCursor(0) });
    api.check.that(conn.opened, 'the session is alive after 5 idle minutes', conn.opened ? 'open' : `${conn.status} ${conn.text}`);
    if (conn.opened) await conn.socket.waitFor(ofType('EVENT_TYPE_EVENT_BATCH'), { what: 'EVENT_TYPE_EVENT_BATCH' });
  },
  needsControl,
);

rule(
  'messaging.expiry.new-session-required',
  'cannot resume an expired session, not even with a cursor, while a new session works',
  async (api) => {
    closeSocketsAfter(api);
    const h = await api.t.messaging.handshake();
    await control(api).ageSession(h.sessionId, PAST_EXPIRY_MS);
    for (const cursor of [undefined, formatCursor(0)]) {
      const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId, cursor });
      expectHttpError(api, conn, SocketHandshakeErrors.SESSION_NOT_FOUND, `the expired session${cursor ? ` with cursor ${cursor}` : ''}`);
    }
    const res = await api.t.messaging.createSession(h.accessToken, {});
    api.check.status(res, 200, 'a new session is created');
    const { session_id } = api.check.schema(res, SessionResponse, 'session_id');
    api.check.that(session_id !== h.sessionId, 'the new session has a new id', session_id);
    const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id });
    api.check.that(conn.opened, "the new session's socket opens", conn.opened ? 'open' : `${conn.status} ${conn.text}`);
  },
  needsControl,
);

rule(
  'messaging.expiry.activity-definition',
  'records whether a socket and its messages count as activity that postpones expiry',
  async (api) => {
    closeSocketsAfter(api);
    const mc = control(api);
    const h = await api.t.messaging.handshake();
    await mc.ageSession(h.sessionId, 6 * MINUTE);
    const { socket } = await openOn(api, h);
    await socket.barrier();
    api.observe('idle after a connect and a message (ms)', (await mc.session(h.sessionId)).idle_ms);
    await socket.close();
    await socketsSettled(api, h.sessionId, 0);
    await mc.ageSession(h.sessionId, 6 * MINUTE).catch(() => undefined);
    const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
    api.observe('6 + 6 idle minutes around the activity', conn.opened ? 'alive' : `${conn.status} ${conn.text}`);
  },
  needsControl,
);

// --- expiry and token lifetime in real time (--slow) -----------------------------------------------------
// The same rules as the control variants above, checked on any target by waiting instead of ageing. "About 10
// minutes" is taken as 10 minutes ± 1: a session idle for 5 (the rule's own example) is alive, one idle for 11 is
// expired. A token lives exactly expires_in seconds; the margin around it (a twentieth of its life, 3 to 30 s)
// covers the whole seconds of a JWT's exp and the time requests take. These cases run side by side, so each closes
// its sockets in a `finally`.

/** Runs a real-time case body and closes its sockets afterwards, whatever the outcome. */
async function closingAfter(api: CaseApi, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    await api.t.messaging.closeAll();
  }
}

/**
 * An access token valid now: the handshake's own (asked for at `asked`), or, for a target whose tokens live shorter
 * than the wait, a fresh one of the same connector (said in the check's text, since the handshake's would answer 401).
 */
async function tokenNow(api: CaseApi, h: Handshake, asked: number): Promise<{ token: string; note: string }> {
  if (asked + h.expiresIn * SECOND_MS > Date.now() + MINUTE) return { token: h.accessToken, note: '' };
  return { token: (await api.t.messaging.token()).accessToken, note: ` (a fresh token of the same connector: expires_in is ${h.expiresIn} s)` };
}

rule(
  'messaging.expiry.idle-ten-minutes',
  'in real time: refuses the WebSocket of a session left idle for 11 minutes with 404 session not found',
  async (api) =>
    closingAfter(api, async () => {
      const asked = Date.now();
      const h = await api.t.messaging.handshake();
      const idleFrom = Date.now();
      await sleepUntil(idleFrom + PAST_EXPIRY_MS, 'messaging.expiry.idle-ten-minutes: 11 idle minutes');
      api.timing('idle before the reconnect', Date.now() - idleFrom);
      const { token, note } = await tokenNow(api, h, asked);
      const conn = await api.t.messaging.connect({ access_token: token, session_id: h.sessionId });
      expectHttpError(api, conn, SocketHandshakeErrors.SESSION_NOT_FOUND, `a session idle for 11 minutes${note}`);
    }),
  realTime(PAST_EXPIRY_MS),
);

rule(
  'messaging.expiry.alive-before',
  'in real time: takes a reconnect to a session left idle for 5 minutes',
  async (api) =>
    closingAfter(api, async () => {
      const asked = Date.now();
      const h = await api.t.messaging.handshake();
      const first = await openOn(api, h);
      await first.socket.close();
      const idleFrom = Date.now();
      await sleepUntil(idleFrom + WELL_BEFORE_MS, 'messaging.expiry.alive-before: 5 idle minutes');
      api.timing('idle before the reconnect', Date.now() - idleFrom);
      const { token, note } = await tokenNow(api, h, asked);
      const conn = await api.t.messaging.connect({ access_token: token, session_id: h.sessionId, cursor: formatCursor(0) });
      api.check.that(conn.opened, `the session is alive after 5 idle minutes${note}`, conn.opened ? 'open' : `${conn.status} ${conn.text}`);
      if (conn.opened) await conn.socket.waitFor(ofType('EVENT_TYPE_EVENT_BATCH'), { what: 'EVENT_TYPE_EVENT_BATCH' });
    }),
  realTime(WELL_BEFORE_MS),
);

rule(
  'messaging.expiry.new-session-required',
  'in real time: cannot resume a session left idle for 11 minutes, not even with a cursor, while a new session works',
  async (api) =>
    closingAfter(api, async () => {
      const asked = Date.now();
      const h = await api.t.messaging.handshake();
      const idleFrom = Date.now();
      await sleepUntil(idleFrom + PAST_EXPIRY_MS, 'messaging.expiry.new-session-required: 11 idle minutes');
      api.timing('idle before the reconnect', Date.now() - idleFrom);
      const { token, note } = await tokenNow(api, h, asked);
      for (const cursor of [undefined, formatCursor(0)]) {
        const conn = await api.t.messaging.connect({ access_token: token, session_id: h.sessionId, cursor });
        expectHttpError(api, conn, SocketHandshakeErrors.SESSION_NOT_FOUND, `the expired session${cursor ? ` with cursor ${cursor}` : ''}${note}`);
      }
      const res = await api.t.messaging.createSession(token, {});
      api.check.status(res, 200, 'a new session is created');
      const { session_id } = api.check.schema(res, SessionResponse, 'session_id');
      api.check.that(session_id !== h.sessionId, 'the new session has a new id', session_id);
      const conn = await api.t.messaging.connect({ access_token: token, session_id });
      api.check.that(conn.opened, "the new session's socket opens", conn.opened ? 'open' : `${conn.status} ${conn.text}`);
    }),
  realTime(PAST_EXPIRY_MS),
);

rule(
  'messaging.expiry.activity-definition',
  'in real time: records whether a connect and a message after 6 idle minutes keep the session alive 6 minutes later',
  async (api) =>
    closingAfter(api, async () => {
      const asked = Date.now();
      const h = await api.t.messaging.handshake();
      await sleep(6 * MINUTE, 'messaging.expiry.activity-definition: 6 idle minutes');
      const { socket } = await openOn(api, { ...h, accessToken: (await tokenNow(api, h, asked)).token });
      await socket.barrier();
      await socket.close();
      await sleep(6 * MINUTE, 'messaging.expiry.activity-definition: 6 more minutes');
      const conn = await api.t.messaging.connect({ access_token: (await tokenNow(api, h, asked)).token, session_id: h.sessionId });
      api.observe('6 + 6 idle minutes around a connect and a message', conn.opened ? 'alive' : `${conn.status} ${conn.text}`);
    }),
  realTime(12 * MINUTE),
);

/** The longest token life a real-time case waits for; a target whose tokens live longer is skipped with the reason. */
const LONGEST_TOKEN_WAIT_MS = 2 * 60 * MINUTE;
/** The margin around expires_in: a JWT's exp is in whole seconds, and requests take time. */
const tokenMarginMs = (expiresIn: number) => Math.min(30 * SECOND_MS, Math.max(3 * SECOND_MS, (expiresIn * SECOND_MS) / 20));
const tokenLifetime = realTime(LONGEST_TOKEN_WAIT_MS + 30 * SECOND_MS, 'about 61 minutes with 1-hour tokens: expires_in plus half a minute');

/** An access token with when it was asked for and when it arrived: it was issued between the two. */
async function timedToken(api: CaseApi): Promise<{ accessToken: string; expiresIn: number; asked: number; arrived: number; marginMs: number }> {
  const asked = Date.now();
  const { accessToken, expiresIn } = await api.t.messaging.token();
  const arrived = Date.now();
  if (expiresIn * SECOND_MS > LONGEST_TOKEN_WAIT_MS) {
    api.skip(`expires_in is ${expiresIn} s: longer than the ${LONGEST_TOKEN_WAIT_MS / MINUTE} minutes a real-time case waits`);
  }
  return { accessToken, expiresIn, asked, arrived, marginMs: tokenMarginMs(expiresIn) };
}

rule(
  'messaging.ws.auth-failed-expired',
  'in real time: refuses an access_token once its expires_in has passed with 401 authentication failed',
  async (api) =>
    closingAfter(api, async () => {
      const tok = await timedToken(api);
      const margin = tok.marginMs / SECOND_MS;
      // The session is made just before the token expires, so it is not the session's idleness that is refused.
      await sleepUntil(tok.asked + tok.expiresIn * SECOND_MS - tok.marginMs, 'messaging.ws.auth-failed-expired: just before expires_in');
      const session = await api.t.messaging.createSession(tok.accessToken, {});
      api.check.status(session, 200, `a session is created with the token ${margin} s before its expires_in (${tok.expiresIn} s) ends`);
      const { session_id } = api.check.schema(session, SessionResponse, 'session_id');
      await sleepUntil(tok.arrived + tok.expiresIn * SECOND_MS + tok.marginMs, 'messaging.ws.auth-failed-expired: just after expires_in');
      api.timing('token age at the handshake (at least)', Date.now() - tok.arrived);
      const conn = await api.t.messaging.connect({ access_token: tok.accessToken, session_id });
      expectHttpError(api, conn, SocketHandshakeErrors.AUTH_FAILED, `a token ${margin} s past its expires_in (${tok.expiresIn} s)`);
    }),
  tokenLifetime,
);

rule(
  'messaging.limits.access-token-lifetime',
  'in real time: accepts an access token until its expires_in has passed and answers 401 Invalid access token afterwards',
  async (api) => {
    const tok = await timedToken(api);
    const margin = tok.marginMs / SECOND_MS;
    await sleepUntil(tok.asked + tok.expiresIn * SECOND_MS - tok.marginMs, 'messaging.limits.access-token-lifetime: just before expires_in');
    const before = await api.t.messaging.createSession(tok.accessToken, {});
    api.check.that(before.status === 200, `accepted ${margin} s before its expires_in (${tok.expiresIn} s) ends`, `${before.status} ${before.text}`);
    await sleepUntil(tok.arrived + tok.expiresIn * SECOND_MS + tok.marginMs, 'messaging.limits.access-token-lifetime: just after expires_in');
    api.timing('token age at the last request (at least)', Date.now() - tok.arrived);
    const after = await api.t.messaging.createSession(tok.accessToken, {});
    expectHttpError(api, after, SessionErrors.INVALID_ACCESS_TOKEN, `${margin} s past its expires_in (${tok.expiresIn} s)`);
  },
  tokenLifetime,
);
