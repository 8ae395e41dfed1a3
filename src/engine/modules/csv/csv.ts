// `k6/experimental/csv` (/javascript-api/k6-experimental/csv/): "The csv.parse() function parses a complete CSV file
// into a SharedArray"; "The csv.Parser class is a streaming parser that reads CSV files line-by-line". Both read a
// File of k6/experimental/fs. Records are RFC 4180's: quoted fields may hold the delimiter, quotes ("") and line breaks.
import { File } from '../fs/fs.js';

/** /csv/options/. */
export interface CsvOptions {
  /** "The character used to separate fields in the CSV file. Default is ','." */
  delimiter?: string;
  /** "Whether to parse the CSV file's lines as JavaScript objects." Keys come from the first line, which is skipped. */
  asObjects?: boolean;
  /** "Whether to skip the first line of the CSV file. Default is false." */
  skipFirstLine?: boolean;
  /** "The line number from which to start reading the CSV file. Default is 0." */
  fromLine?: number;
  /** "The line number at which to stop reading the CSV file. If the option is not set, then read until the end." */
  toLine?: number;
}

/** One record of `text` from `at`: its fields and where the next record starts; undefined at the end. */
function readRecord(text: string, at: number, delimiter: string): { fields: string[]; next: number } | undefined {
  if (at >= text.length) return undefined;
  const fields: string[] = [];
  let field = '';
  let i = at;
  let quoted = false;
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (text.startsWith(delimiter, i)) {
      fields.push(field);
      field = '';
      i += delimiter.length;
      continue;
    } else if (c === '\n' || c === '\r') {
      fields.push(field);
      const next = c === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
      return { fields, next };
    } else field += c;
    i++;
  }
  if (quoted) throw new Error(`csv: a quoted field opened at offset ${at} is never closed`);
  fields.push(field);
  return { fields, next: i };
}

function checked(options: CsvOptions | undefined): Required<Omit<CsvOptions, 'toLine'>> & { toLine: number } {
  const o = options ?? {};
  const delimiter = o.delimiter ?? ',';
  if (typeof delimiter !== 'string' || delimiter === '' || /["\r\n]/.test(delimiter))
    throw new TypeError(`csv: invalid delimiter ${JSON.stringify(delimiter)}`);
  const line = (v: unknown, name: string, dflt: number) => {
    if (v === undefined || v === null) return dflt;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new TypeError(`csv: ${name} must be a whole number from 0, got ${String(v)}`);
    return v;
  };
  const fromLine = line(o.fromLine, 'fromLine', 0);
  const toLine = line(o.toLine, 'toLine', Number.POSITIVE_INFINITY);
  if (toLine < fromLine) throw new TypeError(`csv: toLine (${toLine}) is before fromLine (${fromLine})`);
  return { delimiter, asObjects: o.asObjects === true, skipFirstLine: o.skipFirstLine === true, fromLine, toLine };
}

/** Reads `file`'s records one at a time with the options' lines kept (line 0 is the file's first). */
class Records {
  readonly #text: string;
  readonly #o: ReturnType<typeof checked>;
  #at = 0;
  #line = 0;
  #header: string[] | undefined;

  constructor(file: unknown, options: CsvOptions | undefined) {
    if (!(file instanceof File)) throw new TypeError('csv: the first argument must be a File from k6/experimental/fs open()');
    this.#o = checked(options);
    this.#text = file.bytes.toString('utf8').replace(/^\uFEFF/, '');
    // asObjects: "the first line of the CSV file is skipped, as it is assumed to contain the column names".
    if (this.#o.asObjects) {
      const first = readRecord(this.#text, 0, this.#o.delimiter);
      this.#header = first?.fields ?? [];
      this.#at = first?.next ?? 0;
      this.#line = 1;
    }
  }

  next(): string[] | Record<string, string> | undefined {
    const o = this.#o;
    for (;;) {
      if (this.#line > o.toLine) return undefined;
      const r = readRecord(this.#text, this.#at, o.delimiter);
      if (!r) return undefined;
      const line = this.#line++;
      this.#at = r.next;
      if ((line === 0 && o.skipFirstLine) || line < o.fromLine) continue;
      const header = this.#header;
      return header ? Object.fromEntries(header.map((k, i) => [k, r.fields[i] ?? ''])) : r.fields;
    }
  }
}

/** What csv.parse made in this thread, by file and options: every VU of a thread shares one array, as SharedArray's do. */
const parsed = new Map<string, readonly unknown[]>();

/** The module (the same for every VU: it holds no VU state). */
export function csvModule() {
  /** /csv/parse/: "returns a promise that resolves to a SharedArray instance" (frozen: read-only, as SharedArray). */
  function parse(file: unknown, options?: CsvOptions): Promise<readonly unknown[]> {
    try {
      const key = file instanceof File ? `${file.path}\u0000${JSON.stringify(options ?? {})}` : '';
      const made = parsed.get(key);
      if (made) return Promise.resolve(made);
      const records = new Records(file, options);
      const out: unknown[] = [];
      for (let r = records.next(); r !== undefined; r = records.next()) out.push(Object.freeze(r));
      parsed.set(key, Object.freeze(out));
      return Promise.resolve(out);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** /csv/parser/: `next()` resolves `{ done, value }`; "If done is true, value is undefined." */
  class Parser {
    readonly #records: Records;
    constructor(file: unknown, options?: CsvOptions) {
      this.#records = new Records(file, options);
    }
    next(): Promise<{ done: boolean; value: unknown }> {
      try {
        const value = this.#records.next();
        return Promise.resolve(value === undefined ? { done: true, value: undefined } : { done: false, value });
      } catch (e) {
        return Promise.reject(e);
      }
    }
  }
  return { parse, Parser };
}
