// Types of `k6/x/dialtone-voice`, dialtone's own module for voice calls without a browser, as @types/k6 types k6's
// modules. The built-in engine provides it (src/engine/modules/voice/module.ts, whose CallSpec and CallResult these
// mirror); k6 has no WebRTC module, so `dialtone load` refuses a scenario importing it on k6.
declare module 'k6/x/dialtone-voice' {
  /** An ICE server as the gateway's ice-servers answer lists it. */
  export interface IceServer {
    urls: string | string[];
    username?: string;
    credential?: string;
  }

  /** One caller turn: from the caller's last utterance frame sent to the first audible frame of the reply (null: none). */
  export interface TurnResult {
    readonly turn: number;
    readonly latencyMs: number | null;
  }

  export interface CallOptions {
    /** The gateway's signaling socket, ws:// or wss://. */
    signalingUrl: string;
    /** The offer's fields beside type, sessionId and data (authToken, callSid, mode, …), as the documents name them. */
    offer: Record<string, unknown>;
    iceServers?: unknown[];
    /** Hand the gateway's TURN servers to werift too (default false: werift gathers before the offer goes, so an unreachable TURN server holds it). */
    turn?: boolean;
    /** Caller turns after the greeting (default 2). */
    turns?: number;
    /** Silence between the end of the agent's reply and the next turn, ms (default 500). */
    pauseMs?: number;
    /** Turns on a schedule: each begins this long after the one before (a held call's known turn rate). */
    turnEveryMs?: number;
    /** Silence held after the last turn before hanging up, ms (default 0). */
    holdMs?: number;
    /** The longest wait for the answer and for ICE and DTLS to connect, ms (default 10000). */
    connectTimeoutMs?: number;
    /** The longest wait for the greeting and for each reply, ms (default 10000). */
    audioTimeoutMs?: number;
    /** No turn begins once the call has lasted this long, ms. */
    untilMs?: number;
    /** Told of each turn as it ends. */
    onTurn?: (t: TurnResult) => void;
  }

  /** Where a call failed: the step of the flow it was in. */
  export type CallPhase = 'signaling' | 'offer' | 'connect' | 'greeting' | 'turn' | 'close';

  /** What one call measured, from the wire. Times are ms from the start of the call (before its socket opened). */
  export interface CallResult {
    readonly ok: boolean;
    readonly error: { readonly phase: CallPhase; readonly message: string } | null;
    readonly offerToAnswerMs: number | null;
    readonly timeToConnectedMs: number | null;
    readonly timeToFirstAgentAudioMs: number | null;
    readonly turns: readonly TurnResult[];
    readonly packetsSent: number;
    readonly packetsReceived: number;
    readonly packetsLost: number;
    /** Lost against expected, 0..1. */
    readonly loss: number;
    /** RFC 3550 interarrival jitter of the agent's audio, ms. */
    readonly jitterMs: number;
    /** Round trip from the gateway's RTCP receiver reports; null where it sent none. */
    readonly rttMs: number | null;
    /** Frames the decoder concealed against frames it played, 0..1. */
    readonly concealedShare: number;
    /** The E-model's R-factor (ITU-T G.107, simplified) and its MOS. */
    readonly rFactor: number;
    readonly mos: number;
    readonly durationMs: number;
  }

  /** Places one call of the documented flow, speaks its turns and hangs up; a failure is in the result, never thrown. */
  export function call(o: CallOptions): Promise<CallResult>;

  const voice: { call: typeof call };
  export default voice;
}
