import { describe, expect, it } from 'vitest';
import { hasTurnsOn443 } from '../../contract/voice/shapes.js';
import { IceServerIssuer, TURN_CREDENTIAL_TTL_S } from './ice.js';

describe('IceServerIssuer', () => {
  const issuer = new IceServerIssuer();

  it('issues a turns: URL on 443 on the host the client reached', () => {
    const res = issuer.issue({ host: '127.0.0.1', nowS: 1_000_000 });
    expect(hasTurnsOn443(res)).toBe(true);
    expect(JSON.stringify(res)).not.toMatch(/stun\.l\.google|example/);
  });

  it('issues fresh TURN credentials every time, each valid until its expiry', () => {
    const a = issuer.issue({ host: 'h', nowS: 1_000_000 }).iceServers[0];
    const b = issuer.issue({ host: 'h', nowS: 1_000_000 }).iceServers[0];
    expect(a?.username).not.toBe(b?.username);
    expect(a?.username?.startsWith(`${1_000_000 + TURN_CREDENTIAL_TTL_S}:`)).toBe(true);
    expect(issuer.verify(a?.username ?? '', a?.credential ?? '', 1_000_000)).toBe(true);
    expect(issuer.verify(a?.username ?? '', a?.credential ?? '', 1_000_000 + TURN_CREDENTIAL_TTL_S)).toBe(false);
    expect(issuer.verify(a?.username ?? '', b?.credential ?? '', 1_000_000)).toBe(false);
  });
});
