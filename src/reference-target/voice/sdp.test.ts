import { describe, expect, it } from 'vitest';
import { offersOpus } from './sdp.js';

const sdp = (...lines: string[]) => `${['v=0', 'o=- 1 1 IN IP4 0.0.0.0', 's=-', 't=0 0', ...lines].join('\r\n')}\r\n`;

describe('offersOpus', () => {
  it('accepts an audio section offering opus/48000/2', () => {
    expect(offersOpus(sdp('m=audio 9 UDP/TLS/RTP/SAVPF 111 0', 'a=rtpmap:111 opus/48000/2', 'a=rtpmap:0 PCMU/8000'))).toBe(true);
  });

  it('refuses an SDP without audio, or with audio but no Opus', () => {
    expect(offersOpus(sdp('m=video 9 UDP/TLS/RTP/SAVPF 96', 'a=rtpmap:96 VP8/90000'))).toBe(false);
    expect(offersOpus(sdp('m=audio 9 UDP/TLS/RTP/SAVPF 0', 'a=rtpmap:0 PCMU/8000'))).toBe(false);
  });

  it('does not take Opus of a video section for audio', () => {
    expect(offersOpus(sdp('m=audio 9 UDP/TLS/RTP/SAVPF 0', 'a=rtpmap:0 PCMU/8000', 'm=video 9 UDP/TLS/RTP/SAVPF 111', 'a=rtpmap:111 opus/48000/2'))).toBe(
      false,
    );
  });

  it('refuses text that is not an SDP', () => {
    expect(offersOpus('m=audio a=rtpmap:111 opus/48000/2')).toBe(false);
    expect(offersOpus('garbage')).toBe(false);
    expect(offersOpus(sdp('m=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=rtpmap:111 opus/48000/2', 'garbage'))).toBe(false);
  });

  it('reads a megabyte of spaces in one pass and refuses it', () => {
    expect(offersOpus(`v=0\r\no=-${' '.repeat(1 << 20)}`)).toBe(false);
  });
});
