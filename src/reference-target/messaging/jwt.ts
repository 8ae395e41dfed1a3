import { createHmac, timingSafeEqual } from 'node:crypto';

/** The claims the reference target puts in a messaging access token. */
export interface AccessClaims {
  /** Issuer: always the reference target. */
  readonly iss: string;
  /** The connector the token was issued to. */
  readonly sub: string;
  /** The X-Host the token was issued for. */
  readonly host: string;
  /** Issued at, whole seconds since the epoch (target clock). */
  readonly iat: number;
  /** Expiry, whole seconds since the epoch (target clock). */
  readonly exp: number;
  /** Unique token id. */
  readonly jti: string;
}

/** Why a token was refused. */
export type JwtProblem = 'malformed' | 'signature' | 'expired';

/** A verified token's claims, or why it was refused. */
export type JwtVerdict = { readonly ok: true; readonly claims: AccessClaims } | { readonly ok: false; readonly problem: JwtProblem };

const HEADER = { alg: 'HS256', typ: 'JWT' } as const;

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const sign = (input: string, secret: Buffer) => createHmac('sha256', secret).update(input).digest();

/**
 * Signs claims as a compact HS256 JWT.
 *
 * @example
 * signJwt({ iss: 'x', sub: 'c1', host: 'a.test', iat: 0, exp: 3600, jti: 'j1' }, secret) // 'eyJhbGciOi….….…'
 */
export function signJwt(claims: AccessClaims, secret: Buffer): string {
  const input = `${b64(HEADER)}.${b64(claims)}`;
  return `${input}.${sign(input, secret).toString('base64url')}`;
}

function decodeJson(segment: string): unknown {
  try {
    return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function isClaims(v: unknown): v is AccessClaims {
  if (typeof v !== 'object' || v === null) return false;
  const c = v as Record<string, unknown>;
  return typeof c.sub === 'string' && typeof c.host === 'string' && typeof c.jti === 'string' && Number.isInteger(c.iat) && Number.isInteger(c.exp);
}

/**
 * Verifies a compact HS256 JWT: shape, header, signature (constant time), then expiry against `nowMs`.
 * A token is accepted while `nowMs` is before `exp` seconds.
 *
 * @example
 * verifyJwt(token, secret, clock.now()) // { ok: true, claims } or { ok: false, problem: 'expired' }
 */
export function verifyJwt(token: string, secret: Buffer, nowMs: number, options: { skipSignature?: boolean } = {}): JwtVerdict {
  const parts = token.split('.');
  if (parts.length !== 3 || parts.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) return { ok: false, problem: 'malformed' };
  const [h, p, s] = parts as [string, string, string];
  const header = decodeJson(h) as Record<string, unknown> | undefined;
  const claims = decodeJson(p);
  if (header?.alg !== HEADER.alg || !isClaims(claims)) return { ok: false, problem: 'malformed' };
  if (!options.skipSignature) {
    const expected = sign(`${h}.${p}`, secret);
    const given = Buffer.from(s, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, problem: 'signature' };
  }
  if (nowMs >= claims.exp * 1000) return { ok: false, problem: 'expired' };
  return { ok: true, claims };
}
