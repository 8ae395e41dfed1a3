import { Shescape } from 'shescape';
import type { Exchange } from '../clients/exchange.js';

/** bash quoting by a well-kept library: single quotes around literal text, so nothing in it expands. */
const shell = new Shescape({ shell: 'bash' });

/**
 * One shell word for `text`: its literal parts single-quoted, and every secret replaced by a reference to the variable
 * that holds it, double-quoted and outside the single quotes, so only the variable expands when the line is pasted.
 *
 * @example
 * shellWord('X-API-KEY: abc123', { KEY: 'abc123' }) // `'X-API-KEY: '"$KEY"`
 */
export function shellWord(text: string, secretEnv: Readonly<Record<string, string>>): string {
  const secrets = Object.entries(secretEnv).filter(([, v]) => v.length >= 4);
  // Split at every secret, longest first so a secret that contains another is matched whole.
  const parts: ({ literal: string } | { variable: string })[] = [];
  let rest = text;
  for (;;) {
    let first: { at: number; name: string; value: string } | undefined;
    for (const [name, value] of secrets.sort((a, b) => b[1].length - a[1].length)) {
      const at = rest.indexOf(value);
      if (at >= 0 && (first === undefined || at < first.at)) first = { at, name, value };
    }
    if (!first) break;
    if (first.at > 0) parts.push({ literal: rest.slice(0, first.at) });
    parts.push({ variable: first.name });
    rest = rest.slice(first.at + first.value.length);
  }
  if (rest.length > 0 || parts.length === 0) parts.push({ literal: rest });
  return parts.map((p) => ('variable' in p ? `"$${p.variable}"` : shell.quote(p.literal))).join('');
}

/**
 * A curl line that replays an exchange. Every header and the body are single-quoted; a secret inside one is replaced by
 * a reference to the environment variable that holds it, outside the quotes, so the line is safe to share and still runs.
 *
 * @example
 * curlFor(exchange, { DIALTONE_CHAT_API_KEY: 'abc…' })
 * // curl -sS -X POST 'http://…/chat/create' -H 'X-API-KEY: '"$DIALTONE_CHAT_API_KEY" --data-raw '{}'
 */
export function curlFor(ex: Exchange, secretEnv: Readonly<Record<string, string>>): string {
  const parts = ['curl -sS', `-X ${shell.quote(ex.method)}`, shellWord(ex.url, secretEnv)];
  for (const [k, v] of Object.entries(ex.requestHeaders)) {
    if (k.toLowerCase() === 'content-length') continue;
    parts.push('-H', shellWord(`${k}: ${v}`, secretEnv));
  }
  if (ex.requestBody !== undefined) parts.push('--data-raw', shellWord(ex.requestBody, secretEnv));
  return parts.join(' ');
}
