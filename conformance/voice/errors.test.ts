import { VoiceErrors } from '../../src/contract/voice/shapes.js';
import { codeOf, expectCode, replyOf, uniqueCallSid, voiceRule } from './calls.js';

const NOT_THE_TOKEN = 'dialtone-not-a-voice-token';

voiceRule('voice.auth.token-on-every-offer', 'checks authToken on every offer, not only on the first of a socket', async (api) => {
  const { t, check } = api;
  const socket = await t.voice.signal();
  const first = await t.voice.call({}, socket);
  check.that(first.answer !== undefined, 'an offer with a valid authToken is answered', JSON.stringify(replyOf(first)));
  const second = await t.voice.call({ offer: { authToken: NOT_THE_TOKEN } }, socket);
  expectCode(api, replyOf(second), 'UNAUTHORIZED', 'a second offer on the same socket with a token the gateway did not issue', socket);
});

voiceRule('voice.errors.auth-token-required', 'answers an offer without authToken with UNAUTHORIZED "Auth token required"', async (api) => {
  const call = await api.t.voice.call({ offer: { authToken: null } });
  const m = replyOf(call);
  expectCode(api, m, 'UNAUTHORIZED', 'an offer without authToken', call.signaling);
  api.check.equal(m?.data?.message, VoiceErrors.AUTH_TOKEN_REQUIRED.text, `message "${VoiceErrors.AUTH_TOKEN_REQUIRED.text}"`);
});

voiceRule('voice.errors.unauthorized-invalid', 'answers an offer with an invalid authToken with UNAUTHORIZED', async (api) => {
  const call = await api.t.voice.call({ offer: { authToken: NOT_THE_TOKEN } });
  expectCode(api, replyOf(call), 'UNAUTHORIZED', 'an offer with a token the gateway did not issue', call.signaling);
});

voiceRule('voice.errors.invalid-argument', 'answers INVALID_ARGUMENT to an invalid field value', async (api) => {
  const call = await api.t.voice.call({ offer: { agentVersionOverride: 'latest' } });
  expectCode(
    api,
    replyOf(call),
    'INVALID_ARGUMENT',
    'an offer whose agentVersionOverride is a string, not {artifactVersion, lambdaDeploymentVersion}',
    call.signaling,
  );
});

voiceRule('voice.errors.invalid-message', 'answers INVALID_MESSAGE to a frame that is not JSON', async (api) => {
  const socket = await api.t.voice.signal();
  socket.send('this is not JSON');
  expectCode(api, await socket.nextError().catch(() => undefined), 'INVALID_MESSAGE', 'a frame that is not JSON', socket);
});

voiceRule(
  'voice.errors.handler-error',
  'reports HANDLER_ERROR when processing a well-formed offer fails',
  async (api) => {
    const { t } = api;
    const callSid = uniqueCallSid('handler');
    await t.voice.forceFailure(t.control, callSid, 'HANDLER_ERROR');
    const call = await t.voice.call({ offer: { callSid } });
    expectCode(api, replyOf(call), 'HANDLER_ERROR', 'an offer whose processing fails', call.signaling);
  },
  { needs: ['control'] },
);

voiceRule(
  'voice.errors.media-bridge-failure',
  'reports MEDIA_BRIDGE_FAILURE when the media connection cannot be established',
  async (api) => {
    const { t } = api;
    const callSid = uniqueCallSid('bridge');
    await t.voice.forceFailure(t.control, callSid, 'MEDIA_BRIDGE_FAILURE');
    const call = await t.voice.call({ offer: { callSid } });
    const error = call.error ?? (await call.signaling.nextError('an error after the answer', { after: call.replyIndex }).catch(() => undefined));
    expectCode(api, error, 'MEDIA_BRIDGE_FAILURE', 'a call whose media bridge fails', call.signaling);
  },
  { needs: ['control'] },
);

voiceRule(
  'voice.errors.agent-failure',
  'reports AGENT_FAILURE when the agent cannot be reached',
  async (api) => {
    const { t } = api;
    const callSid = uniqueCallSid('agent');
    await t.voice.forceFailure(t.control, callSid, 'AGENT_FAILURE');
    const call = await t.voice.call({ offer: { callSid, mode: 'end-to-end' } });
    const error = call.error ?? (await call.signaling.nextError('an error after the answer', { after: call.replyIndex }).catch(() => undefined));
    expectCode(api, error, 'AGENT_FAILURE', 'a call whose agent cannot be reached', call.signaling);
  },
  { needs: ['control'] },
);

voiceRule('voice.errors.messages', 'records the error messages and the code for an SDP the gateway cannot use', async ({ t, observe }) => {
  const show = (m: ReturnType<typeof replyOf>) => (m?.type === 'error' ? `${String(codeOf(m))} "${String(m.data?.message)}"` : (m?.type ?? 'nothing'));
  observe('invalid authToken', show(replyOf(await t.voice.call({ offer: { authToken: NOT_THE_TOKEN } }))));
  observe('unknown mode', show(replyOf(await t.voice.call({ offer: { mode: 'karaoke' } }))));
  const socket = await t.voice.signal();
  socket.send('this is not JSON');
  observe('a frame that is not JSON', show(await socket.nextError().catch(() => undefined)));
  socket.send({ type: 'offer', sessionId: '', authToken: t.voice.token, data: { type: 'offer', sdp: 'v=0\r\ns=no media\r\n' } });
  observe('an offer whose SDP has no audio', show(await socket.nextError().catch(() => undefined)));
});
