import { join } from 'node:path';
import { UsageError } from '../errors.js';

/** What `dialtone load` adds to a k6 run besides the scenario: outputs, an execution segment, the history file. */
export interface LoadExtras {
  /** k6 outputs, each passed through as `--out` (json=FILE, csv=FILE, experimental-prometheus-rw, influxdb=URL). */
  readonly outs?: readonly string[] | undefined;
  /** This run is segment `index` (1-based) of `count`: k6 runs that share of the load and writes its histograms. */
  readonly segment?: Segment | undefined;
  /** `--raw-samples`: a segment keeps its raw samples (RAW_FILE) beside its histograms, for an exact merge. */
  readonly rawSamples?: boolean | undefined;
  /** The history file the verdict reads and the run is appended to (default DIR/load/SCENARIO/history.jsonl). */
  readonly history?: string | undefined;
  /** `--baseline-tag`: the run is recorded as a pinned baseline under this name; later runs are judged against it too. */
  readonly baselineTag?: string | undefined;
}

export interface Segment {
  readonly index: number;
  readonly count: number;
}

/** The k6 outputs dialtone passes through; k6 itself checks their arguments. */
export const K6_OUTPUTS = ['json', 'csv', 'experimental-prometheus-rw', 'influxdb', 'opentelemetry', 'experimental-opentelemetry', 'cloud'] as const;

/** The raw samples a segment keeps with --raw-samples: k6's JSON output, gzipped. */
export const RAW_FILE = 'raw.json.gz';
/** A segment's bounded histograms (src/core/histogram-series.ts), what `dialtone merge` joins. */
export const HISTOGRAMS_FILE = 'histograms.json';

/**
 * Checks one `--out` value: a known k6 output, alone or with its argument.
 *
 * @example
 * parseOut('json=/tmp/samples.json'); // 'json=/tmp/samples.json'
 * parseOut('statsd'); // throws UsageError
 */
export function parseOut(v: string): string {
  const kind = v.split('=')[0] ?? '';
  if (!(K6_OUTPUTS as readonly string[]).includes(kind))
    throw new UsageError(`load: --out '${v}': unknown k6 output '${kind}'; known: ${K6_OUTPUTS.join(', ')}`);
  return v;
}

/**
 * Checks a `--baseline-tag` name: a release or a label, as a reader types it on the command line (`1.4`,
 * `v2.0.0-rc.1`, `before-cache`).
 *
 * @example
 * parseBaselineTag('1.4'); // '1.4'
 * parseBaselineTag('my tag', 'merge'); // throws UsageError
 */
export function parseBaselineTag(v: string, command = 'load'): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/.test(v))
    throw new UsageError(`${command}: --baseline-tag must be 1 to 64 letters, digits, '.', '_', '+' or '-', starting with a letter or digit, got '${v}'`);
  return v;
}

/**
 * Parses `--segment i/N` (1 ≤ i ≤ N ≤ 64).
 *
 * @example
 * parseSegment('2/4'); // { index: 2, count: 4 }
 */
export function parseSegment(v: string, flag = '--segment'): Segment {
  const m = /^(\d+)\/(\d+)$/.exec(v);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || index < 1 || count < 1 || index > count || count > 64)
    throw new UsageError(`load: ${flag} must look like 2/4 (segment 2 of 4, at most 64), got '${v}'`);
  return { index, count };
}

/**
 * k6's own execution-segment flags for segment i of N: the i-th N-th of every executor's load.
 *
 * @example
 * segmentArgs({ index: 2, count: 3 }); // ['--execution-segment', '1/3:2/3', '--execution-segment-sequence', '0,1/3,2/3,1']
 */
export function segmentArgs(s: Segment): string[] {
  const at = (i: number) => (i === 0 ? '0' : i === s.count ? '1' : `${i}/${s.count}`);
  const sequence = Array.from({ length: s.count + 1 }, (_, i) => at(i)).join(',');
  return ['--execution-segment', `${at(s.index - 1)}:${at(s.index)}`, '--execution-segment-sequence', sequence];
}

/**
 * Where a run's samples go: the built-in engine writes its histograms itself, beside the summary, on every run; a k6
 * segment writes its JSON output, kept as RAW_FILE with --raw-samples or else in the scratch folder `work`, and folded
 * into histograms after the run.
 *
 * @example
 * segmentFiles({ segment: parseSegment('1/2') }, 'builtin', '/r', '/r/.work'); // { raw: undefined, histograms: '/r/histograms.json' }
 * segmentFiles({ segment: parseSegment('1/2') }, 'k6', '/r', '/r/.work'); // { raw: '/r/.work/raw.json.gz', histograms: undefined }
 */
export function segmentFiles(
  x: LoadExtras | undefined,
  engine: 'k6' | 'builtin',
  dir: string,
  work: string,
): { readonly raw: string | undefined; readonly histograms: string | undefined } {
  const histograms = engine === 'builtin' ? join(dir, HISTOGRAMS_FILE) : undefined;
  if (!x?.segment) return { raw: undefined, histograms };
  const raw = x.rawSamples ? join(dir, RAW_FILE) : engine === 'k6' ? join(work, RAW_FILE) : undefined;
  return { raw, histograms };
}

/**
 * The extra `k6 run` arguments: each output, a segment's flags, and the files of segmentFiles.
 *
 * @example
 * k6ExtraArgs({ segment: parseSegment('2/3') }, 'builtin', '/r', '/r/.work');
 * // ['--execution-segment', '1/3:2/3', '--execution-segment-sequence', '0,1/3,2/3,1', '--out', 'histograms=/r/histograms.json']
 */
export function k6ExtraArgs(x: LoadExtras | undefined, engine: 'k6' | 'builtin', dir: string, work: string): string[] {
  const outs = (x?.outs ?? []).flatMap((o) => ['--out', o]);
  const f = segmentFiles(x, engine, dir, work);
  const files = [...(f.histograms ? ['--out', `histograms=${f.histograms}`] : []), ...(f.raw ? ['--out', `json=${f.raw}`] : [])];
  return [...outs, ...(x?.segment ? segmentArgs(x.segment) : []), ...files];
}
