import {
  AccessTokenErrors,
  AccessTokenHeaders,
  AccessTokenResponse,
  JwtCompact,
  MessagingPaths,
  Platform,
  SessionErrors,
  SessionHeaders,
  SessionResponse,
} from '../../src/contract/messaging/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { closeSocketsAfter, control, expectHttpError, join, ofType, openOn, tampered, untilBarrier } from './steps.js';

// The handshake: flow, access token (POST /api/v1/access-token) and session (POST /api/v1/sessions).

// --- flow ------------------------------------------------------------------------------------------------

rule(
  'messaging.flow.sequence',
  'completes access token, session, WebSocket, history batch, then the join request with EVENT_TYPE_SERVICE_AGENT_JOINED',
  async (api) => {
    const { t, check } = api;
    closeSocketsAfter(api);
    const token = await t.messaging.accessToken();
    check.status(token, 200, 'the access token is issued');
    const { access_token } = check.schema(token, AccessTokenResponse, 'access_token, expires_in, token_type');
    const session = await t.messaging.createSession(access_token, {});
    check.status(session, 200, 'the session is created');
    const { session_id } = check.schema(session, SessionResponse, 'session_id');
    const conn = await t.messaging.connect({ access_token, session_id });
    check.that(conn.opened, 'the WebSocket opens', conn.opened ? 'open' : `${conn.status} ${conn.text}`);
    if (!conn.opened) return;
    const socket = conn.socket;
    const batch = await socket.waitFor(ofType('EVENT_TYPE_EVENT_BATCH'), { what: 'EVENT_TYPE_EVENT_BATCH' });
    check.equal(batch.index, 0, 'EVENT_TYPE_EVENT_BATCH is the first event');
    socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
    const joined = await socket.waitFor(ofType('EVENT_TYPE_SERVICE_AGENT_JOINED'), { what: 'EVENT_TYPE_SERVICE_AGENT_JOINED', from: batch.index + 1 });
    check.that(joined.index > batch.index, 'EVENT_TYPE_SERVICE_AGENT_JOINED after the history batch', joined.index);
  },
);

rule('messaging.flow.api-v1-paths', 'serves the access-token and session endpoints under /api/v1', async ({ t, check }) => {
  const token = await t.messaging.accessToken();
  check.status(token, 200, `POST ${MessagingPaths.accessToken} answers 200`);
  const { access_token } = check.schema(token, AccessTokenResponse, 'the access-token response');
  const session = await t.messaging.createSession(access_token, {});
  check.status(session, 200, `POST ${MessagingPaths.sessions} answers 200`);
});

rule('messaging.flow.cluster-must-match', 'records the cluster and messaging host the profile pairs', async ({ t, observe }) => {
  const res = await t.messaging.accessToken();
  observe('profile region / messaging host', `${t.profile.region} / ${new URL(t.messaging.baseUrl).host}`);
  observe('access token on that host', res.status);
  observe('wrong cluster', 'the profile names one messaging host, so a host of another cluster was not tried');
});

rule('messaging.flow.http-error-body', 'records the body that carries an HTTP error text', async ({ t, observe }) => {
  const res = await t.messaging.accessToken({ headers: { 'X-Token': undefined } });
  observe('content type', res.headers['content-type'] ?? '(none)');
  observe(`body for "${AccessTokenErrors.MISSING_HEADERS.text}"`, res.text.slice(0, 200));
});

// --- access-token ----------------------------------------------------------------------------------------

/** Decodes one base64url JSON segment of a JWT, or undefined. */
function segment(jwt: string, i: number): unknown {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[i] ?? '', 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

rule('messaging.access-token.success', 'answers 200 to X-Token, a matching X-Host, Content-Type JSON and body {}', async ({ t, check }) => {
  const res = await t.messaging.accessToken();
  check.that(res.exchange.requestBody === '{}', 'the request body is {}', res.exchange.requestBody);
  check.status(res, 200, 'status 200');
});

rule('messaging.access-token.response-fields', 'answers with a JWT access_token, an integer expires_in and token_type', async ({ t, check }) => {
  const res = await t.messaging.accessToken();
  check.status(res, 200);
  const body = check.schema(res, AccessTokenResponse, 'access_token (string), expires_in (integer), token_type');
  check.that(JwtCompact.safeParse(body.access_token).success, 'access_token is a compact JWT (three base64url parts)', body.access_token.slice(0, 24));
  const header = segment(body.access_token, 0) as { alg?: unknown } | undefined;
  check.that(typeof header?.alg === 'string', 'the JWT header is JSON naming its alg', header);
  check.that(typeof segment(body.access_token, 1) === 'object', 'the JWT payload is a JSON object', '(payload not JSON)');
  check.that(body.expires_in > 0, 'expires_in is a positive number of seconds', body.expires_in);
});

rule('messaging.access-token.token-type-bearer', 'answers token_type exactly "Bearer"', async ({ t, check }) => {
  const res = await t.messaging.accessToken();
  check.status(res, 200);
  check.equal((res.json as { token_type?: unknown } | undefined)?.token_type, 'Bearer', 'token_type: "Bearer"');
});

rule('messaging.access-token.host-subdomain-matches', 'issues a token for X-Host values that are subdomains of the registered domain', async ({ t, check }) => {
  for (const host of [`eu.${t.messaging.host}`, `chat.eu.${t.messaging.host}`]) {
    const res = await t.messaging.accessToken({ host });
    check.that(res.status === 200, `X-Host ${host} (a subdomain) answers 200`, `${res.status} ${res.text.slice(0, 200)}`);
    check.schema(res, AccessTokenResponse, `an access token for X-Host ${host}`);
  }
});

rule('messaging.access-token.missing-headers', 'answers 401 Missing authentication headers without X-Token or without X-Host', async (api) => {
  const noToken = await api.t.messaging.accessToken({ headers: { [AccessTokenHeaders.token]: undefined } });
  expectHttpError(api, noToken, AccessTokenErrors.MISSING_HEADERS, 'without X-Token');
  const noHost = await api.t.messaging.accessToken({ headers: { [AccessTokenHeaders.host]: undefined } });
  expectHttpError(api, noHost, AccessTokenErrors.MISSING_HEADERS, 'without X-Host');
});

rule('messaging.access-token.connector-token-not-found', 'answers 401 Connector token does not exist for an unknown X-Token', async (api) => {
  const res = await api.t.messaging.accessToken({ connectorToken: 'dialtone-no-such-connector-token' });
  expectHttpError(api, res, AccessTokenErrors.CONNECTOR_TOKEN_NOT_FOUND, 'an unknown connector token');
});

rule(
  'messaging.access-token.validate-connector-failed',
  'answers 401 Failed to validate connector for another domain and for a look-alike that only ends like the registered one',
  async (api) => {
    const registered = api.t.messaging.host;
    for (const host of ['unregistered.invalid', `not${registered}`]) {
      const res = await api.t.messaging.accessToken({ host });
      expectHttpError(api, res, AccessTokenErrors.CONNECTOR_VALIDATION_FAILED, `X-Host ${host} (registered: ${registered})`);
    }
  },
);

rule(
  'messaging.access-token.connector-missing-host',
  'answers 401 Connector missing host domain for a connector registered without one',
  async (api) => {
    const { connector_token } = await control(api).connector({ host_domain: null });
    const res = await api.t.messaging.accessToken({ connectorToken: connector_token });
    expectHttpError(api, res, AccessTokenErrors.CONNECTOR_MISSING_HOST, 'a connector without a host domain');
  },
  { needs: ['control'] },
);

rule(
  'messaging.access-token.create-failed',
  'answers 500 Failed to create access token when issuing fails inside the target',
  async (api) => {
    const { connector_token } = await control(api).connector({ host_domain: api.t.messaging.host });
    await control(api).failNextAccessToken(connector_token);
    const res = await api.t.messaging.accessToken({ connectorToken: connector_token });
    expectHttpError(api, res, AccessTokenErrors.CREATE_FAILED, 'an internal error while issuing');
  },
  { needs: ['control'] },
);

// --- session ---------------------------------------------------------------------------------------------

/** An access token for the session cases. */
async function token({ t }: CaseApi): Promise<string> {
  return (await t.messaging.token()).accessToken;
}

rule('messaging.session.success', 'answers 200 with a session_id to a Bearer access token and Content-Type JSON', async (api) => {
  const res = await api.t.messaging.createSession(await token(api), {});
  api.check.status(res, 200, 'status 200');
  const body = api.check.schema(res, SessionResponse, 'session_id (string)');
  api.check.that(body.session_id.length > 0, 'a non-empty session_id', body.session_id);
});

rule(
  'messaging.session.body-optional',
  'creates a session without a body that answers with one complete message (streaming off) and is a web session',
  async (api) => {
    const { t, check } = api;
    closeSocketsAfter(api);
    const accessToken = await token(api);
    const res = await t.messaging.createSession(accessToken, undefined, { rawBody: null });
    check.that(res.exchange.requestBody === undefined, 'the request has no body', res.exchange.requestBody);
    check.status(res, 200, 'a session request without a body answers 200');
    const { session_id } = check.schema(res, SessionResponse, 'session_id');
    const { socket } = await openOn(api, { accessToken, expiresIn: 0, sessionId: session_id });
    await join(socket);
    const from = socket.events.length;
    socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: 'What are your opening hours?' });
    await socket.waitFor((e) => e.type === 'EVENT_TYPE_AGENT_MESSAGE' || e.type === 'EVENT_TYPE_AGENT_MESSAGE_CHUNK', { what: 'the agent reply', from });
    const chunks = (await untilBarrier(socket, from)).filter(ofType('EVENT_TYPE_AGENT_MESSAGE_CHUNK'));
    check.equal(chunks.length, 0, 'no chunk events, as with streaming_enabled false');
    if (t.capabilities.has('control')) {
      const s = await control(api).session(session_id);
      check.equal({ streaming_enabled: s.streaming_enabled, platform: s.platform }, { streaming_enabled: false, platform: 'web' }, 'the defaults');
    }
  },
);

rule('messaging.session.user-agent-optional', 'answers 200 to a session request without a User-Agent header', async (api) => {
  const res = await api.t.messaging.createSession(await token(api), {});
  const sent = Object.keys(res.exchange.requestHeaders).map((k) => k.toLowerCase());
  api.check.that(!sent.includes('user-agent'), 'the request carries no User-Agent', sent);
  api.check.status(res, 200, 'status 200 without User-Agent');
  const withAgent = await api.t.messaging.createSession(await token(api), {}, { headers: { [SessionHeaders.userAgent]: 'dialtone-conformance/1' } });
  api.check.status(withAgent, 200, 'status 200 with a User-Agent');
});

rule('messaging.session.platform-enum', 'answers 200 for each of the platforms web, ios, android and custom', async (api) => {
  const accessToken = await token(api);
  for (const platform of Platform.options) {
    const res = await api.t.messaging.createSession(accessToken, { platform });
    api.check.that(res.status === 200, `platform "${platform}" answers 200`, `${res.status} ${res.text.slice(0, 200)}`);
    api.check.schema(res, SessionResponse, `a session for platform "${platform}"`);
  }
});

rule('messaging.session.platform-unknown', 'records what a platform outside the enum is answered', async (api) => {
  const res = await api.t.messaging.createSession(await token(api), { platform: 'smartwatch' });
  api.observe('platform "smartwatch"', `${res.status} ${res.text.slice(0, 200)}`);
});

rule('messaging.session.missing-access-token', 'answers 400 Missing access token without an Authorization header', async (api) => {
  const res = await api.t.messaging.createSession(undefined, {});
  expectHttpError(api, res, SessionErrors.MISSING_ACCESS_TOKEN, 'no Authorization header');
});

rule('messaging.session.missing-auth-headers', 'answers 401 Missing authentication headers to an Authorization header not in Bearer form', async (api) => {
  const accessToken = await token(api);
  const forms: [string, string][] = [
    ['Basic credentials', `Basic ${Buffer.from('user:pass').toString('base64')}`],
    ['the bare token', accessToken],
    ['the Token scheme', `Token ${accessToken}`],
  ];
  for (const [what, value] of forms) {
    const res = await api.t.messaging.createSession(undefined, {}, { headers: { [SessionHeaders.authorization]: value } });
    expectHttpError(api, res, SessionErrors.MISSING_HEADERS, `Authorization with ${what}`);
  }
});

rule('messaging.session.invalid-access-token', 'answers 401 Invalid access token to a malformed or a tampered token', async (api) => {
  const accessToken = await token(api);
  const cases: [string, string][] = [
    ['a malformed token', 'not-a-jwt'],
    ['a tampered token (claims changed, signature kept)', tampered(accessToken)],
  ];
  for (const [what, value] of cases) {
    const res = await api.t.messaging.createSession(value, {});
    expectHttpError(api, res, SessionErrors.INVALID_ACCESS_TOKEN, what);
  }
});

rule('messaging.session.parse-error', 'answers 400 Error parsing request to a body that is not valid JSON', async (api) => {
  const res = await api.t.messaging.createSession(await token(api), undefined, { rawBody: '{"streaming_enabled": tru' });
  expectHttpError(api, res, SessionErrors.PARSE_ERROR, 'an invalid JSON body');
});

rule(
  'messaging.session.create-failed',
  'answers 500 Failed to create session when creating fails inside the target',
  async (api) => {
    const accessToken = await token(api);
    await control(api).failNextSession(accessToken);
    const res = await api.t.messaging.createSession(accessToken, {});
    expectHttpError(api, res, SessionErrors.CREATE_FAILED, 'an internal error while creating');
  },
  { needs: ['control'] },
);
