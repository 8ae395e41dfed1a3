import { iceServerProblems } from '../../src/clients/voice.js';
import { hasTurnsOn443, IceServersResponse, VoicePaths } from '../../src/contract/voice/shapes.js';
import { voiceRule } from './calls.js';

/** The TURN entries of a response: those with a turn: or turns: URL. */
const turnEntries = (res: IceServersResponse) => res.iceServers.filter((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]).some((u) => /^turns?:/i.test(u)));

voiceRule('voice.path.api-v1', 'serves ice-servers and the signaling socket under /api/v1', async ({ t, check }) => {
  const res = await t.voice.iceServers();
  check.status(res, 200, `GET ${VoicePaths.iceServers} answers 200`);
  const socket = await t.voice.signal();
  check.that(socket.open && new URL(socket.url).pathname === VoicePaths.signal, `a WebSocket opens at ${VoicePaths.signal}`, socket.url);
});

voiceRule('voice.ice-servers.bearer', 'answers ice-servers with 200 and an iceServers list for the Bearer voice token', async ({ t, check }) => {
  const res = await t.voice.iceServers();
  check.status(res, 200, 'GET ice-servers with Authorization: Bearer <voice auth token> answers 200');
  check.schema(res, IceServersResponse, 'an object holding iceServers (a non-empty array of {urls, username?, credential?})');
});

voiceRule('voice.ice-servers.unauthorized', 'records what ice-servers answers without a valid Bearer token', async ({ t, observe }) => {
  const none = await t.voice.iceServers({ authorization: null });
  observe('no Authorization header', `${none.status} ${none.text.slice(0, 200)}`);
  const wrong = await t.voice.iceServers({ authorization: 'Bearer dialtone-not-a-voice-token' });
  observe('a token the gateway did not issue', `${wrong.status} ${wrong.text.slice(0, 200)}`);
});

voiceRule('voice.ice-servers.auth-required', 'refuses ice-servers, and hands out no TURN credentials, without a valid Bearer token', async ({ t, check }) => {
  // The status is not shown (voice.ice-servers.unauthorized records it); that the request may not succeed is.
  for (const [label, authorization] of [
    ['no Authorization header', null],
    ['a token the gateway did not issue', 'Bearer dialtone-not-a-voice-token'],
  ] as const) {
    const res = await t.voice.iceServers({ authorization });
    check.that(res.status < 200 || res.status > 299, `ice-servers with ${label} is not answered with success`, `${res.status} ${res.text.slice(0, 200)}`);
    const parsed = IceServersResponse.safeParse(res.json);
    check.that(!parsed.success || turnEntries(parsed.data).length === 0, `ice-servers with ${label} carries no TURN credentials`, res.text.slice(0, 200));
  }
});

voiceRule('voice.ice-servers.usable-directly', 'returns entries a peer connection accepts without changing them', async ({ t, check }) => {
  const res = await t.voice.iceServers();
  const body = check.schema(res, IceServersResponse, 'iceServers of RTCIceServer-like entries {urls, username?, credential?}');
  const problems = iceServerProblems(body.iceServers);
  check.that(
    problems.length === 0,
    'every URL a stun/stuns/turn/turns URI and every TURN entry with username and credential (what RTCPeerConnection accepts)',
    problems.join('; '),
  );
});

voiceRule('voice.ice-servers.fresh-credentials', 'issues different TURN credentials on two requests', async ({ t, check }) => {
  const [a, b] = [await t.voice.iceServers(), await t.voice.iceServers()];
  const [first, second] = [a, b].map((r) => turnEntries(check.schema(r, IceServersResponse, 'the ice-servers response')));
  check.that(
    !!first?.length && !!second?.length,
    'TURN entries with credentials in both responses',
    `${first?.length ?? 0} and ${second?.length ?? 0} TURN entries`,
  );
  const pairs = (entries: typeof first) => JSON.stringify((entries ?? []).map((e) => [e.username, e.credential]));
  check.that(pairs(first) !== pairs(second), 'different TURN username or credential on each request (ephemeral, issued fresh)', pairs(first));
});

voiceRule('voice.ice-servers.turns-443', 'includes a turns: URL on port 443', async ({ t, check }) => {
  const body = check.schema(await t.voice.iceServers(), IceServersResponse, 'the ice-servers response');
  check.that(hasTurnsOn443(body), 'a turns: URL on port 443', JSON.stringify(body.iceServers.map((s) => s.urls)));
});

voiceRule('voice.ice-servers.credential-lifetime', 'records the lifetime the TURN credentials show', async ({ t, check, observe }) => {
  const body = check.schema(await t.voice.iceServers(), IceServersResponse, 'the ice-servers response');
  const username = turnEntries(body)[0]?.username ?? '';
  // The TURN REST API convention puts the expiry (unix seconds) before a colon in the username.
  const expiry = /^(\d{9,}):/.exec(username)?.[1];
  observe(
    'lifetime',
    expiry
      ? `TURN REST API username; expires ${Number(expiry) - Math.floor(Date.now() / 1000)} s after issue`
      : 'not derivable from the response (no expiry in the username)',
  );
});
