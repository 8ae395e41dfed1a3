// The tar format as far as an archive of a k6 test needs it (POSIX ustar, with a PAX header for a path longer than
// ustar holds): regular files and folders written; regular files, folders and hard links read. Written here rather
// than taken from a library: it is a hundred lines, and the engine reads archives it did not write (k6's own).
const BLOCK = 512;

/** One regular file of an archive. */
export interface TarFile {
  readonly name: string;
  readonly data: Buffer;
}

function octal(n: number, width: number): string {
  return `${n.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, type: string, mtime: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(name, 0, 100, 'utf8');
  h.write(octal(type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtime, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

const pad = (n: number) => Buffer.alloc((BLOCK - (n % BLOCK)) % BLOCK);

/** A PAX record `LEN path=VALUE\n`, its length counting itself. */
function paxRecord(key: string, value: string): string {
  const body = ` ${key}=${value}\n`;
  let len = Buffer.byteLength(body) + 1;
  while (String(len).length + Buffer.byteLength(body) !== len) len++;
  return `${len}${body}`;
}

function entry(name: string, data: Buffer, type: string, mtime: number): Buffer[] {
  const out: Buffer[] = [];
  let short = name;
  if (Buffer.byteLength(name) > 99) {
    const pax = Buffer.from(paxRecord('path', name));
    out.push(header('PaxHeader', pax.length, 'x', mtime), pax, pad(pax.length));
    short = name.slice(-99);
  }
  out.push(header(short, data.length, type, mtime), data, pad(data.length));
  return out;
}

/**
 * A tar of `files` in the order given, each file's folders as entries before it (once each), as tar readers expect.
 *
 * @example
 * writeFileSync('a.tar', tar([{ name: 'metadata.json', data: Buffer.from('{}') }]));
 */
export function tar(files: readonly TarFile[], mtime = Math.floor(Date.now() / 1000)): Buffer {
  const parts: Buffer[] = [];
  const folders = new Set<string>();
  for (const f of files) {
    const segments = f.name.split('/').slice(0, -1);
    for (let i = 1; i <= segments.length; i++) {
      const dir = `${segments.slice(0, i).join('/')}/`;
      if (folders.has(dir)) continue;
      folders.add(dir);
      parts.push(...entry(dir, Buffer.alloc(0), '5', mtime));
    }
    parts.push(...entry(f.name, f.data, '0', mtime));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

const text = (b: Buffer, from: number, len: number) => b.toString('utf8', from, from + len).replace(/\0.*$/s, '');

/**
 * The regular files of a tar, by name (a hard link to a file read before it gives that file's data). Throws on a
 * buffer that is no tar.
 */
export function untar(buf: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let at = 0;
  let paxPath: string | undefined;
  while (at + BLOCK <= buf.length) {
    const h = buf.subarray(at, at + BLOCK);
    if (h.every((b) => b === 0)) break;
    if (text(h, 257, 5) !== 'ustar') throw new Error('not a tar archive');
    const size = Number.parseInt(text(h, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(h[156] || 48);
    const prefix = text(h, 345, 155);
    const name = paxPath ?? (prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100));
    paxPath = undefined;
    const data = buf.subarray(at + BLOCK, at + BLOCK + size);
    if (data.length < size) throw new Error('the tar archive is cut short');
    if (type === 'x') paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'))?.[1];
    else if (type === '0') files.set(name, Buffer.from(data));
    else if (type === '1') {
      const target = files.get(text(h, 157, 100));
      if (target) files.set(name, target);
    }
    at += BLOCK + size + ((BLOCK - (size % BLOCK)) % BLOCK);
  }
  return files;
}
