// voice-calls: voice calls at scale without a browser. Each iteration is one call of the documented flow (document 1)
// from a werift caller in the engine itself (`k6/x/dialtone-voice`): the call's ice-servers, a signaling socket, an
// offer with the voice auth token, trickled candidates both ways, the answer, media both ways, close. Once connected
// the caller sends silence and hears the agent's greeting, then speaks its turns: the utterance dialtone ships (about
// a second of voiced syllables), then silence until the agent's reply has come and gone, and a pause.
//
// Everything is read from the wire: time to connected, time to the agent's first audio, each turn's latency (the
// caller's last utterance frame sent to the reply's first audible frame received), RTP jitter (RFC 3550), packet
// loss, the round trip from RTCP where the gateway sends receiver reports, the decoder's concealment, and the
// E-model's estimated MOS (ITU-T G.107, simplified). Each metric is tagged with the call phase it measures.
//
// Only the built-in engine runs it: k6 has no WebRTC module, and `dialtone load` refuses it on k6 before it starts.

import { check, sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import voice, { type CallResult, type TurnResult } from 'k6/x/dialtone-voice';
import { VoicePaths } from '../src/contract/voice/wire.js';
import type { WorkloadName } from '../src/load/config.js';
import { loadConfig, secret } from '../src/load/vu/config.js';
import type { HoldControl } from '../src/load/vu/hold.js';
import { fetchIceServers } from '../src/load/vu/voice-browser.js';

const cfg = loadConfig();
const webrtcUrl = cfg.target.hosts.webrtc_url;
if (!webrtcUrl) throw new Error('voice-calls needs hosts.webrtc_url in the target profile');
const signalingUrl = `${webrtcUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}${VoicePaths.signal}`;

/** Per workload, what one call does: turns after the greeting, the pause before each, silence held before hanging up. */
const CALL: Record<WorkloadName, { readonly turns: number; readonly pauseMs: number; readonly holdMs: number }> = {
  smoke: { turns: 2, pauseMs: 300, holdMs: 0 },
  nightly: { turns: 4, pauseMs: 800, holdMs: 2_000 },
  capacity: { turns: 3, pauseMs: 500, holdMs: 0 },
};
const shape = CALL[cfg.profile];
/** Milliseconds between the first calls of consecutive VUs. */
const RAMP_MS = 100;

const timeToConnected = new Trend('voice_call_time_to_connected', true);
const timeToFirstAudio = new Trend('voice_call_time_to_first_agent_audio', true);
const offerToAnswer = new Trend('voice_call_offer_to_answer', true);
const turnLatency = new Trend('voice_call_turn_latency', true);
const jitter = new Trend('voice_call_jitter', true);
const rtt = new Trend('voice_call_rtt', true);
/** Lost packets against expected, per call (0..1). */
const loss = new Trend('voice_call_packet_loss');
/** Frames the decoder concealed against frames played, per call (0..1). */
const concealed = new Trend('voice_call_concealed_share');
const mos = new Trend('voice_call_mos');
const success = new Rate('voice_call_success');
/** Turns the agent answered within the wait, against turns taken: sampled as each turn ends, so a held call's steady part has it. */
const turnAnswered = new Rate('voice_call_turn_answered');
const calls = new Counter('voice_calls');
/** Turns the agent answered. */
const turns = new Counter('voice_call_turns');
const errors = new Counter('voice_call_errors');
const packetsLost = new Counter('voice_call_packets_lost');
const packetsReceived = new Counter('voice_call_packets_received');

export const options: Options = {
  scenarios: { voice: cfg.shape },
  // The SLOs (scenarios/voice-calls.defaults.ts, with the profile's `slos`): a breach fails the run (exit 99).
  thresholds: cfg.thresholds,
  // p(5): the MOS SLO's statistic, so the report shows its value.
  summaryTrendStats: ['avg', 'min', 'p(5)', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

/** A turn as it ends: answered or not, its latency, and one more turn answered (a closed capacity step's throughput). */
function turnRecorded(t: TurnResult): void {
  turnAnswered.add(t.latencyMs !== null, { phase: 'turn' });
  check(t, { 'the turn was answered': (x) => x.latencyMs !== null });
  if (t.latencyMs === null) return;
  turns.add(1, { phase: 'turn' });
  turnLatency.add(t.latencyMs, { phase: 'turn', turn: String(Math.min(t.turn, 9)) });
}

/** A call's figures at hang-up, each tagged with the phase it measures. */
function callRecorded(r: CallResult): void {
  calls.add(1, { phase: 'call' });
  if (r.offerToAnswerMs !== null) offerToAnswer.add(r.offerToAnswerMs, { phase: 'offer' });
  if (r.timeToConnectedMs !== null) timeToConnected.add(r.timeToConnectedMs, { phase: 'connect' });
  if (r.timeToFirstAgentAudioMs !== null) timeToFirstAudio.add(r.timeToFirstAgentAudioMs, { phase: 'greeting' });
  if (r.packetsReceived > 0) {
    jitter.add(r.jitterMs, { phase: 'media' });
    loss.add(r.loss, { phase: 'media' });
    concealed.add(r.concealedShare, { phase: 'media' });
    mos.add(r.mos, { phase: 'media' });
    packetsLost.add(r.packetsLost, { phase: 'media' });
    packetsReceived.add(r.packetsReceived, { phase: 'media' });
  }
  if (r.rttMs !== null) rtt.add(r.rttMs, { phase: 'media' });
  if (r.error) {
    errors.add(1, { phase: r.error.phase });
    console.warn(`voice-calls: a call failed at ${r.error.phase}: ${r.error.message}`);
  }
  success.add(r.ok, { phase: 'call' });
  check(r, {
    'the call connected': (c) => c.timeToConnectedMs !== null,
    'the agent was heard': (c) => c.timeToFirstAgentAudioMs !== null,
    'every turn was answered': (c) => c.turns.every((t) => t.latencyMs !== null),
    'no error': (c) => c.error === null,
  });
}

/** One call with the workload's shape; `untilMs` holds it (more turns) for a capacity step's closed model. */
async function oneCall(o: { turns: number; holdMs?: number; untilMs?: number; turnEveryMs?: number; beforeTurn?: () => void }): Promise<CallResult> {
  const token = secret(cfg, 'voice_auth_token');
  const iceServers = await fetchIceServers(webrtcUrl as string, token, VoicePaths.iceServers);
  return voice.call({
    signalingUrl,
    offer: { authToken: token, callSid: `vc-${exec.vu.idInTest}-${exec.vu.iterationInScenario}` },
    iceServers,
    turns: o.turns,
    pauseMs: shape.pauseMs,
    holdMs: o.holdMs ?? shape.holdMs,
    ...(o.untilMs !== undefined ? { untilMs: o.untilMs } : {}),
    ...(o.turnEveryMs !== undefined ? { turnEveryMs: o.turnEveryMs } : {}),
    onTurn: (t) => {
      o.beforeTurn?.();
      turnRecorded(t);
    },
  });
}

/**
 * One call before the VUs start, recorded nowhere: a gateway's cold start (the reference target loads its media engine
 * at its first voice request) is not what the SLOs judge.
 */
export async function setup(): Promise<void> {
  const r = await oneCall({ turns: 0 });
  if (!r.ok) console.warn(`voice-calls: the warm-up call failed at ${r.error?.phase}: ${r.error?.message}`);
}

/**
 * Calls reach a gateway one after another, not in one instant: each VU's first call waits its place in a ramp, 100 ms
 * a VU (10 calls a second). All at once, werift's DTLS handshakes on both sides starve each other's first flights, which
 * werift sends again only after 0.5 s, 1 s, 1.5 s…, and a few calls miss the connect timeout.
 */
function rampIn(): void {
  if (exec.vu.iterationInScenario === 0) sleep((((exec.vu.idInTest - 1) % 100) * RAMP_MS) / 1000);
}

export default async function voiceCalls(): Promise<void> {
  rampIn();
  callRecorded(await oneCall({ turns: shape.turns }));
}

/**
 * The closed model of a capacity step: one call held for the whole step, a turn every 1 / messageRate seconds (the
 * step's message rate is turns a second per call), until the step ends.
 */
export async function hold(ctl: HoldControl): Promise<void> {
  rampIn();
  ctl.mark();
  const r = await oneCall({
    turns: Number.MAX_SAFE_INTEGER,
    holdMs: 0,
    // Turns begin until the step ends; the last one is answered in the graceful stop, counted in the tail.
    untilMs: ctl.remainingMs(),
    turnEveryMs: 1000 / ctl.messageRate,
    beforeTurn: () => ctl.mark(),
  });
  ctl.mark();
  callRecorded(r);
}
