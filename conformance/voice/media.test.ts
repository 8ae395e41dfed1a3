import { dominantFrequency } from '../../src/clients/voice-audio.js';
import { IceCandidateMessage, SupportedBrowsers, VoiceAudio } from '../../src/contract/voice/shapes.js';
import { agentReplyWait, type Profile } from '../../src/profile/schema.js';
import { recordTimings, SILENCE, TONE, voiceRule } from './calls.js';

/** The audio media section of an SDP. */
const audioSection = (sdp: string) => sdp.split(/\r?\n(?=m=)/).find((s) => s.startsWith('m=audio')) ?? '';
/** The direction of a media section; RFC 8866 makes sendrecv the default. */
const direction = (section: string) => /^a=(sendrecv|sendonly|recvonly|inactive)\s*$/m.exec(section)?.[1] ?? 'sendrecv';

/** The echo must come back at the frequency sent, within a scan step or two, and dominate what comes back. */
const FREQUENCY_TOLERANCE_HZ = 10;
const MIN_TONE_SHARE = 0.5;

/** How long a case waits for the agent's audio: its own wait, or the profile's agent reply wait when that is longer. */
const agentAudioWait = (profile: Profile, ownMs = 5000) => Math.max(ownMs, agentReplyWait(profile).ms);

voiceRule('voice.signaling.ice-both-ways', 'trickles ice-candidate messages both ways until the call is connected', async (api) => {
  const { t, check } = api;
  const call = await t.voice.call({ offer: { mode: 'echo' } });
  await call.connected();
  recordTimings(api, 'echo call', call.timings);
  check.that(call.candidatesSent > 0, 'the caller sent its candidates as ice-candidate messages', call.candidatesSent);
  const real = call.candidatesReceived.filter((m) => typeof m.data?.candidate === 'string' && m.data.candidate !== '');
  check.that(real.length > 0, 'the gateway sent at least one ice-candidate message with a candidate', call.signaling.summary());
  const documented = 'each gateway ice-candidate message is {type, sessionId, data: {candidate, sdpMid, sdpMLineIndex}}';
  const bad = call.candidatesReceived.filter((m) => !IceCandidateMessage.safeParse(m).success);
  check.that(bad.length === 0, documented, JSON.stringify(bad));
  // sdpMid and sdpMLineIndex are optional in the schema: sent under another spelling, only their names tell.
  for (const m of call.candidatesReceived) check.names(m, IceCandidateMessage, documented);
});

voiceRule('voice.signaling.close-ends-session', 'stops the call’s audio after close with the assigned sessionId', async ({ t, check }) => {
  const call = await t.voice.call({ offer: { mode: 'echo' }, source: TONE });
  await call.connected();
  call.startSending();
  await call.packets(10);
  call.hangUp();
  // The caller keeps sending: an echo that still answers means the session did not end. Ended means it stays quiet: a
  // gap alone can be a busy machine's stall, after which a live echo resumes.
  const stopped = await call.quiet(600, 4000, 1000);
  check.that(
    stopped,
    'no audio from the gateway (600 ms without a packet, then none for 1 s more) within 4 s of close, while the caller keeps sending',
    call.describeInbound(),
  );
});

voiceRule('voice.signaling.mode-default', 'runs an offer without mode as end-to-end: the agent speaks to a silent caller', async ({ t, check }) => {
  const call = await t.voice.call({ source: SILENCE });
  check.that(call.answer !== undefined, 'an offer without mode is answered', call.signaling.summary());
  await call.connected();
  call.startSending();
  // Echo would return the caller's silence; only an agent makes sound here.
  const heard = await call.audio({ ms: 100, minDbfs: -40, sinceStart: true, timeoutMs: agentAudioWait(t.profile) }).catch((e: Error) => e);
  check.that(
    !(heard instanceof Error),
    "the agent's audio arrives while the caller is silent (end-to-end, not echo)",
    heard instanceof Error ? heard.message : '',
  );
});

voiceRule(
  'voice.signaling.mode-semantics',
  'records what the caller hears in traditional mode and whether the agent answers a turn',
  async ({ t, observe }) => {
    const call = await t.voice.call({ offer: { mode: 'traditional' }, source: SILENCE });
    await call.connected();
    call.startSending();
    const wait = agentAudioWait(t.profile);
    const greeting = await call.audio({ ms: 100, minDbfs: -40, sinceStart: true, timeoutMs: wait }).catch(() => undefined);
    observe('traditional, caller silent', greeting ? `audio, dominant ${dominantFrequency(greeting).hz} Hz` : `no audio within ${wait} ms`);
    // A turn once the greeting is over: 300 ms of tone, then silence; an agent answers after the pause.
    await call.silence({ ms: 200 }).catch(() => undefined);
    call.startSending(TONE);
    await call.packets(15);
    call.startSending(SILENCE);
    const replyWait = agentAudioWait(t.profile, 4000);
    const reply = await call.audio({ ms: 100, minDbfs: -40, timeoutMs: replyWait }).catch(() => undefined);
    observe('after a caller turn', reply ? `reply audio, dominant ${dominantFrequency(reply).hz} Hz` : `no reply within ${replyWait} ms`);
  },
);

voiceRule('voice.audio.opus-48k-stereo', 'negotiates Opus at 48000 Hz with 2 channels in the answer', async ({ t, check }) => {
  const call = await t.voice.call();
  const section = audioSection(call.answerSdp);
  const formats = /^m=audio \d+ \S+ ([\d ]+)/m.exec(section)?.[1]?.trim().split(' ') ?? [];
  const opus = [...section.matchAll(/^a=rtpmap:(\d+) ([^/\s]+)\/(\d+)(?:\/(\d+))?\s*$/gm)].find((m) => m[2]?.toLowerCase() === VoiceAudio.codec);
  check.that(
    opus !== undefined && formats.includes(opus[1] ?? ''),
    'the answer’s audio section offers Opus (audio/opus) among its formats',
    section.slice(0, 400),
  );
  check.equal(`${opus?.[3]}/${opus?.[4]}`, `${VoiceAudio.clockRate}/${VoiceAudio.channels}`, 'opus/48000/2: 48 kHz, stereo');
});

voiceRule('voice.audio.bidirectional', 'returns the caller’s own tone in echo mode and the agent’s audio in end-to-end mode', async (api) => {
  const { t, check } = api;
  const echo = await t.voice.call({ offer: { mode: 'echo' }, source: TONE });
  const dir = direction(audioSection(echo.answerSdp));
  check.equal(dir, 'sendrecv', 'the answer’s audio is sendrecv (a browser plays nothing from a recvonly answer)');
  await echo.connected();
  echo.startSending();
  const back = await echo.audio({ ms: 300, minDbfs: -35, timeoutMs: 4000 }).catch((e: Error) => e);
  recordTimings(api, 'echo call', echo.timings);
  check.that(!(back instanceof Error), `the ${TONE.hz} Hz tone sent comes back as audio`, back instanceof Error ? back.message : '');
  const found = dominantFrequency(back as Float32Array);
  check.that(
    Math.abs(found.hz - TONE.hz) <= FREQUENCY_TOLERANCE_HZ && found.share >= MIN_TONE_SHARE,
    `the audio that comes back is the ${TONE.hz} Hz tone sent (dominant within ${FREQUENCY_TOLERANCE_HZ} Hz, at least ${MIN_TONE_SHARE * 100}% of the power)`,
    `dominant ${found.hz} Hz, ${(found.share * 100).toFixed(0)}% of the power`,
  );
  await echo.dispose();
  const agent = await t.voice.call({ offer: { mode: 'end-to-end' }, source: SILENCE });
  await agent.connected();
  agent.startSending();
  const heard = await agent.audio({ ms: 100, minDbfs: -40, sinceStart: true, timeoutMs: agentAudioWait(t.profile) }).catch((e: Error) => e);
  recordTimings(api, 'end-to-end call', agent.timings);
  check.that(!(heard instanceof Error), "the agent's audio arrives in end-to-end mode", heard instanceof Error ? heard.message : '');
});

voiceRule('voice.audio.supported-browsers', 'records the supported browsers, which no check can ask the gateway about', async ({ observe }) => {
  observe(
    'supported browsers (informational)',
    Object.entries(SupportedBrowsers)
      .map(([b, v]) => `${b} ${v}+`)
      .join(', '),
  );
});
