// Bytes as k6's modules take and give them: a string is its UTF-8 bytes; an ArrayBuffer or a view of one is itself.

/** The bytes of a k6 module argument; a one-line Error names `where` for anything else. */
export function bytesOf(input: unknown, where: string): Buffer {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (input instanceof ArrayBuffer) return Buffer.from(input);
  if (ArrayBuffer.isView(input)) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  // An ArrayBuffer made in another realm (the script's) fails instanceof.
  if (Object.prototype.toString.call(input) === '[object ArrayBuffer]') return Buffer.from(input as ArrayBuffer);
  throw new Error(`${where}: expected a string or an ArrayBuffer, got ${input === null ? 'null' : typeof input}`);
}

/** A fresh ArrayBuffer holding exactly `b`'s bytes (a Buffer may be a slice of a larger pool). */
export function arrayBufferOf(b: Uint8Array): ArrayBuffer {
  const out = new ArrayBuffer(b.byteLength);
  new Uint8Array(out).set(b);
  return out;
}
