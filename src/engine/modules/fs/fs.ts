// `k6/experimental/fs` (/javascript-api/k6-experimental/fs/): "open(path)" resolves to a File with `path`, `read`,
// `seek` and `stat`; `SeekMode` names seek's origins. A file's bytes are read once per thread and shared by every VU
// and every File opened on it ("the file is loaded in memory only once"); each File keeps its own offset.
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** /javascript-api/k6-experimental/fs/seekmode/: "Start 0, Current 1, End 2". */
export const SeekMode = Object.freeze({ Start: 0, Current: 1, End: 2 });

/** An error as k6's fs module throws one: a `name` of its kinds and a message. */
export class FsError extends Error {
  constructor(name: 'NotFoundError' | 'InvalidResourceError' | 'TypeError' | 'ForbiddenError', message: string) {
    super(message);
    this.name = name;
  }
}

/** The bytes of the files opened so far in this thread, by absolute path. */
const opened = new Map<string, Buffer>();

/** The whole of `path`'s bytes (absolute), read once per thread; throws k6's fs errors. */
export function fileBytes(path: string): Buffer {
  let bytes = opened.get(path);
  if (bytes) return bytes;
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new FsError('NotFoundError', `no such file or directory: ${path}`);
  }
  // "open … a directory, which is not supported" (InvalidResourceError).
  if (isDir) throw new FsError('InvalidResourceError', `${path} is a directory, which open does not support`);
  bytes = readFileSync(path);
  opened.set(path, bytes);
  return bytes;
}

/** /javascript-api/k6-experimental/fs/file/: "The File class represents a file with methods for reading, seeking, and obtaining file stats." */
export class File {
  /** "The absolute path to the file." */
  readonly path: string;
  #offset = 0;

  constructor(path: string) {
    this.path = path;
  }

  /** The whole file's bytes (csv.parse and csv.Parser read through this). */
  get bytes(): Buffer {
    return fileBytes(this.path);
  }

  /**
   * /fs/file/read/: reads up to `buffer.byteLength` bytes into `buffer`; "It resolves to either the number of bytes read
   * during the operation, or null if there was nothing more to read."
   */
  read(buffer: Uint8Array): Promise<number | null> {
    if (!(buffer instanceof Uint8Array)) return Promise.reject(new FsError('TypeError', 'read needs a Uint8Array'));
    const bytes = this.bytes;
    if (this.#offset >= bytes.length) return Promise.resolve(null);
    const n = bytes.copy(buffer, 0, this.#offset, Math.min(bytes.length, this.#offset + buffer.byteLength));
    this.#offset += n;
    return Promise.resolve(n);
  }

  /** /fs/file/seek/: "Sets the file position indicator for the file to the passed offset bytes. Returns a promise resolving to the new offset." */
  seek(offset: number, whence: number = SeekMode.Start): Promise<number> {
    if (!Number.isInteger(offset)) return Promise.reject(new FsError('TypeError', `seek: the offset must be a whole number, got ${offset}`));
    const base = whence === SeekMode.Start ? 0 : whence === SeekMode.Current ? this.#offset : whence === SeekMode.End ? this.bytes.length : undefined;
    if (base === undefined) return Promise.reject(new FsError('TypeError', `seek: whence must be SeekMode.Start, Current or End, got ${whence}`));
    const next = base + offset;
    if (next < 0) return Promise.reject(new FsError('TypeError', `seek: the offset would be before the start of the file (${next})`));
    this.#offset = next;
    return Promise.resolve(next);
  }

  /** /fs/file/stat/: "a FileInfo object with information about the file": its `name` and `size` in bytes. */
  stat(): Promise<{ name: string; size: number }> {
    return Promise.resolve({ name: basename(this.path), size: this.bytes.length });
  }
}

/**
 * The module for one VU of a script at `scriptPath`: "Relative paths are resolved relative to the k6 script."
 *
 * @example
 * const file = await fsModule(vu, { scriptPath: '/tests/script.js' }).open('data.csv'); // /tests/data.csv
 */
export function fsModule(_vu: unknown, ctx: { scriptPath: string }) {
  const base = dirname(resolve(ctx.scriptPath));
  return {
    open(path: string): Promise<File> {
      if (typeof path !== 'string' || path === '') return Promise.reject(new FsError('TypeError', 'open needs a file path'));
      const full = resolve(base, path);
      try {
        fileBytes(full);
      } catch (e) {
        return Promise.reject(e);
      }
      return Promise.resolve(new File(full));
    },
    SeekMode,
    File,
  };
}
