import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { JwtCompact } from '../../contract/messaging/shapes.js';
import { type AccessClaims, signJwt, verifyJwt } from './jwt.js';

const secret = randomBytes(32);
const claims: AccessClaims = { iss: 'dialtone-reference', sub: 'conn-1', host: 'app.dialtone.test', iat: 1_000, exp: 4_600, jti: 'j-1' };

describe('the access-token JWT', () => {
  it('signs a compact JWT that verifies with the same secret', () => {
    const token = signJwt(claims, secret);
    expect(JwtCompact.safeParse(token).success).toBe(true);
    expect(verifyJwt(token, secret, 2_000_000)).toEqual({ ok: true, claims });
  });

  it('names HS256 in its header', () => {
    const header = JSON.parse(Buffer.from(signJwt(claims, secret).split('.')[0] ?? '', 'base64url').toString('utf8'));
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it('refuses a token signed with another secret', () => {
    expect(verifyJwt(signJwt(claims, randomBytes(32)), secret, 2_000_000)).toEqual({ ok: false, problem: 'signature' });
  });

  it('refuses a token whose payload was changed after signing', () => {
    const [h, , s] = signJwt(claims, secret).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'conn-2' })).toString('base64url');
    expect(verifyJwt(`${h}.${forged}.${s}`, secret, 2_000_000)).toEqual({ ok: false, problem: 'signature' });
  });

  it('accepts a tampered token only when the signature check is switched off', () => {
    const [h, , s] = signJwt(claims, secret).split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'conn-2' })).toString('base64url');
    expect(verifyJwt(`${h}.${forged}.${s}`, secret, 2_000_000, { skipSignature: true }).ok).toBe(true);
  });

  it('refuses strings that are not compact JWTs', () => {
    for (const t of ['', 'not-a-jwt', 'a.b', 'a.b.c.d', '***.***.***', 'e30.e30.']) {
      expect(verifyJwt(t, secret, 0), t).toEqual({ ok: false, problem: 'malformed' });
    }
  });

  it('accepts a token until exp and refuses it from exp on', () => {
    const token = signJwt(claims, secret);
    expect(verifyJwt(token, secret, claims.exp * 1000 - 1).ok).toBe(true);
    expect(verifyJwt(token, secret, claims.exp * 1000)).toEqual({ ok: false, problem: 'expired' });
  });
});
