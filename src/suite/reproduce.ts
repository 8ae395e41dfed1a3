import type { Exchange } from '../clients/exchange.js';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * A curl line that replays an exchange. Header values and body text that hold a secret are
 * replaced by a reference to the environment variable that holds it, so the line is safe to
 * share and still runs.
 *
 * @example
 * curlFor(exchange, { DIALTONE_CHAT_API_KEY: 'abc…' })
 * // curl -sS -X POST 'http://…/chat/create' -H "X-API-KEY: $DIALTONE_CHAT_API_KEY" --data-raw '{}'
 */
export function curlFor(ex: Exchange, secretEnv: Readonly<Record<string, string>>): string {
  const bySecret = Object.entries(secretEnv).filter(([, v]) => v.length >= 4);
  const sub = (s: string): { text: string; secret: boolean } => {
    let text = s;
    let secret = false;
    for (const [name, value] of bySecret) {
      if (text.includes(value)) {
        text = text.split(value).join(`$${name}`);
        secret = true;
      }
    }
    return { text, secret };
  };
  const parts = ['curl -sS', `-X ${ex.method}`, quote(ex.url)];
  for (const [k, v] of Object.entries(ex.requestHeaders)) {
    if (k.toLowerCase() === 'content-length') continue;
    const s = sub(`${k}: ${v}`);
    parts.push('-H', s.secret ? `"${s.text}"` : quote(s.text));
  }
  if (ex.requestBody !== undefined) {
    const s = sub(ex.requestBody);
    parts.push('--data-raw', s.secret ? `"${s.text.replace(/"/g, '\\"')}"` : quote(s.text));
  }
  return parts.join(' ');
}
