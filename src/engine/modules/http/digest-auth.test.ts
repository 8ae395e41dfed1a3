// The Digest client against RFC 2617's worked example (3.5) and RFC 7616's (3.9.1), computed by hand in those RFCs.
import { describe, expect, it } from 'vitest';
import { digestAuthorization, parseDigestChallenge } from './digest-auth.js';

const param = (header: string, name: string) => new RegExp(`${name}="?([^",]*)"?`).exec(header)?.[1];

describe('digest auth', () => {
  // RFC 2617, 3.5: "The following example assumes that an access-protected document is being requested from the server
  // via a GET request. The URI of the document is "http://www.nowhere.org/dir/index.html". Both client and server know
  // that the username for this document is "Mufasa", and the password is "Circle Of Life"".
  it("answers RFC 2617's example challenge with its response (MD5, qop=auth)", () => {
    const c = parseDigestChallenge([
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    ]);
    expect(c).toMatchObject({ realm: 'testrealm@host.com', qop: ['auth', 'auth-int'], algorithm: 'MD5' });
    const header = digestAuthorization(c as NonNullable<typeof c>, {
      method: 'GET',
      uri: '/dir/index.html',
      username: 'Mufasa',
      password: 'Circle Of Life',
      cnonce: '0a4f113b',
    }) as string;
    expect(header.startsWith('Digest ')).toBe(true);
    expect(param(header, 'response')).toBe('6629fae49393a05397450978507c4ef1');
    expect(param(header, 'qop')).toBe('auth');
    expect(param(header, 'nc')).toBe('00000001');
    expect(param(header, 'opaque')).toBe('5ccc069c403ebaf9f0171e9517f40e41');
  });

  // RFC 7616, 3.9.1: the same user and document, "Circle of Life", realm "http-auth@example.org", with SHA-256.
  it("answers RFC 7616's SHA-256 example with its response", () => {
    const c = parseDigestChallenge([
      'Basic realm="x", Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, ' +
        'nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
    ]);
    expect(c?.algorithm).toBe('SHA-256');
    const header = digestAuthorization(c as NonNullable<typeof c>, {
      method: 'GET',
      uri: '/dir/index.html',
      username: 'Mufasa',
      password: 'Circle of Life',
      cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
    }) as string;
    expect(param(header, 'response')).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
  });

  it('finds no challenge where none offers Digest, and computes none for an algorithm it does not know', () => {
    expect(parseDigestChallenge(['Basic realm="x"'])).toBeUndefined();
    const c = parseDigestChallenge(['Digest realm="r", nonce="n", algorithm=SHA-1']);
    expect(c && digestAuthorization(c, { method: 'GET', uri: '/', username: 'u', password: 'p' })).toBeUndefined();
  });
});
