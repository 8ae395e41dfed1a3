import { type PeerConfig, RTCDtlsTransport, RTCPeerConnection } from 'werift';
import { VOICE_SCRIPTS } from './agent.js';
import { answerOffer, peerConfig, withoutFallbackStun } from './answerer.js';
import { encodeClips, type VoiceClips } from './opus.js';
import { VoiceSession } from './session.js';

// The media engine: everything that needs werift and Opus. The gateway imports this module on its own, in the
// background, so starting a target (and every non-voice run) does not wait the best part of a second for werift.

/** The encoded agent voices; ready once warm-up is done. */
export type Voices = Readonly<Record<'end-to-end' | 'traditional', VoiceClips>>;

/** What the gateway gets once the engine is loaded and warm. */
export interface Engine {
  readonly voices: Voices;
  peerConfig(host: string): Partial<PeerConfig>;
  readonly open: typeof VoiceSession.open;
  /** Settles when the warm-up call is over (it never rejects: a failed warm-up only makes the first call slower). */
  readonly warmed: Promise<void>;
}

const WARM_CALL_TIMEOUT_MS = 3000;

/**
 * One call from werift to werift inside the target, so the first real call does not pay for the DTLS certificate,
 * the Opus library's start-up and the JIT of the media path. A warm-up that fails only costs the first call time.
 */
async function loopbackCall(signal: AbortSignal): Promise<void> {
  const caller = new RTCPeerConnection(peerConfig('127.0.0.1'));
  let answerer: RTCPeerConnection | undefined;
  try {
    caller.addTransceiver('audio', { direction: 'sendrecv' });
    const toAnswerer: Parameters<RTCPeerConnection['addIceCandidate']>[0][] = [];
    caller.onIceCandidate.subscribe((c) => c && toAnswerer.push(c.toJSON()));
    const offer = await caller.createOffer();
    withoutFallbackStun(caller);
    await caller.setLocalDescription(offer);
    const answered = await answerOffer(offer.sdp, peerConfig('127.0.0.1'), {}, (c) => {
      if (c.candidate) void caller.addIceCandidate({ candidate: c.candidate, sdpMid: c.sdpMid ?? undefined, sdpMLineIndex: c.sdpMLineIndex ?? undefined });
    });
    answerer = answered.pc;
    await caller.setRemoteDescription({ type: 'answer', sdp: answered.sdp });
    for (const c of toAnswerer) await answerer.addIceCandidate(c);
    if (signal.aborted) return;
    const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    // Both sides: closing once only one is connected leaves werift's DTLS client retransmitting for half a minute.
    const connected = (pc: RTCPeerConnection) =>
      pc.connectionState === 'connected' ? Promise.resolve() : pc.connectionStateChange.watch((s) => s === 'connected', WARM_CALL_TIMEOUT_MS);
    await Promise.race([Promise.all([connected(caller), connected(answerer)]), aborted]);
  } finally {
    await Promise.allSettled([caller.close(), answerer?.close()]);
  }
}

/** Loads and warms the engine: encodes the voices and makes werift's certificate; the loopback call runs on behind. */
export async function startEngine(signal: AbortSignal): Promise<Engine> {
  const voices = { 'end-to-end': encodeClips(VOICE_SCRIPTS['end-to-end']), traditional: encodeClips(VOICE_SCRIPTS.traditional) };
  await RTCDtlsTransport.SetupCertificate();
  // Offers do not wait for the warm-up call: on a busy machine it could hold the first answer for seconds.
  const warmed = signal.aborted ? Promise.resolve() : loopbackCall(signal).catch(() => {});
  return { voices, peerConfig, open: (...args) => VoiceSession.open(...args), warmed };
}
