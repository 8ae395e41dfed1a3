/**
 * Replaces every secret value in `text` with `[redacted]`. The last pass over anything written
 * to a report, a log or the terminal, so a secret that slipped into a body or an error is caught.
 *
 * @example
 * redact('key=abc123', ['abc123']) // 'key=[redacted]'
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 4) out = out.split(s).join('[redacted]');
  }
  return out;
}
