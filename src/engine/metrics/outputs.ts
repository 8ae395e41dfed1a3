// `--out json=FILE` and `--out csv=FILE` (/results-output/real-time/json/, /results-output/real-time/csv/): every
// sample streamed to a file, gzipped when the name ends in .gz; `--out histograms=FILE`, dialtone's bounded
// histograms (histogram-output.ts); and the network outputs of outputs/ (Prometheus remote write, InfluxDB,
// OpenTelemetry). They listen to the store, so without an output the hot path builds no string at all.

import { createWriteStream, type WriteStream } from 'node:fs';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { openHistogramOutput } from './histogram-output.js';
import type { DeliveryReport, NetworkOutputContext } from './outputs/delivery.js';
import { INFLUXDB, openInfluxdbOutput } from './outputs/influxdb.js';
import { openOtelOutput } from './outputs/opentelemetry.js';
import { openPrometheusRwOutput, PROMETHEUS_RW } from './outputs/prometheus-rw.js';
import type { MetricStore } from './store.js';

/** How an output takes its argument: a file it writes, or an address it sends to (optional, its K6_* variables else). */
type ArgKind = 'file' | 'address';

/** One output the built-in engine writes: what its argument is and how it opens. */
interface OutputKind {
  readonly arg: ArgKind;
  readonly open: (arg: string, store: MetricStore, ctx: NetworkOutputContext) => Omit<Output, 'spec'>;
}

/** The outputs the built-in engine writes, by the name `--out` gives. */
const OUTPUTS = {
  json: { arg: 'file', open: (path, store) => openJsonOutput(path, store) },
  csv: { arg: 'file', open: (path, store) => openCsvOutput(path, store) },
  histograms: { arg: 'file', open: openHistogramOutput },
  [PROMETHEUS_RW]: { arg: 'address', open: openPrometheusRwOutput },
  [INFLUXDB]: { arg: 'address', open: openInfluxdbOutput },
  opentelemetry: { arg: 'address', open: openOtelOutput },
  'experimental-opentelemetry': { arg: 'address', open: openOtelOutput },
} as const satisfies Record<string, OutputKind>;
type OutputType = keyof typeof OUTPUTS;
const OUTPUT_TYPES = Object.keys(OUTPUTS) as OutputType[];

/** One `--out` flag: the kind of output and its file (or, for a network output, its address, maybe empty). */
export interface OutputSpec {
  readonly type: OutputType;
  readonly path: string;
}

/** An open output: `close` writes what is buffered and waits until the file is complete (or the last push ended). */
export interface Output {
  readonly spec: OutputSpec;
  /** Resolves once the file is open; rejects when it cannot be (await it before the run to fail early). */
  ready(): Promise<void>;
  close(): Promise<void>;
  /** A network output's samples sent and dropped (outputs/delivery.ts). */
  delivery?(): DeliveryReport;
}

/**
 * Parses a `--out` value: `json=FILE`, `csv=FILE`, `histograms=FILE`, `experimental-prometheus-rw` or
 * `influxdb[=URL]`. Throws a one-line error for any other output.
 *
 * @example
 * parseOutArg('json=reports/raw.json.gz'); // { type: 'json', path: 'reports/raw.json.gz' }
 */
export function parseOutArg(arg: string): OutputSpec {
  const eq = arg.indexOf('=');
  const type = (eq < 0 ? arg : arg.slice(0, eq)).trim();
  const path = eq < 0 ? '' : arg.slice(eq + 1).trim();
  if (!Object.hasOwn(OUTPUTS, type))
    throw new Error(`--out ${arg}: the built-in engine writes ${OUTPUT_TYPES.map((t) => (OUTPUTS[t].arg === 'file' ? `${t}=FILE` : t)).join(', ')} only`);
  if (path === '' && OUTPUTS[type as OutputType].arg === 'file') throw new Error(`--out ${arg}: give a file, e.g. --out ${type}=results.${type}`);
  return { type: type as OutputType, path };
}

/** Whether an output's argument is a file (resolved against the run's directory) rather than an address. */
export const writesFile = (spec: OutputSpec): boolean => OUTPUTS[spec.type].arg === 'file';

/**
 * Opens an output on the store: from now on every sample the store takes is written to the file (or sent).
 *
 * @example
 * const out = openOutput(parseOutArg('csv=raw.csv.gz'), store, { env: process.env, log });
 * // … the run …
 * await out.close();
 */
export function openOutput(spec: OutputSpec, store: MetricStore, ctx: NetworkOutputContext = { env: {}, log: () => {} }): Output {
  return { spec, ...OUTPUTS[spec.type].open(spec.path, store, ctx) };
}

/** Characters buffered before one write: a few large writes cost far less than one per sample. */
const CHUNK = 1 << 20;

/**
 * A file written in large chunks, gzipped when its name ends in .gz. Writes never wait: the main thread cannot block
 * on the disk mid-run, so a slow disk queues chunks in memory rather than stalling the samples.
 */
class ChunkedFile {
  private buf = '';
  private readonly sink: Writable;
  private readonly file: WriteStream;
  private error: Error | undefined;
  readonly opened: Promise<void>;

  constructor(path: string) {
    this.file = createWriteStream(path);
    this.opened = new Promise<void>((resolve, reject) => {
      this.file.once('open', () => resolve());
      this.file.once('error', reject);
    });
    // Awaiting `opened` is optional: its failure is also reported by close().
    this.opened.catch(() => {});
    // Level 1: on a loaded 2-core generator CPU matters more than the file's size (gzip runs on libuv's pool).
    this.sink = path.endsWith('.gz') ? createGzip({ level: 1 }) : this.file;
    if (this.sink !== this.file) this.sink.pipe(this.file);
    const fail = (e: Error) => {
      this.error ??= e;
    };
    this.file.on('error', fail);
    this.sink.on('error', fail);
  }

  write(s: string): void {
    this.buf += s;
    if (this.buf.length >= CHUNK) this.flush();
  }

  private flush(): void {
    if (this.buf === '' || this.error) return;
    this.sink.write(this.buf);
    this.buf = '';
  }

  async close(): Promise<void> {
    this.flush();
    await new Promise<void>((resolve, reject) => {
      if (this.error) {
        reject(this.error);
        return;
      }
      this.file.once('close', () => (this.error ? reject(this.error) : resolve()));
      this.file.once('error', reject);
      this.sink.end();
    });
  }
}

/** RFC 3339 times with ms, the date part made once per second rather than per sample. */
class TimeFormat {
  private second = Number.NaN;
  private prefix = '';

  format(ms: number): string {
    const s = Math.floor(ms / 1000);
    if (s !== this.second) {
      this.second = s;
      this.prefix = new Date(s * 1000).toISOString().slice(0, 20); // YYYY-MM-DDTHH:MM:SS.
    }
    const frac = Math.floor(ms - s * 1000);
    return `${this.prefix}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
  }
}

/**
 * k6's JSON output: NDJSON with a Metric line the first time a metric is seen, then one Point line per sample.
 *
 * @example
 * const out = openJsonOutput('raw.json.gz', store);
 */
export function openJsonOutput(path: string, store: MetricStore): Output {
  const file = new ChunkedFile(path);
  const time = new TimeFormat();
  const names = new Map<string, string>(); // metric → its name as a JSON string, once its Metric line is written
  const tagJson: (string | undefined)[] = [];
  const metricLine = (metric: string): string => {
    const name = JSON.stringify(metric);
    const decl = store.declOf(metric);
    const thresholds = store.entry(metric)?.thresholds.map((t) => t.source) ?? [];
    const data = { name: metric, type: decl?.type, contains: decl?.contains, tainted: null, thresholds, submetrics: null };
    file.write(`{"type":"Metric","data":${JSON.stringify(data)},"metric":${name}}\n`);
    names.set(metric, name);
    return name;
  };
  const off = store.onSample((metric, tagSetId, t, value) => {
    const name = names.get(metric) ?? metricLine(metric);
    let tags = tagJson[tagSetId];
    if (tags === undefined) {
      tags = JSON.stringify(store.tagsOf(tagSetId));
      tagJson[tagSetId] = tags;
    }
    file.write(`{"type":"Point","data":{"time":"${time.format(t)}","value":${value},"tags":${tags}},"metric":${name}}\n`);
  });
  return {
    spec: { type: 'json', path },
    ready: () => file.opened,
    close: () => {
      off();
      return file.close();
    },
  };
}

/** The tag columns of k6's CSV output, between metric_value and extra_tags. */
export const CSV_TAG_COLUMNS: readonly string[] = [
  'check',
  'error',
  'error_code',
  'expected_response',
  'group',
  'method',
  'name',
  'proto',
  'scenario',
  'service',
  'status',
  'subproto',
  'tls_version',
  'url',
];

/** The header line of k6's CSV output. */
export const CSV_HEADER = ['metric_name', 'timestamp', 'metric_value', ...CSV_TAG_COLUMNS, 'extra_tags', 'metadata'].join(',');

/** A CSV field, quoted only when it must be (a comma, quote, line break, or leading space), as Go's encoding/csv does. */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) || s.startsWith(' ') ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * k6's CSV output: a header, then one line per sample with the time in unix seconds, the value with 6 decimals, the
 * known tags in their columns and the others in extra_tags as `k=v&k2=v2`.
 *
 * @example
 * const out = openCsvOutput('raw.csv', store);
 */
export function openCsvOutput(path: string, store: MetricStore): Output {
  const file = new ChunkedFile(path);
  file.write(`${CSV_HEADER}\n`);
  const names = new Map<string, string>();
  const tails: (string | undefined)[] = [];
  const known = new Set(CSV_TAG_COLUMNS);
  const tailOf = (tagSetId: number): string => {
    const tags = store.tagsOf(tagSetId);
    const extra = Object.entries(tags)
      .filter(([k]) => !known.has(k))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const tail = `,${CSV_TAG_COLUMNS.map((c) => csvField(tags[c] ?? '')).join(',')},${csvField(extra)},\n`;
    tails[tagSetId] = tail;
    return tail;
  };
  const off = store.onSample((metric, tagSetId, t, value) => {
    let name = names.get(metric);
    if (name === undefined) {
      name = csvField(metric);
      names.set(metric, name);
    }
    file.write(`${name},${Math.floor(t / 1000)},${value.toFixed(6)}${tails[tagSetId] ?? tailOf(tagSetId)}`);
  });
  return {
    spec: { type: 'csv', path },
    ready: () => file.opened,
    close: () => {
      off();
      return file.close();
    },
  };
}
