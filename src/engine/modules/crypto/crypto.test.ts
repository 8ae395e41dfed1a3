// k6/crypto and k6/encoding against the sentences of k6's documentation they follow (/javascript-api/k6-crypto/,
// /javascript-api/k6-encoding/), with published test vectors (FIPS 180 "abc", RFC 1321, RFC 4231, RFC 4648).
import { describe, expect, it } from 'vitest';
import { b64decode, b64encode } from '../encoding/encoding.js';
import { cryptoModule } from './crypto.js';

const crypto = cryptoModule() as unknown as Record<string, (...a: unknown[]) => unknown> & {
  createHash(a: string): { update(x: unknown): void; digest(e: string): unknown };
  createHMAC(a: string, s: unknown): { update(x: unknown): void; digest(e: string): unknown };
};
const bytes = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;

describe('k6/crypto', () => {
  // k6-crypto docs: md5/sha1/sha256/…(input, outputEncoding): "input: The input string or ArrayBuffer object to hash",
  // "outputEncoding: Describes the type of encoding to use for the hash value. Can be "base64", "base64url",
  // "base64rawurl", "hex" or "binary"".
  it('hashes a string or an ArrayBuffer with each documented algorithm', () => {
    expect(crypto.md5?.('', 'hex')).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(crypto.sha1?.('abc', 'hex')).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(crypto.sha256?.('abc', 'hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(crypto.sha256?.(bytes('abc'), 'hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(crypto.sha384?.('abc', 'hex')).toBe('cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7');
    expect(crypto.sha512?.('abc', 'hex')).toMatch(/^ddaf35a193617aba/);
    expect(crypto.sha512_256?.('abc', 'hex')).toBe('53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23');
    expect(crypto.sha512_224?.('abc', 'hex')).toBe('4634270f707b6a54daae7530460842e20e37ed265ceee9a43e8924aa');
  });

  // Hasher docs: the encoding "can be either "base64", "base64url", "base64rawurl", "hex" or "binary""; the example
  // reads binary as `new Uint8Array(hasher.digest('binary'))`, which @types/k6 types as an ArrayBuffer.
  it('gives a digest as hex, base64, base64url (padded), base64rawurl and binary (an ArrayBuffer)', () => {
    // sha1('abc') in base64 has a '+' and a '/', so every alphabet shows.
    const hex = 'a9993e364706816aba3e25717850c26c9cd0d89d';
    const b64 = Buffer.from(hex, 'hex').toString('base64');
    expect(crypto.sha1?.('abc', 'base64')).toBe(b64);
    expect(crypto.sha1?.('abc', 'base64url')).toBe(b64.replace(/\+/g, '-').replace(/\//g, '_'));
    expect(crypto.sha1?.('abc', 'base64rawurl')).toBe(b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
    const bin = crypto.sha1?.('abc', 'binary') as ArrayBuffer;
    expect(bin).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(bin).toString('hex')).toBe(hex);
    expect(() => crypto.sha1?.('abc', 'base32')).toThrow(/unknown output encoding/);
  });

  // k6-crypto docs, hmac(algorithm, secret, data, outputEncoding); RFC 4231 test case 2.
  it('computes an HMAC of the documented algorithms', () => {
    expect(crypto.hmac?.('sha256', 'Jefe', 'what do ya want for nothing?', 'hex')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    expect(crypto.hmac?.('sha256', bytes('Jefe'), bytes('what do ya want for nothing?'), 'hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(() => crypto.hmac?.('sha3', 'k', 'd', 'hex')).toThrow(/unknown hash algorithm/);
  });

  // k6-crypto docs, createHash: "Creates a hashing object that can then be fed with data repeatedly, and from which
  // you can extract a hash digest whenever you want"; createHMAC likewise with a secret.
  it('feeds a Hasher from createHash and createHMAC repeatedly before the digest', () => {
    const h = crypto.createHash('sha256');
    h.update('a');
    h.update('bc');
    expect(h.digest('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const m = crypto.createHMAC('sha256', 'Jefe');
    m.update('what do ya want ');
    m.update('for nothing?');
    expect(m.digest('hex')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  // createHash: "a hashing object that can then be fed with data repeatedly, and from which you can extract a hash
  // digest whenever you want": a digest does not end the object; k6 (Go's hash.Sum) gives it again, and goes on.
  it('gives a digest again, and goes on hashing what is fed after a digest', () => {
    for (const h of [crypto.createHash('sha256'), crypto.createHMAC('sha256', 'Jefe')]) {
      h.update('a');
      const first = h.digest('hex');
      expect(h.digest('hex')).toBe(first);
      h.update('bc');
      expect(h.digest('base64')).not.toBe(first);
    }
    const h = crypto.createHash('sha256');
    h.update('a');
    h.digest('hex');
    h.update('bc');
    expect(h.digest('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const m = crypto.createHMAC('sha256', 'Jefe');
    m.update('what do ya want ');
    m.digest('binary');
    m.update('for nothing?');
    expect(m.digest('hex')).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  // k6-crypto docs, randomBytes(int): "Return an array with a number of cryptographically random bytes"; @types/k6:
  // "An ArrayBuffer with cryptographically random bytes".
  it('returns an ArrayBuffer of as many random bytes as asked', () => {
    const r = crypto.randomBytes?.(16) as ArrayBuffer;
    expect(r).toBeInstanceOf(ArrayBuffer);
    expect(r.byteLength).toBe(16);
    expect(() => crypto.randomBytes?.(-1)).toThrow(/whole number/);
  });
});

describe('k6/encoding', () => {
  // k6-encoding docs, b64encode: "encoding: The base64 encoding to use. Available options are: "std": the standard
  // encoding with = padding chars and + and / characters in encoding alphabet. This is the default. "rawstd": like std
  // but without = padding characters. "url": URL safe version of std, encoding alphabet doesn't contain + and /
  // characters, but rather - and _ characters. "rawurl": like url but without = padding characters."
  it('encodes a string or an ArrayBuffer in the four documented encodings (RFC 4648)', () => {
    expect(b64encode('hello world')).toBe('aGVsbG8gd29ybGQ=');
    expect(b64encode(bytes('hello world'), 'std')).toBe('aGVsbG8gd29ybGQ=');
    expect(b64encode('hello world', 'rawstd')).toBe('aGVsbG8gd29ybGQ');
    expect(b64encode('a?>', 'std')).toBe('YT8+');
    expect(b64encode('a??', 'url')).toBe('YT8_');
    expect(b64encode('a?', 'url')).toBe('YT8=');
    expect(b64encode('a?', 'rawurl')).toBe('YT8');
    expect(() => b64encode('x', 'hex')).toThrow(/unknown encoding/);
  });

  // k6-encoding docs, b64decode, format: 'If "s" return the data as a string, otherwise if unspecified an ArrayBuffer
  // object is returned.'
  it('decodes to an ArrayBuffer, or to a string with format "s", and refuses what is not base64 of the encoding', () => {
    const ab = b64decode('aGVsbG8gd29ybGQ=') as ArrayBuffer;
    expect(ab).toBeInstanceOf(ArrayBuffer);
    expect(Buffer.from(ab).toString()).toBe('hello world');
    expect(b64decode('aGVsbG8gd29ybGQ', 'rawstd', 's')).toBe('hello world');
    expect(b64decode('YT8_', 'url', 's')).toBe('a??');
    expect(b64decode('YT8', 'rawurl', 's')).toBe('a?');
    expect(() => b64decode('YT8_', 'std')).toThrow(/not valid base64/);
    expect(() => b64decode('YT8=', 'rawurl')).toThrow(/not valid base64/);
  });
});
