// `k6/x/dialtone-voice`: dialtone's own module for voice calls without a browser, in the manner of a k6 extension's
// import name. One function, `call`, places a werift call of the documented flow and resolves with what it measured;
// the scenario records its figures as metrics. Only the built-in engine provides it: k6 has no WebRTC module, and
// `dialtone load` refuses such a scenario on k6 before it starts.
import type { RTCIceServer } from 'werift';
import type { VuHost } from '../../types.js';
import { type CallResult, type CallSpec, placeCall } from './caller.js';
import { Pacer } from './pacer.js';
import { callerVoice, FRAME_MS } from './utterance.js';

/** The import name scenarios use (its description's name). */
export const VOICE_MODULE = 'k6/x/dialtone-voice';

/** What `call` takes from a script; everything but the socket's URL and the offer's fields has a default. */
const DEFAULTS = { turns: 2, pauseMs: 500, holdMs: 0, connectTimeoutMs: 10_000, audioTimeoutMs: 10_000 } as const;

/** One frame clock per engine thread, shared by every VU of the thread. */
let pacer: Pacer | undefined;

function specOf(o: unknown): CallSpec {
  if (!o || typeof o !== 'object') throw new TypeError(`${VOICE_MODULE}: call() takes an object ({ signalingUrl, offer, … })`);
  const x = o as Record<string, unknown>;
  if (typeof x.signalingUrl !== 'string' || !/^wss?:\/\//.test(x.signalingUrl))
    throw new TypeError(`${VOICE_MODULE}: call() needs signalingUrl, a ws:// or wss:// URL`);
  if (!x.offer || typeof x.offer !== 'object') throw new TypeError(`${VOICE_MODULE}: call() needs offer, the offer's fields (authToken, …)`);
  const num = (k: keyof typeof DEFAULTS) => {
    const v = x[k] ?? DEFAULTS[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new TypeError(`${VOICE_MODULE}: call() option ${k} must be a number of 0 or more`);
    return v;
  };
  return {
    signalingUrl: x.signalingUrl,
    offer: x.offer as Record<string, unknown>,
    iceServers: Array.isArray(x.iceServers) ? (x.iceServers as RTCIceServer[]) : [],
    turns: Math.floor(num('turns')),
    pauseMs: num('pauseMs'),
    holdMs: num('holdMs'),
    connectTimeoutMs: num('connectTimeoutMs'),
    audioTimeoutMs: num('audioTimeoutMs'),
    turn: x.turn === true,
    ...(typeof x.turnEveryMs === 'number' && x.turnEveryMs > 0 ? { turnEveryMs: x.turnEveryMs } : {}),
    ...(typeof x.untilMs === 'number' ? { untilMs: x.untilMs } : {}),
    ...(typeof x.onTurn === 'function' ? { onTurn: x.onTurn as CallSpec['onTurn'] } : {}),
  };
}

/** The `k6/x/dialtone-voice` module for one VU. */
export function voiceModule(vu: VuHost) {
  return {
    /** Places one call, speaks its turns, hangs up; resolves with its figures (a failure is in them, never thrown). */
    call(o: unknown): Promise<CallResult> {
      const spec = specOf(o);
      const insecure = vu.tls.insecure || vu.options.insecureSkipTLSVerify === true;
      pacer ??= new Pacer(FRAME_MS);
      return vu.track(placeCall(spec, { tls: { ca: vu.tls.ca, insecure }, voice: callerVoice(), pacer, signal: vu.signal }));
    },
  };
}
