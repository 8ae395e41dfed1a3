import { type PeerConfig, RTCPeerConnection, RTCRtpCodecParameters, type RTCRtpTransceiver } from 'werift';
import type { IceCandidateData } from '../../contract/voice/shapes.js';
import { VoiceAudio } from '../../contract/voice/shapes.js';

/** How the answerer departs from the documented behaviour, when a defect asks it to. */
export interface AnswerFaults {
  /** Leave the transceiver recvonly, as werift does by default for a remote offer. */
  readonly recvonly?: boolean;
  /** Announce Opus without its channel count (mono, by SDP's default). */
  readonly mono?: boolean;
}

/** A negotiated peer connection of the gateway, with the answer to send. */
export interface Answered {
  readonly pc: RTCPeerConnection;
  readonly transceiver: RTCRtpTransceiver;
  /** The answer SDP as created, before gathering: candidates follow as trickled ice-candidate messages. */
  readonly sdp: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** ICE settings that gather only `address` and bind every media socket to it. */
function loopbackOnly(address: string): Partial<PeerConfig> {
  const v6 = address.includes(':');
  return {
    iceUseIpv4: false,
    iceAdditionalHostAddresses: [address],
    iceInterfaceAddresses: v6 ? { udp6: address } : { udp4: address },
  };
}

/**
 * Peer connection settings of the gateway: Opus only, no STUN or TURN server (nothing off the machine), and a loopback
 * host candidate when the target listens on loopback (werift leaves loopback out by default).
 */
export function peerConfig(host: string): Partial<PeerConfig> {
  return {
    codecs: { audio: [new RTCRtpCodecParameters({ mimeType: VoiceAudio.mimeType, clockRate: VoiceAudio.clockRate, channels: VoiceAudio.channels })] },
    iceServers: [],
    iceUseIpv6: false,
    // werift gathers TCP candidates by default, and an active TCP candidate can hold gathering (and the answer) 5 s.
    iceUseTcp: false,
    // On loopback: gather the loopback address only and bind the media sockets there, not on 0.0.0.0.
    ...(LOOPBACK.has(host) ? loopbackOnly(host === 'localhost' ? '127.0.0.1' : host) : {}),
  };
}

/**
 * Takes away the STUN server werift falls back to when none is configured (stun.l.google.com): the gateway must not
 * reach off the machine, and a STUN query that goes unanswered holds gathering, and with it the answer, for 5 s.
 * Call it after the ICE transports exist and before setLocalDescription, which is where werift gathers.
 */
export function withoutFallbackStun(pc: RTCPeerConnection): void {
  for (const transport of pc.iceTransports) transport.connection.stunServer = undefined;
}

/**
 * Answers an offer with a werift peer connection. The audio transceiver is made sendrecv: werift creates it recvonly
 * for a remote offer, and a browser then counts the packets but plays nothing.
 */
export async function answerOffer(
  offerSdp: string,
  config: Partial<PeerConfig>,
  faults: AnswerFaults,
  onCandidate: (c: IceCandidateData) => void,
): Promise<Answered> {
  const pc = new RTCPeerConnection(config);
  try {
    // Subscribed before setLocalDescription, which is where werift gathers.
    // End of candidates carries the audio section's sdpMid and index too: the documents give ice-candidate data as
    // {candidate, sdpMid, sdpMLineIndex}.
    let section: { sdpMid: string | null; sdpMLineIndex: number | null } = { sdpMid: null, sdpMLineIndex: 0 };
    pc.onIceCandidate.subscribe((c) => {
      const json = c?.toJSON();
      if (json) section = { sdpMid: json.sdpMid ?? section.sdpMid, sdpMLineIndex: json.sdpMLineIndex ?? section.sdpMLineIndex };
      else if (section.sdpMid === null) section = { ...section, sdpMid: pc.getTransceivers().find((t) => t.kind === 'audio')?.mid ?? null };
      onCandidate({ candidate: json?.candidate ?? '', ...section });
    });
    await pc.setRemoteDescription({ type: 'offer', sdp: offerSdp });
    const transceiver = pc.getTransceivers().find((t) => t.kind === 'audio');
    if (!transceiver) throw new Error('no audio transceiver after the offer');
    if (!faults.recvonly) transceiver.setDirection('sendrecv');
    withoutFallbackStun(pc);
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    const sdp = faults.mono ? answer.sdp.replace(/opus\/48000\/2/gi, 'opus/48000') : answer.sdp;
    return { pc, transceiver, sdp };
  } catch (e) {
    await pc.close().catch(() => {});
    throw e;
  }
}
