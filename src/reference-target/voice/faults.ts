import { z } from 'zod';

/** The failures the control surface can force on a call; the documented codes a healthy loopback call never meets. */
export const ForcedFailure = z.enum(['HANDLER_ERROR', 'MEDIA_BRIDGE_FAILURE', 'AGENT_FAILURE']);
export type ForcedFailure = z.infer<typeof ForcedFailure>;

/** Body of `POST /voice/faults` on the control surface. */
export const ForceFailureRequest = z.object({ callSid: z.string().min(1), code: ForcedFailure });

/**
 * Failures forced through the control surface, keyed by the callSid of the offer they hit. Keyed rather than "the
 * next call", so cases running side by side never take each other's fault. Each is used once.
 */
export class ForcedFailures {
  readonly #byCallSid = new Map<string, ForcedFailure>();

  set(callSid: string, code: ForcedFailure): void {
    this.#byCallSid.set(callSid, code);
  }

  /** Takes the failure forced for this callSid, if it is `code`. */
  take(callSid: string | undefined, code: ForcedFailure): boolean {
    if (callSid === undefined || this.#byCallSid.get(callSid) !== code) return false;
    this.#byCallSid.delete(callSid);
    return true;
  }
}
