import { AnswerMessage, ErrorMessage, VoiceMode } from '../../src/contract/voice/shapes.js';
import { codeOf, expectCode, replyOf, uniqueCallSid, voiceRule } from './calls.js';

/** The ICE username fragment of an SDP: one per ICE agent, so one per session. */
const ufrag = (sdp: string) => /^a=ice-ufrag:(\S+)/m.exec(sdp)?.[1];

voiceRule('voice.signaling.required-fields', 'answers INVALID_MESSAGE to a message missing type or sessionId', async (api) => {
  const { t, check } = api;
  const [socket, sdp] = [await t.voice.signal(), await t.voice.offerSdp()];
  socket.send({ type: 'offer', authToken: t.voice.token, data: { type: 'offer', sdp } });
  expectCode(
    api,
    await socket.nextError('an error for an offer without sessionId').catch(() => undefined),
    'INVALID_MESSAGE',
    'an offer without sessionId',
    socket,
  );
  socket.send({ sessionId: '', authToken: t.voice.token, data: { type: 'offer', sdp } });
  const error = await socket.nextError('an error for a message without type').catch(() => undefined);
  expectCode(api, error, 'INVALID_MESSAGE', 'a message without type', socket);
  check.that(typeof error?.type === 'string' && typeof error.sessionId === 'string', 'the error itself carries type and sessionId', JSON.stringify(error));
});

voiceRule('voice.signaling.type-enum', 'answers INVALID_MESSAGE to a message of a type outside the five', async (api) => {
  const socket = await api.t.voice.signal();
  socket.send({ type: 'hangup', sessionId: '' });
  expectCode(api, await socket.nextError().catch(() => undefined), 'INVALID_MESSAGE', 'a message of type "hangup"', socket);
});

voiceRule('voice.signaling.offer-creates-session', 'creates a new session for each offer with an empty sessionId', async ({ t, check }) => {
  const socket = await t.voice.signal();
  const first = await t.voice.call({}, socket);
  const second = await t.voice.call({}, socket);
  check.that(first.answer !== undefined && second.answer !== undefined, 'each offer with an empty sessionId is answered', socket.summary());
  const [a, b] = [ufrag(first.answerSdp), ufrag(second.answerSdp)];
  check.that(a !== undefined && b !== undefined && a !== b, 'two sessions: two answers from two peer connections (distinct ICE ufrag)', `${a} and ${b}`);
});

voiceRule('voice.signaling.answer-session-id', 'answers an offer with the assigned non-empty sessionId and the SDP answer', async ({ t, check }) => {
  const call = await t.voice.call();
  check.that(call.answer !== undefined, 'an answer to a valid offer', call.signaling.summary());
  check.that(
    AnswerMessage.safeParse(call.answer).success,
    '{type: answer, sessionId: <non-empty, assigned>, data: {type: answer, sdp}}',
    JSON.stringify({ ...call.answer, data: { ...call.answer?.data, sdp: '…' } }),
  );
  check.names(call.answer, AnswerMessage, '{type: answer, sessionId, data: {type: answer, sdp}}');
});

voiceRule('voice.signaling.session-id-reused', 'accepts ice-candidate and close messages carrying the assigned sessionId', async ({ t, check, observe }) => {
  const call = await t.voice.call();
  check.that(call.answer !== undefined, 'an answer to a valid offer', call.signaling.summary());
  check.that(call.candidatesSent > 0, 'the caller trickled its candidates with the sessionId', call.candidatesSent);
  call.hangUp();
  const after = await call.signaling.barrier(call.replyIndex + 1);
  const errors = after.filter((m) => m.type === 'error');
  check.that(errors.length === 0, 'no error for ice-candidate and close messages that carry the assigned sessionId', JSON.stringify(errors));
  observe('messages after the answer', `${call.candidatesSent} ice-candidate and 1 close sent; ${after.length} messages back`);
});

voiceRule('voice.signaling.after-close', 'records what the gateway answers to a closed or unknown sessionId', async ({ t, observe }) => {
  const call = await t.voice.call();
  call.hangUp();
  const from = call.signaling.frames.length;
  call.signaling.send({ type: 'ice-candidate', sessionId: call.sessionId, data: { candidate: '', sdpMid: '0', sdpMLineIndex: 0 } });
  call.signaling.send({ type: 'close', sessionId: call.sessionId });
  call.signaling.send({ type: 'close', sessionId: 'dialtone-unknown-session' });
  // The gateway's own trickled candidates may still be on their way; only its answers to these three count.
  const after = (await call.signaling.barrier(from)).filter((m) => m.type !== 'ice-candidate');
  observe(
    'after close (ice-candidate, close) and for an unknown sessionId (close)',
    after.map((m) => `${m.type}${codeOf(m) ? ` ${codeOf(m)} "${String(m.data?.message)}"` : ''}`).join(', ') || 'nothing',
  );
});

voiceRule('voice.signaling.offer-with-session-id', 'records what an offer with a non-empty sessionId does', async ({ t, observe }) => {
  const call = await t.voice.call();
  const renegotiation = await call.pc.createOffer();
  const reply = async (sessionId: string) => {
    const from = call.signaling.frames.length;
    call.signaling.send({ type: 'offer', sessionId, authToken: t.voice.token, data: { type: 'offer', sdp: renegotiation.sdp } });
    const m = await call.signaling.next((x) => x.type === 'answer' || x.type === 'error', 'answer or error', { after: from }).catch(() => undefined);
    return m
      ? `${m.type}${codeOf(m) ? ` ${codeOf(m)}` : ''}${m.type === 'answer' ? ` (sessionId ${m.sessionId === call.sessionId ? 'kept' : 'changed'})` : ''}`
      : 'nothing';
  };
  observe('offer with the live sessionId (renegotiation)', await reply(call.sessionId));
  observe('offer with an unknown sessionId', await reply('dialtone-unknown-session'));
});

voiceRule('voice.signaling.mode-values', 'accepts an offer in each of the modes end-to-end, traditional and echo', async ({ t, check }) => {
  const socket = await t.voice.signal();
  for (const mode of VoiceMode.options) {
    const call = await t.voice.call({ offer: { mode } }, socket);
    check.that(call.answer !== undefined, `an offer with mode "${mode}" is answered`, JSON.stringify(replyOf(call)) ?? socket.summary());
  }
});

voiceRule('voice.signaling.mode-unknown', 'answers INVALID_ARGUMENT to an offer with an unknown mode', async (api) => {
  const call = await api.t.voice.call({ offer: { mode: 'karaoke' } });
  expectCode(api, replyOf(call), 'INVALID_ARGUMENT', 'an offer with mode "karaoke"', call.signaling);
});

voiceRule('voice.signaling.optional-fields', 'accepts an offer carrying every optional field and keeps them on the call', async ({ t, check, observe }) => {
  const callSid = uniqueCallSid('fields');
  const fields = {
    callSid,
    caller: '+15551230001',
    callee: '+15559870002',
    accountId: t.profile.account_id,
    projectId: t.profile.project_id,
    // A variant other than the default, where the profile names one: a gateway that ignored it would keep the default.
    variantId: t.profile.variant_id_alt ?? t.profile.variant_id ?? 'VARIANT-main',
    agentVersionOverride: { artifactVersion: 'artifact-1', lambdaDeploymentVersion: '3' },
  };
  const call = await t.voice.call({ offer: fields });
  check.that(
    call.answer !== undefined,
    'an offer with callSid, caller, callee, accountId, projectId, variantId and agentVersionOverride is answered',
    JSON.stringify(replyOf(call)),
  );
  if (!t.capabilities.has('control')) return observe('call record', 'not checked: the target has no control surface');
  // By the assigned sessionId, or by callSid when the answer named none (that is another rule's failure, not this one's).
  const session = (await t.voice.sessions(t.control)).find((s) => (call.sessionId ? s.sessionId === call.sessionId : s.callSid === callSid));
  const kept = { caller: session?.caller, callee: session?.callee, variantId: session?.variantId };
  check.equal(kept, { caller: fields.caller, callee: fields.callee, variantId: fields.variantId }, 'the call record keeps caller, callee and variantId');
});

voiceRule('voice.signaling.call-sid-camel-case', 'takes the call identifier from callSid, not from call_sid', async ({ t, check, observe }) => {
  const camel = uniqueCallSid('camel');
  const call = await t.voice.call({ offer: { callSid: camel } });
  check.that(call.answer !== undefined, 'an offer with callSid is answered', JSON.stringify(replyOf(call)));
  if (!t.capabilities.has('control')) return observe('call record', 'not checked: the target has no control surface');
  const snake = uniqueCallSid('snake');
  const other = await t.voice.call({ offer: { extra: { call_sid: snake } } });
  observe('offer with call_sid instead', other.answer ? 'answered' : JSON.stringify(replyOf(other)));
  const sessions = await t.voice.sessions(t.control);
  check.that(
    sessions.some((s) => s.callSid === camel),
    `the call record carries callSid ${camel}`,
    JSON.stringify(sessions.find((s) => s.sessionId === call.sessionId)),
  );
  check.that(!sessions.some((s) => s.callSid === snake), 'call_sid (the outbound REST spelling) is not read as the call identifier', snake);
});

voiceRule('voice.signaling.error-shape', 'sends errors as {type: error, sessionId, data: {code, message}} with a documented code', async ({ t, check }) => {
  const socket = await t.voice.signal();
  socket.send('{not json');
  const first = await socket.nextError('an error for a frame that is not JSON').catch(() => undefined);
  const call = await t.voice.call({ offer: { authToken: 'dialtone-not-a-voice-token' } }, socket);
  for (const [what, m] of [
    ['a frame that is not JSON', first],
    ['an offer with an invalid authToken', replyOf(call)],
  ] as const) {
    check.that(
      ErrorMessage.safeParse(m).success,
      `the error for ${what} has type error, sessionId and data {code (documented), message}`,
      JSON.stringify(m) ?? socket.summary(),
    );
  }
});

voiceRule('voice.signaling.after-error', 'records whether the socket stays open and usable after an error', async ({ t, observe }) => {
  const socket = await t.voice.signal();
  socket.send('{not json');
  await socket.nextError().catch(() => undefined);
  const call = socket.open ? await t.voice.call({}, socket) : undefined;
  observe(
    'after an INVALID_MESSAGE error',
    socket.open
      ? `socket open; a valid offer on it: ${call?.answer ? 'answered' : JSON.stringify(call && replyOf(call))}`
      : `socket closed ${JSON.stringify(socket.closed)}`,
  );
});
