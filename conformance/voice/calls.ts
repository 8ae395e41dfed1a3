import type { CallTimings, Source, VoiceCall } from '../../src/clients/voice-call.js';
import type { ServerMessage, SignalingSocket } from '../../src/clients/voice-signaling.js';
import type { RuleId } from '../../src/contract/index.js';
import type { VoiceErrorCode } from '../../src/contract/voice/shapes.js';
import { type CaseApi, type CaseOptions, rule } from '../../src/suite/case.js';

/** What the caller sends in echo cases: a tone no agent voice of the reference target uses. */
export const TONE: Source = { hz: 660, amplitude: 0.25 };
/** Digital silence, for cases where only the gateway's own audio should be heard. */
export const SILENCE: Source = { hz: 0, amplitude: 0 };

/**
 * A voice case: `rule()` plus closing every peer connection and socket the case opened, pass or fail, so no call of
 * one case runs on into the next. Voice cases run in their turn even where the gate runs cases side by side: a call's
 * set-up (peer connection, DTLS) costs the target and the suite CPU, and calls side by side on a busy machine made
 * signaling handshakes and media connections miss their waits.
 */
export function voiceRule(id: RuleId, sentence: string, body: (api: CaseApi) => Promise<void>, options?: CaseOptions): void {
  rule(
    id,
    sentence,
    async (api) => {
      try {
        await body(api);
      } finally {
        await api.t.voice.closeAll();
      }
    },
    { ...options, sequential: true },
  );
}

/** The code of an error message, if it is one. */
export function codeOf(m: ServerMessage | undefined): unknown {
  return m?.type === 'error' ? m.data?.code : undefined;
}

/** Checks that `m` is an error with the documented code; `what` names the message that caused it. */
export function expectCode({ check }: CaseApi, m: ServerMessage | undefined, code: VoiceErrorCode, what: string, socket: SignalingSocket): void {
  check.that(codeOf(m) === code, `${what} is answered with an error of code ${code}`, m ? JSON.stringify(m) : `nothing; received: ${socket.summary()}`);
}

/** A callSid no other case uses, so forced failures and records never cross between cases. */
export function uniqueCallSid(label: string): string {
  return `CA-dialtone-${label}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** The offer's reply: the answer, the error, or a failure that says nothing came. */
export function replyOf(call: VoiceCall): ServerMessage | undefined {
  return call.answer ?? call.error;
}

/** Records a call's timing breakdown in the report. */
export function recordTimings({ timing }: CaseApi, label: string, t: CallTimings): void {
  const steps: [string, number | undefined][] = [
    ['offer→answer', t.answer],
    ['offer→ICE connected', t.iceConnected],
    ['offer→DTLS connected', t.dtlsConnected],
    ['offer→connected', t.connected],
    ['offer→first audio', t.firstAudio],
  ];
  for (const [name, ms] of steps) if (ms !== undefined) timing(`${label} ${name}`, ms);
}
