import { type MediaStreamTrack, type RTCRtpTransceiver, RtpHeader, RtpPacket } from 'werift';
import { VoiceFrame, type VoiceMode } from '../../contract/voice/shapes.js';
import { VoiceAgent } from './agent.js';
import { levelDbfs } from './audio.js';
import { decodeOpus, opusDecoder, type VoiceClips } from './opus.js';
import type { Ticker } from './ticker.js';

/** Packet counters of one call, for the control surface and the bench. */
export interface MediaStats {
  packetsIn: number;
  packetsOut: number;
  bytesIn: number;
  bytesOut: number;
}

/** An agent's drawn times in milliseconds, present when a latency spec names them; absent: the mode's own. */
export interface AgentDelays {
  /** From media connected to the greeting's first packet (`voice.first_agent_audio`). */
  readonly greeting?: () => number;
  /** From the caller's last speech to the reply, never before the turn ends (`voice.reply`). */
  readonly reply?: () => number;
}

/** Opus packets of at most this many bytes carry no audible audio at any bit rate. */
const SILENT_PACKET_BYTES = 8;

/** Milliseconds as whole ticks of the shared ticker. */
const ticks = (ms: number) => Math.round(ms / VoiceFrame.ms);

/** What a call's media needs from the gateway. */
export interface MediaContext {
  readonly transceiver: RTCRtpTransceiver;
  readonly ticker: Ticker;
  /** The agent voice of each agent mode. */
  readonly voices: Readonly<Record<'end-to-end' | 'traditional', VoiceClips>>;
  readonly stats: MediaStats;
  /** Echo silence instead of the caller's audio (a defect). */
  readonly echoSilence: boolean;
  readonly onTurn: (speechMs: number) => void;
  readonly delays?: AgentDelays;
}

/** A call's running media; `start` runs once the peer connection is connected. */
export interface MediaHandle {
  start(): void;
  stop(): void;
}

/** Calls `onPacket` for every RTP packet of every remote track, including tracks werift adds later. */
function onInbound(transceiver: RTCRtpTransceiver, onPacket: (rtp: RtpPacket) => void): () => void {
  const subs: { unSubscribe: () => void }[] = [];
  const watch = (track: MediaStreamTrack) => subs.push(track.onReceiveRtp.subscribe((rtp) => onPacket(rtp)));
  for (const track of transceiver.receiver.tracks) watch(track);
  subs.push(transceiver.onTrack.subscribe((track) => watch(track)));
  return () => {
    for (const s of subs) s.unSubscribe();
  };
}

function send(ctx: MediaContext, header: Partial<RtpHeader>, payload: Buffer): void {
  ctx.stats.packetsOut++;
  ctx.stats.bytesOut += payload.length;
  // werift stamps its own SSRC and payload type and offsets sequence and timestamp; it drops packets until DTLS is up.
  ctx.transceiver.sender.sendRtp(new RtpPacket(new RtpHeader(header), payload)).catch(() => {});
}

function count(ctx: MediaContext, rtp: RtpPacket): void {
  ctx.stats.packetsIn++;
  ctx.stats.bytesIn += rtp.payload.length;
}

/**
 * Echo: each packet goes straight back as it arrives, with the caller's sequence number and timestamp, so loss and
 * timing on the way in show on the way out. Not paced by the ticker: the caller already paced it.
 */
function echoMedia(ctx: MediaContext): MediaHandle {
  const stop = onInbound(ctx.transceiver, (rtp) => {
    count(ctx, rtp);
    const { sequenceNumber, timestamp, marker } = rtp.header;
    send(ctx, { sequenceNumber, timestamp, marker }, ctx.echoSilence ? ctx.voices['end-to-end'].silence : rtp.payload);
  });
  return { start: () => {}, stop };
}

/** The agent modes: a VoiceAgent speaks on the shared ticker and listens to the caller's decoded audio. */
function agentMedia(voice: 'end-to-end' | 'traditional', replyDelayTicks: number) {
  return (ctx: MediaContext): MediaHandle => {
    const reply = ctx.delays?.reply;
    const agent = new VoiceAgent({ clips: ctx.voices[voice], replyDelayTicks, onTurn: ctx.onTurn, ...(reply ? { drawReplyTicks: () => ticks(reply()) } : {}) });
    const decoder = opusDecoder();
    const stopInbound = onInbound(ctx.transceiver, (rtp) => {
      count(ctx, rtp);
      // A packet this small is an encoder's silence (1 to 3 bytes), most of what a listening caller sends: heard as
      // silence without decoding, which was the gateway's largest cost per call.
      if (rtp.payload.length <= SILENT_PACKET_BYTES) return agent.hear(Number.NEGATIVE_INFINITY);
      try {
        agent.hear(levelDbfs(decodeOpus(decoder, rtp.payload)));
      } catch {
        // A packet the decoder rejects is lost audio, not a failed call.
      }
    });
    let seq = Math.floor(Math.random() * 0x10000);
    let stopTicks: (() => void) | undefined;
    return {
      start: () => {
        agent.greet(ticks(ctx.delays?.greeting?.() ?? 0));
        let first = true;
        stopTicks = ctx.ticker.add((tick) => {
          seq = (seq + 1) & 0xffff;
          send(ctx, { sequenceNumber: seq, timestamp: (tick * VoiceFrame.samples) >>> 0, marker: first }, agent.nextFrame());
          first = false;
        });
      },
      stop: () => {
        stopTicks?.();
        stopInbound();
      },
    };
  };
}

/** Media by mode. Traditional mode waits 300 ms more before replying: its speech-to-text and text-to-speech legs. */
export const MEDIA: Record<VoiceMode, (ctx: MediaContext) => MediaHandle> = {
  echo: echoMedia,
  'end-to-end': agentMedia('end-to-end', 5),
  traditional: agentMedia('traditional', 20),
};
