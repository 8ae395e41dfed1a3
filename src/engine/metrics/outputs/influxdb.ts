// `--out influxdb=URL` (/results-output/real-time/influxdb/): every sample as one line of InfluxDB v1's line protocol,
// POSTed to /write?db=… every K6_INFLUXDB_PUSH_INTERVAL. The line protocol is written here, not by a client library: the
// v1 client on npm (`influx`) has not been released since 2020 and builds each point through objects, where one
// template string per sample costs far less on a loaded generator; the protocol is a few escaping rules
// (https://docs.influxdata.com/influxdb/v1/write_protocols/line_protocol_reference/), tested below against a real server.

import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import type { MetricStore } from '../store.js';
import { Delivery, envBool, envDuration, type NetworkOutput, type NetworkOutputContext, REQUEST_TIMEOUT_MS, safeUrl, Ticker } from './delivery.js';

export const INFLUXDB = 'influxdb';

type FieldType = 'int' | 'float' | 'bool' | 'string';

/** What the argument and the K6_INFLUXDB_* variables ask for. */
export interface InfluxConfig {
  /** The server's address with its path prefix, no trailing slash, e.g. http://127.0.0.1:8086/influxdb. */
  readonly addr: string;
  readonly db: string;
  readonly username?: string | undefined;
  readonly password?: string | undefined;
  readonly insecure: boolean;
  readonly pushIntervalMs: number;
  readonly concurrentWrites: number;
  /** "K6_INFLUXDB_TAGS_AS_FIELDS … vu:int,iter:int,url" by default. */
  readonly tagsAsFields: ReadonlyMap<string, FieldType>;
  readonly precision: Precision;
  readonly retention?: string | undefined;
  readonly consistency?: string | undefined;
}

/** Timestamp precisions: InfluxDB's `precision` parameter and how many digits below the millisecond each keeps. */
const PRECISIONS = { ns: 6, u: 3, ms: 0, s: -3 } as const;
type Precision = keyof typeof PRECISIONS;
const PRECISION_WORDS: Readonly<Record<string, Precision>> = { '1ns': 'ns', ns: 'ns', '1us': 'u', us: 'u', u: 'u', '1ms': 'ms', ms: 'ms', '1s': 's', s: 's' };

/**
 * Reads the output's configuration: the URL's last path segment is the database and what comes before it the address
 * ("k6 uses the final URL path segment as the database name and preserves the preceding path as the address prefix";
 * "A trailing slash means that the entire path is the prefix"), credentials from the URL or K6_INFLUXDB_USERNAME/_PASSWORD.
 *
 * @example
 * influxConfig('http://127.0.0.1:8086/myk6db', {}).db; // 'myk6db'
 */
export function influxConfig(arg: string, env: NetworkOutputContext['env']): InfluxConfig {
  const text = arg || env.K6_INFLUXDB_ADDR || 'http://localhost:8086';
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol))
    throw new Error(`--out ${INFLUXDB}=${arg ? safeUrl(text) : '(K6_INFLUXDB_ADDR)'}: give an http(s) URL, e.g. --out influxdb=http://localhost:8086/k6`);
  const u = new URL(text);
  const path = u.pathname;
  const cut = path.lastIndexOf('/');
  const dbInUrl = arg !== '' && cut >= 0 ? decodeURIComponent(path.slice(cut + 1)) : '';
  const prefix = dbInUrl ? path.slice(0, cut) : path.replace(/\/+$/, '');
  const precision = PRECISION_WORDS[env.K6_INFLUXDB_PRECISION || '1ns'];
  if (!precision) throw new Error(`K6_INFLUXDB_PRECISION=${env.K6_INFLUXDB_PRECISION}: give 1ns, 1us, 1ms or 1s`);
  const writes = Number(env.K6_INFLUXDB_CONCURRENT_WRITES || 4);
  if (!Number.isInteger(writes) || writes < 1)
    throw new Error(`K6_INFLUXDB_CONCURRENT_WRITES=${env.K6_INFLUXDB_CONCURRENT_WRITES}: give a whole number above zero`);
  return {
    addr: `${u.protocol}//${u.host}${prefix}`,
    db: dbInUrl || env.K6_INFLUXDB_DB || 'k6',
    username: decodeURIComponent(u.username) || env.K6_INFLUXDB_USERNAME || undefined,
    password: decodeURIComponent(u.password) || env.K6_INFLUXDB_PASSWORD || undefined,
    insecure: envBool(env, 'K6_INFLUXDB_INSECURE', false),
    pushIntervalMs: envDuration(env, 'K6_INFLUXDB_PUSH_INTERVAL', 1000),
    concurrentWrites: writes,
    tagsAsFields: tagsAsFields(env.K6_INFLUXDB_TAGS_AS_FIELDS ?? 'vu:int,iter:int,url'),
    precision,
    retention: env.K6_INFLUXDB_RETENTION || undefined,
    consistency: env.K6_INFLUXDB_CONSISTENCY || undefined,
  };
}

/** "vu:int,iter:int,url:string,event_time:int": "The possible field types are int, bool, float and string, which is the default." */
function tagsAsFields(text: string): Map<string, FieldType> {
  const out = new Map<string, FieldType>();
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const [name = '', type = 'string'] = part.split(':').map((s) => s.trim());
    if (!['int', 'float', 'bool', 'string'].includes(type)) throw new Error(`K6_INFLUXDB_TAGS_AS_FIELDS: '${part}': the type is int, bool, float or string`);
    out.set(name, type as FieldType);
  }
  return out;
}

/** Line protocol escaping: measurements escape commas and spaces; tag keys, tag values and field keys also equals signs. */
const escMeasurement = (s: string) => s.replace(/[, \\]/g, '\\$&').replace(/\n/g, '\\n');
const escKey = (s: string) => s.replace(/[, =\\]/g, '\\$&').replace(/\n/g, '\\n');
/** A string field value: double-quoted, its quotes and backslashes escaped. */
const escString = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;

/** A tag turned field, by its type; undefined when the value does not fit it (it is left out, as a bad value would fail the whole write). */
function fieldValue(v: string, type: FieldType): string | undefined {
  switch (type) {
    case 'int':
      return /^-?\d+$/.test(v) ? `${v}i` : undefined;
    case 'float':
      return Number.isFinite(Number(v)) && v.trim() !== '' ? String(Number(v)) : undefined;
    case 'bool':
      return v === 'true' || v === 'false' ? v : undefined;
    case 'string':
      return escString(v);
  }
}

/**
 * The tags and extra fields of one tag set, written once per tag set: `,k=v,k2=v2` and `,vu=3i,url="…"`. Tags are
 * sorted by key, as InfluxDB advises for write performance; empty values are left out (the protocol has none).
 *
 * @example
 * tagPart({ status: '200', vu: '3', method: 'GET' }, new Map([['vu', 'int']])); // { tags: ',method=GET,status=200', fields: ',vu=3i' }
 */
export function tagPart(tags: Readonly<Record<string, string>>, asFields: ReadonlyMap<string, FieldType>): { tags: string; fields: string } {
  let t = '';
  let f = '';
  for (const k of Object.keys(tags).sort()) {
    const v = tags[k] as string;
    const type = asFields.get(k);
    if (type) {
      const fv = fieldValue(v, type);
      if (fv !== undefined && k !== 'value') f += `,${escKey(k)}=${fv}`;
    } else if (v !== '') t += `,${escKey(k)}=${escKey(v)}`;
  }
  return { tags: t, fields: f };
}

/**
 * A sample's time (ms since the epoch, with a fraction) in the chosen precision, as digits: the milliseconds' integer
 * part and the fraction's digits written side by side, since nanoseconds since the epoch do not fit a double exactly.
 *
 * @example
 * timestamp(1700000000123.456789, 'ns'); // '1700000000123456789'
 */
export function timestamp(ms: number, precision: Precision): string {
  const digits = PRECISIONS[precision];
  if (digits <= 0) return String(Math.floor(ms / 10 ** -digits));
  let whole = Math.floor(ms);
  let frac = Math.round((ms - whole) * 10 ** digits);
  if (frac >= 10 ** digits) {
    whole += 1;
    frac = 0;
  }
  return `${whole}${String(frac).padStart(digits, '0')}`;
}

/** The size of each chunk lines are written into. */
const CHUNK = 1 << 20;

/** Writes an ASCII string's characters at `at`; returns where it ended. A short string is copied faster here than through Buffer#write's native call. */
function ascii(c: Buffer, s: string, at: number): number {
  for (let i = 0; i < s.length; i++) c[at++] = s.charCodeAt(i);
  return at;
}

/** The most milliseconds `msDigits` writes: below it, a value to the nanosecond is an integer a double holds exactly. */
export const MS_DIGITS_BELOW = 1e9;

/**
 * Writes a duration in ms (0 to MS_DIGITS_BELOW) to the nanosecond, k6's own resolution for a duration, without a
 * trailing zero: 2.3456781 is written 2.345678, as k6 writes the duration it measured as 2,345,678 ns. It costs a
 * fraction of String(value)'s shortest round trip and leaves no string behind. Returns where it ended.
 *
 * @example
 * const c = Buffer.alloc(16); c.toString('latin1', 0, msDigits(c, 12.5, 0)); // '12.5'
 */
export function msDigits(c: Buffer, ms: number, at: number): number {
  const ns = Math.round(ms * 1e6);
  let whole = Math.floor(ns / 1e6);
  let frac = ns - whole * 1e6;
  let end = at + 1;
  for (let p = 10; whole >= p; p *= 10) end++;
  for (let i = end - 1; i >= at; i--) {
    const q = Math.floor(whole / 10);
    c[i] = 48 + whole - q * 10;
    whole = q;
  }
  at = end;
  if (frac !== 0) {
    c[at++] = 46;
    for (let d = 100_000; frac !== 0; d /= 10) {
      const q = Math.floor(frac / d);
      c[at++] = 48 + q;
      frac -= q * d;
    }
  }
  return at;
}

/**
 * Line protocol lines written into UTF-8 chunks: a line is its series' encoded head, the value, its encoded tail and the
 * timestamp (ASCII both), then a line break. A body is taken as its chunks, which come back to be written over once sent.
 *
 * @example
 * const lines = new LineChunks();
 * lines.add(Buffer.from('m value='), '1.5', Buffer.from(' '), '17');
 * Buffer.concat(lines.take().chunks).toString(); // 'm value=1.5 17\n'
 */
export class LineChunks {
  #done: Buffer[] = [];
  #free: Buffer[] = [];
  #chunk: Buffer;
  #at = 0;
  #count = 0;

  constructor() {
    this.#chunk = Buffer.allocUnsafeSlow(CHUNK);
  }

  /** One line; `value` is the value's text, or a duration in ms (0 to MS_DIGITS_BELOW) that msDigits writes. */
  add(head: Buffer, value: string | number, tail: Buffer, time: string): void {
    const size = head.length + (typeof value === 'string' ? value.length : 16) + tail.length + time.length + 1;
    if (this.#at + size > this.#chunk.length) this.#next(size);
    const c = this.#chunk;
    let at = this.#at + head.length;
    c.set(head, this.#at);
    at = typeof value === 'string' ? ascii(c, value, at) : msDigits(c, value, at);
    c.set(tail, at);
    at = ascii(c, time, at + tail.length);
    c[at++] = 10;
    this.#at = at;
    this.#count++;
  }

  /** Closes the full chunk and writes on in a free one (or a new one when every chunk is out). */
  #next(size: number): void {
    if (this.#at > 0) this.#done.push(this.#chunk.subarray(0, this.#at));
    const free = size <= CHUNK ? this.#free.pop() : undefined;
    this.#chunk = free ?? Buffer.allocUnsafeSlow(Math.max(CHUNK, size));
    this.#at = 0;
  }

  /** The lines written since the last take, as the chunks that hold them, and how many they are. */
  take(): { chunks: Buffer[]; samples: number } {
    const chunks = this.#done;
    if (this.#at > 0) {
      chunks.push(this.#chunk.subarray(0, this.#at));
      this.#chunk = this.#free.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
    }
    const samples = this.#count;
    this.#done = [];
    this.#at = 0;
    this.#count = 0;
    return { chunks, samples };
  }

  /** Chunks taken and sent, given back to be written over (at most a few kept, so a burst does not stay in memory). */
  release(chunks: readonly Buffer[]): void {
    for (const c of chunks) if (this.#free.length < 16 && c.buffer.byteLength === CHUNK) this.#free.push(Buffer.from(c.buffer, c.byteOffset, CHUNK));
  }
}

/**
 * Opens the output on the store: every sample becomes a line, and the lines go to the server every push interval
 * (at most K6_INFLUXDB_CONCURRENT_WRITES requests at once; lines wait for a free one rather than being dropped).
 *
 * @example
 * const out = openInfluxdbOutput('http://127.0.0.1:8086/k6', store, { env: process.env, log });
 * await out.ready(); // the database created when the server allows it
 */
export function openInfluxdbOutput(arg: string, store: MetricStore, ctx: NetworkOutputContext): NetworkOutput {
  const cfg = influxConfig(arg, ctx.env);
  const query = new URLSearchParams({ db: cfg.db, precision: cfg.precision });
  if (cfg.retention) query.set('rp', cfg.retention);
  if (cfg.consistency) query.set('consistency', cfg.consistency);
  const writeUrl = `${cfg.addr}/write?${query}`;
  const delivery = new Delivery(INFLUXDB, safeUrl(writeUrl), ctx.log);
  const dispatcher = cfg.insecure ? new Agent({ connect: { rejectUnauthorized: false } }) : undefined;
  const headers: Record<string, string> = { 'Content-Type': 'text/plain; charset=utf-8' };
  if (cfg.username) headers.Authorization = `Basic ${Buffer.from(`${cfg.username}:${cfg.password ?? ''}`).toString('base64')}`;
  // undici's request, not fetch: fetch copies a body through web streams, and a body here is megabytes a second.
  const post = async (path: string, body: string | readonly Buffer[]): Promise<void> => {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((n, c) => n + c.length, 0);
    const r = await request(path, {
      method: 'POST',
      headers: { ...headers, 'Content-Length': String(length) },
      body: typeof body === 'string' ? body : Readable.from(body),
      dispatcher,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await r.body.text();
    if (r.statusCode < 200 || r.statusCode > 299) throw new Error(`HTTP ${r.statusCode}${text ? `: ${text.trim().slice(0, 200)}` : ''}`);
  };

  // Every sample is a line (k6 writes each one): the lines go straight into UTF-8 chunks, each series' fixed parts
  // (measurement and tags before the value, fields after it) encoded once, so a sample costs a copy and two numbers.
  const series = new Map<string, { readonly ms: boolean; readonly parts: ({ head: Buffer; tail: Buffer } | undefined)[] }>();
  const lines = new LineChunks();
  let lastTime = Number.NaN;
  let lastStamp = '';
  const off = store.onSample((metric, tagSetId, t, value) => {
    if (!Number.isFinite(value)) return;
    let s = series.get(metric);
    if (s === undefined) {
      s = { ms: store.declOf(metric)?.contains === 'time', parts: [] };
      series.set(metric, s);
    }
    let parts = s.parts[tagSetId];
    if (parts === undefined) {
      const p = tagPart(store.tagsOf(tagSetId), cfg.tagsAsFields);
      parts = { head: Buffer.from(`${escMeasurement(metric)}${p.tags} value=`), tail: Buffer.from(`${p.fields} `) };
      s.parts[tagSetId] = parts;
    }
    // The samples of one request share its time: its digits are written once.
    if (t !== lastTime) {
      lastTime = t;
      lastStamp = timestamp(t, cfg.precision);
    }
    lines.add(parts.head, s.ms && value >= 0 && value < MS_DIGITS_BELOW ? value : String(value), parts.tail, lastStamp);
  });
  let writing = 0;
  const waiting: (() => void)[] = [];
  const flush = async (): Promise<void> => {
    const { chunks, samples } = lines.take();
    if (samples === 0) return;
    if (writing >= cfg.concurrentWrites) await new Promise<void>((resolve) => waiting.push(resolve));
    writing++;
    void delivery
      .send(samples, async () => {
        await post(writeUrl, chunks);
        // Sent and answered: the server has read every chunk. A failed one may still be in a socket's hands; it is let go.
        lines.release(chunks);
      })
      .finally(() => {
        writing--;
        waiting.shift()?.();
      });
  };
  const ticker = new Ticker(cfg.pushIntervalMs, flush);
  return {
    // "If the database doesn't exist, k6 creates one automatically." A server that refuses (or a store like
    // VictoriaMetrics that needs none) is no reason to stop the run: one warning, and the writes say the rest.
    ready: async () => {
      try {
        await post(`${cfg.addr}/query?${new URLSearchParams({ q: `CREATE DATABASE "${cfg.db.replace(/"/g, '\\"')}"` })}`, '');
      } catch (e) {
        ctx.log('warn', `output ${INFLUXDB} (${safeUrl(cfg.addr)}): could not create database ${cfg.db} (${(e as Error).message}); writing anyway`);
      }
    },
    delivery: () => delivery.report(),
    close: async () => {
      off();
      await ticker.stop();
      await delivery.drain();
      await dispatcher?.close();
    },
  };
}
