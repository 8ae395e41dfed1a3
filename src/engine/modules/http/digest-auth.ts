// HTTP Digest access authentication (RFC 7616, which keeps RFC 2617's MD5), the client's half, for k6/http's
// `params.auth: 'digest'` (/javascript-api/k6-http/params/: "auth: The authentication method used for the request. It
// currently supports digest, ntlm, and basic authentication methods."): the request goes without credentials, and a
// 401 whose WWW-Authenticate offers Digest is answered by sending it again with the Authorization this file computes.
// Hand-written on node:crypto: the packages that do this wrap a client of their own (fetch, axios) where the engine
// drives undici's dispatcher, and the header is a few hashes.
import { createHash, randomBytes } from 'node:crypto';

/** The parameters of a Digest challenge (`WWW-Authenticate: Digest realm="…", nonce="…", qop="auth", …`). */
export interface DigestChallenge {
  readonly realm: string;
  readonly nonce: string;
  readonly qop: readonly string[];
  readonly opaque: string | undefined;
  readonly algorithm: string;
}

/** The hash functions a challenge may name, each also in its `-sess` form. */
const HASHES: Readonly<Record<string, string>> = { MD5: 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256' };

/** One auth-param: `name=token` or `name="quoted string"` (RFC 9110, 11.2), with the rest of the text after it. */
const PARAM = /\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?/y;

/**
 * The Digest challenge among a response's WWW-Authenticate values, or undefined when none offers Digest or one lacks
 * its nonce. Several challenges may share a header value (`Basic realm="x", Digest realm="y", …`).
 *
 * @example
 * parseDigestChallenge(['Digest realm="r", nonce="n", qop="auth"']); // { realm: 'r', nonce: 'n', qop: ['auth'], … }
 */
export function parseDigestChallenge(values: readonly string[]): DigestChallenge | undefined {
  for (const v of values) {
    const at = v.search(/(?:^|[\s,])Digest\s/i);
    if (at < 0) continue;
    const params: Record<string, string> = {};
    PARAM.lastIndex = v.indexOf('Digest', at) + 'Digest'.length;
    for (let m = PARAM.exec(v); m; m = PARAM.exec(v)) {
      const name = (m[1] as string).toLowerCase();
      // A token with no `=` after it starts the next challenge.
      params[name] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] as string);
    }
    if (params.nonce === undefined) continue;
    return {
      realm: params.realm ?? '',
      nonce: params.nonce,
      qop: (params.qop ?? '')
        .split(',')
        .map((q) => q.trim().toLowerCase())
        .filter((q) => q !== ''),
      opaque: params.opaque,
      algorithm: (params.algorithm ?? 'MD5').toUpperCase(),
    };
  }
  return undefined;
}

/** What the Authorization is computed over. */
export interface DigestRequest {
  readonly method: string;
  /** The request-target: the path with its query. */
  readonly uri: string;
  readonly username: string;
  readonly password: string;
  /** The body, for qop=auth-int. */
  readonly body?: string | Buffer | null;
  /** The client nonce; random when left out. */
  readonly cnonce?: string;
  /** How many requests this nonce served, this one included (nc); 1 when left out. */
  readonly count?: number;
}

const quoted = (s: string) => `"${s.replace(/(["\\])/g, '\\$1')}"`;

/**
 * The `Authorization: Digest …` value answering `challenge` (RFC 7616, 3.4): qop=auth when offered, else auth-int when
 * that alone is offered, else the RFC 2069 form without qop; MD5, SHA-256 and SHA-512-256, and their -sess forms.
 * Undefined for an algorithm it does not know.
 *
 * @example
 * digestAuthorization(challenge, { method: 'GET', uri: '/dir/index.html', username: 'Mufasa', password: 'Circle Of Life' });
 */
export function digestAuthorization(challenge: DigestChallenge, r: DigestRequest): string | undefined {
  const sess = challenge.algorithm.endsWith('-SESS');
  const hashName = HASHES[sess ? challenge.algorithm.slice(0, -'-SESS'.length) : challenge.algorithm];
  if (hashName === undefined) return undefined;
  const h = (s: string | Buffer) => createHash(hashName).update(s).digest('hex');
  const qop = challenge.qop.includes('auth') ? 'auth' : challenge.qop.includes('auth-int') ? 'auth-int' : undefined;
  const cnonce = r.cnonce ?? randomBytes(16).toString('hex');
  const nc = (r.count ?? 1).toString(16).padStart(8, '0');
  let ha1 = h(`${r.username}:${challenge.realm}:${r.password}`);
  if (sess) ha1 = h(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 = qop === 'auth-int' ? h(`${r.method}:${r.uri}:${h(r.body ?? '')}`) : h(`${r.method}:${r.uri}`);
  const response = qop ? h(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${challenge.nonce}:${ha2}`);
  const parts = [
    `username=${quoted(r.username)}`,
    `realm=${quoted(challenge.realm)}`,
    `nonce=${quoted(challenge.nonce)}`,
    `uri=${quoted(r.uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response=${quoted(response)}`,
  ];
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce=${quoted(cnonce)}`);
  if (challenge.opaque !== undefined) parts.push(`opaque=${quoted(challenge.opaque)}`);
  return `Digest ${parts.join(', ')}`;
}
