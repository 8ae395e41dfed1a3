// k6/experimental/webcrypto against the sentences of k6's documentation (/javascript-api/k6-experimental/webcrypto/),
// run by the engine in this process on a script that imports it, as a user's script would.
import { describe, expect, it } from 'vitest';
import { n } from '../../engine-process.js';
import { runInProcess } from '../../run/in-process.js';

describe('k6/experimental/webcrypto', () => {
  // webcrypto docs: "The module exports a top-level crypto object with the following properties and methods:
  // getRandomValues: Fills the passed TypedArray with cryptographically sound random values. randomUUID: Returns a
  // randomly generated, 36 character long v4 UUID. subtle: The SubtleCrypto interface provides access to common
  // cryptographic primitives, such as hashing, signing, encryption, or decryption."
  it('gives a script its crypto object: a SHA-256 digest (FIPS 180 "abc"), a v4 UUID and random values', async () => {
    const r = await runInProcess(
      `import { check } from 'k6';
       import { crypto } from 'k6/experimental/webcrypto';
       export const options = { vus: 1, iterations: 1 };
       export default async function () {
         const digest = await crypto.subtle.digest('SHA-256', new Uint8Array([97, 98, 99]));
         const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
         const filled = crypto.getRandomValues(new Uint8Array(32));
         check(hex, {
           'digest': (h) => h === 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
           'uuid': () => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()),
           'random': () => filled.length === 32 && filled.some((b) => b !== 0),
         });
       }`,
      ['--workers', '1'],
    );
    expect(r.code, r.stderr).toBe(0);
    expect(n(r, 'checks', 'passes')).toBe(3);
    expect(n(r, 'checks', 'fails')).toBe(0);
  });
});
