import { EXIT, UsageError } from '../../errors.js';
import { type LoadExtras, parseBaselineTag, parseOut, parseSegment } from '../../load/extras.js';
import type { Verdict } from '../../nightly/verdict.js';
import type { FlagSpecs } from '../command.js';
import { BASELINE_TAG_FLAG, FAIL_ON_REGRESSION_FLAG } from '../flags.js';

/** Exit code of a run whose thresholds held but a metric regressed, under --fail-on-regression. */
export const REGRESSION_EXIT = EXIT.regressed;

/** The load command's flags for nightly and distributed runs. */
export const LOAD_EXTRA_FLAGS = {
  out: {
    type: 'string',
    multiple: true,
    value: 'OUTPUT',
    help: 'passes a k6 output through: json=FILE, csv=FILE, experimental-prometheus-rw (K6_PROMETHEUS_RW_* variables), influxdb=URL, opentelemetry (K6_OTEL_* variables).',
  },
  segment: {
    type: 'string',
    value: 'i/N',
    help: "runs one of N execution segments (one per machine) and writes its histograms (histograms.json) for 'dialtone merge'.",
  },
  'raw-samples': {
    type: 'boolean',
    help: "with --segment or --segments: a segment also keeps its raw samples (raw.json.gz, k6's JSON output), which grow with the request count; merge reads them only with --exact.",
  },
  segments: { type: 'string', value: 'N', kind: 'integer', min: 1, max: 16, help: 'runs N engine processes on k6 execution segments and merges them.' },
  history: {
    type: 'string',
    value: 'FILE',
    help: 'reads and appends the run history there; the verdict judges the run against the last 14 runs of the same workload.',
    defaultText: 'DIR/load/SCENARIO/history.jsonl',
  },
  'fail-on-regression': {
    ...FAIL_ON_REGRESSION_FLAG,
    help: "exits 6 when the verdict is 'regressed': a metric outside its band around the last 14 runs of the same workload, drifted beyond its floor since the history began, or worse than at a pinned baseline.",
  },
  'baseline-tag': BASELINE_TAG_FLAG,
} as const satisfies FlagSpecs;

export interface ParsedExtras {
  readonly extras: LoadExtras;
  /** --segments N: how many local engine processes; absent for a single process. */
  readonly segments?: number | undefined;
  readonly failOnRegression: boolean;
}

/**
 * Reads the extra flags into LoadExtras; a bad value is a one-line usage error.
 *
 * @example
 * loadExtrasOf({ out: ['json=a.json'], 'fail-on-regression': true }).failOnRegression; // true
 */
export function loadExtrasOf(v: {
  out?: string[] | undefined;
  segment?: string | undefined;
  segments?: number | undefined;
  history?: string | undefined;
  'fail-on-regression'?: boolean | undefined;
  'baseline-tag'?: string | undefined;
  'raw-samples'?: boolean | undefined;
}): ParsedExtras {
  const { segments } = v;
  // One segment is not a run: it is neither recorded nor judged, so it cannot be a baseline.
  if (v.segment !== undefined && v['baseline-tag'] !== undefined)
    throw new UsageError("load: --baseline-tag pins a whole run: give it to 'dialtone merge' of the segments, not to --segment i/N");
  if (v['raw-samples'] && segments === undefined && v.segment === undefined)
    throw new UsageError('load: --raw-samples keeps the raw samples of a segment: give it with --segment i/N or --segments N');
  if (segments !== undefined && v.segment !== undefined)
    throw new UsageError('load: --segments runs every segment here; --segment i/N runs one: give one of them');
  return {
    extras: {
      outs: (v.out ?? []).map(parseOut),
      segment: v.segment === undefined ? undefined : parseSegment(v.segment),
      rawSamples: v['raw-samples'] ?? false,
      history: v.history,
      baselineTag: v['baseline-tag'] === undefined ? undefined : parseBaselineTag(v['baseline-tag']),
    },
    segments,
    failOnRegression: v['fail-on-regression'] ?? false,
  };
}

/**
 * The run's exit code: k6's when it is not 0 (a threshold failed: 99), else 6 when the verdict is
 * 'regressed' and --fail-on-regression was given, else 0.
 *
 * @example
 * exitWithVerdict(0, { status: 'regressed', baselineRuns: 14, metrics: [] }, true); // 6
 */
export function exitWithVerdict(k6Exit: number, verdict: Verdict, failOnRegression: boolean): number {
  if (k6Exit !== 0) return k6Exit;
  return failOnRegression && verdict.status === 'regressed' ? REGRESSION_EXIT : 0;
}
