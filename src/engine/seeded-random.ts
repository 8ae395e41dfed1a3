// k6's randomSeed (/javascript-api/k6/random-seed/): "Set seed to get a reproducible pseudo-random number using
// Math.random." k6 seeds Go's math/rand, whose numbers a JavaScript engine cannot reproduce; what a script relies on is
// that one seed always gives one sequence. Here the sequence is ChaCha20's keystream (OpenSSL, through node:crypto)
// under a key drawn from the seed: standard, the same on every platform and Node line, and synchronous, as a call to
// Math.random must be.
import { createCipheriv, createHash } from 'node:crypto';

/** Keystream bytes made at a time: 512 numbers. */
const CHUNK = 4096;
const ZEROS = Buffer.alloc(CHUNK);
/** 2^26 and 2^53: 27 bits and 26 bits make one double in [0, 1) with every one of its 53 bits random. */
const TWO_26 = 67_108_864;
const TWO_53 = 9_007_199_254_740_992;

/**
 * A Math.random for one seed: numbers in [0, 1), the same sequence for the same seed. k6 takes an integer; a fraction
 * is cut to its integer part, as Go's int64 conversion of the argument does.
 *
 * @example
 * const a = seededRandom(123456789);
 * const b = seededRandom(123456789);
 * a() === b() // true
 */
export function seededRandom(seed: number): () => number {
  const key = createHash('sha256')
    .update(String(Math.trunc(Number(seed) || 0)))
    .digest();
  const stream = createCipheriv('chacha20', key, Buffer.alloc(16));
  let block = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at + 8 > block.length) {
      block = stream.update(ZEROS);
      at = 0;
    }
    const high = block.readUInt32BE(at) >>> 5;
    const low = block.readUInt32BE(at + 4) >>> 6;
    at += 8;
    return (high * TWO_26 + low) / TWO_53;
  };
}
