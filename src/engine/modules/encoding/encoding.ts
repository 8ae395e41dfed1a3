// `k6/encoding` (/javascript-api/k6-encoding/): base64 in Go's four alphabets. "std" is standard base64 with
// padding, "rawstd" without padding, "url" the URL-safe alphabet (`-` and `_`) with padding, "rawurl" without.
import { arrayBufferOf, bytesOf } from '../bytes.js';

type Encoding = 'std' | 'rawstd' | 'url' | 'rawurl';
const ENCODINGS: readonly string[] = ['std', 'rawstd', 'url', 'rawurl'];

function encodingOf(e: unknown, where: string): Encoding {
  if (e === undefined || e === null || e === '') return 'std';
  if (typeof e === 'string' && ENCODINGS.includes(e)) return e as Encoding;
  throw new Error(`${where}: unknown encoding '${String(e)}' (std, rawstd, url, rawurl)`);
}

/** What each encoding accepts: its alphabet, padding only where it pads (Go's decoders refuse the other). */
const VALID: Readonly<Record<Encoding, RegExp>> = {
  std: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  rawstd: /^[A-Za-z0-9+/]*$/,
  url: /^(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2}==|[A-Za-z0-9_-]{3}=)?$/,
  rawurl: /^[A-Za-z0-9_-]*$/,
};

/**
 * `b64encode(input, [encoding])`: "input: the input string or ArrayBuffer object to base64 encode".
 *
 * @example
 * b64encode('hello?', 'rawurl'); // 'aGVsbG8_'
 */
export function b64encode(input: unknown, encoding?: unknown): string {
  const e = encodingOf(encoding, 'b64encode');
  const b = bytesOf(input, 'b64encode');
  if (e === 'rawurl') return b.toString('base64url');
  const std = b.toString('base64');
  if (e === 'std') return std;
  if (e === 'rawstd') return std.replace(/=+$/, '');
  return std.replace(/\+/g, '-').replace(/\//g, '_');
}

/**
 * `b64decode(input, [encoding], [format])`: an ArrayBuffer, or "if 's' (string) is passed as the format, the result
 * is a string" (its bytes read as UTF-8). Input that is not base64 of that encoding throws, as k6's does.
 *
 * @example
 * b64decode('aGVsbG8_', 'rawurl', 's'); // 'hello?'
 */
export function b64decode(input: unknown, encoding?: unknown, format?: unknown): ArrayBuffer | string {
  const e = encodingOf(encoding, 'b64decode');
  if (typeof input !== 'string') throw new Error('b64decode: expected a string');
  if (!VALID[e].test(input) || input.replace(/=+$/, '').length % 4 === 1) throw new Error(`b64decode: the input is not valid base64 of the '${e}' encoding`);
  const b = Buffer.from(input, e === 'url' || e === 'rawurl' ? 'base64url' : 'base64');
  return format === 's' ? b.toString('utf8') : arrayBufferOf(b);
}

/** The `k6/encoding` module. */
export function encodingModule() {
  return { b64encode, b64decode };
}
