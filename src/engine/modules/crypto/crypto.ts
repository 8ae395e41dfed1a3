// `k6/crypto` (/javascript-api/k6-crypto/) on node:crypto: hashes and HMACs of a string (its UTF-8 bytes) or an
// ArrayBuffer, as "hex", "base64", "base64url", "base64rawurl" or "binary" (an ArrayBuffer, as @types/k6 gives it).
import { getHashes, type Hash, type Hmac, createHash as nodeHash, createHmac as nodeHmac, randomBytes as nodeRandomBytes } from 'node:crypto';
import { arrayBufferOf, bytesOf } from '../bytes.js';

/** k6's algorithm names and OpenSSL's. */
const ALGORITHMS: Readonly<Record<string, string>> = {
  md4: 'md4',
  md5: 'md5',
  sha1: 'sha1',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha512_224: 'sha512-224',
  sha512_256: 'sha512-256',
  ripemd160: 'ripemd160',
};

function algorithm(name: unknown, where: string): string {
  const a = typeof name === 'string' ? ALGORITHMS[name] : undefined;
  if (!a) throw new Error(`${where}: unknown hash algorithm '${String(name)}' (${Object.keys(ALGORITHMS).join(', ')})`);
  // OpenSSL 3 keeps md4 in its legacy provider, which Node may not load.
  if (!getHashes().includes(a)) throw new Error(`${where}: this Node's OpenSSL does not provide ${String(name)}`);
  return a;
}

/** A digest in one of k6's output encodings. */
function encode(digest: Buffer, enc: unknown, where: string): string | ArrayBuffer {
  switch (enc) {
    case 'hex':
      return digest.toString('hex');
    case 'base64':
      return digest.toString('base64');
    case 'base64url':
      return digest.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
    case 'base64rawurl':
      return digest.toString('base64url');
    case 'binary':
      return arrayBufferOf(digest);
    default:
      throw new Error(`${where}: unknown output encoding '${String(enc)}' (hex, base64, base64url, base64rawurl, binary)`);
  }
}

/**
 * A k6 Hasher: `update(input)` any number of times, `digest(outputEncoding)` "whenever you want" (createHash: "a hashing
 * object that can then be fed with data repeatedly, and from which you can extract a hash digest whenever you want"):
 * a digest leaves the object as it was, so it may be fed more and asked again, as Go's hash.Sum does. A node:crypto
 * Hash is copied for each digest; an Hmac cannot be, so its Hasher keeps what it was fed and digests it afresh.
 */
class Hasher {
  readonly #h: Hash | undefined;
  readonly #hmac: (() => Hmac) | undefined;
  readonly #fed: Buffer[] = [];
  readonly #where: string;
  constructor(h: Hash | (() => Hmac), where: string) {
    if (typeof h === 'function') this.#hmac = h;
    else this.#h = h;
    this.#where = where;
  }
  update(input: unknown): void {
    const b = bytesOf(input, `${this.#where}.update`);
    if (this.#h) this.#h.update(b);
    else this.#fed.push(Buffer.from(b));
  }
  digest(enc: unknown): string | ArrayBuffer {
    let sum: Buffer;
    if (this.#h) sum = this.#h.copy().digest();
    else {
      const m = (this.#hmac as () => Hmac)();
      for (const b of this.#fed) m.update(b);
      sum = m.digest();
    }
    return encode(sum, enc, `${this.#where}.digest`);
  }
}

/** The `k6/crypto` module. */
export function cryptoModule() {
  const hashFn = (name: string) => (input: unknown, enc: unknown) => encode(nodeHash(algorithm(name, name)).update(bytesOf(input, name)).digest(), enc, name);
  return {
    ...Object.fromEntries(Object.keys(ALGORITHMS).map((name) => [name, hashFn(name)])),
    /** `hmac(algorithm, secret, data, outputEncoding)`. */
    hmac: (alg: unknown, secret: unknown, data: unknown, enc: unknown) =>
      encode(nodeHmac(algorithm(alg, 'hmac'), bytesOf(secret, 'hmac')).update(bytesOf(data, 'hmac')).digest(), enc, 'hmac'),
    createHash: (alg: unknown) => new Hasher(nodeHash(algorithm(alg, 'createHash')), 'createHash'),
    createHMAC: (alg: unknown, secret: unknown) => {
      const a = algorithm(alg, 'createHMAC');
      const key = Buffer.from(bytesOf(secret, 'createHMAC'));
      return new Hasher(() => nodeHmac(a, key), 'createHMAC');
    },
    /** `randomBytes(int)`: "an ArrayBuffer with the given number of cryptographically random bytes". */
    randomBytes: (n: unknown) => {
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new Error(`randomBytes: expected a whole number ≥ 0, got ${String(n)}`);
      return arrayBufferOf(nodeRandomBytes(n));
    },
  };
}
