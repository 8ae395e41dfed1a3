/** One SDP line: a lower-case type letter, `=`, then the value (RFC 8866 section 5). */
const SDP_LINE = /^[a-z]=/;

/**
 * Whether an offer SDP is shaped like one (every line `x=value`, `v=0` first, an `o=` line) and has an audio section
 * that offers Opus at 48 kHz: the one thing the gateway cannot do without. One pass over the lines, no backtracking,
 * so a hostile offer costs no more than its length.
 *
 * @example
 * offersOpus('v=0\r\no=- 1 1 IN IP4 0.0.0.0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n') // true
 */
export function offersOpus(sdp: string): boolean {
  const lines = sdp.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  if (lines.at(-1) === '') lines.pop();
  if (lines[0] !== 'v=0' || !lines.some((l) => l.startsWith('o='))) return false;
  let inAudio = false;
  let opus = false;
  for (const line of lines) {
    if (!SDP_LINE.test(line)) return false;
    if (line.startsWith('m=')) inAudio = line.startsWith('m=audio ');
    else if (inAudio && /^a=rtpmap:\d+ opus\/48000(\/2)?\s*$/i.test(line)) opus = true;
  }
  return opus;
}
