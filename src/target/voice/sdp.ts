/**
 * Whether an offer SDP has an audio section that offers Opus at 48 kHz: the one thing the gateway cannot do without.
 *
 * @example
 * offersOpus('v=0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n') // true
 */
export function offersOpus(sdp: string): boolean {
  const audio = sdp.split(/\r?\n(?=m=)/).find((section) => section.startsWith('m=audio'));
  return sdp.startsWith('v=0') && audio !== undefined && /^a=rtpmap:\d+ opus\/48000(\/2)?\s*$/im.test(audio);
}
