import { DRIFT, type LevelStatus, levelChange, levelsOf } from './drift.js';
import type { NightMetric } from './metrics.js';

/**
 * How tonight is compared with the nights before. The band around the baseline's median is
 * k times its scaled MAD (a robust standard deviation), and never narrower than a tenth of the
 * median or an absolute floor per unit, so a metric that never moves (0 errors) does not turn a
 * single error into an alarm below the floor, and a sub-millisecond latency does not alarm on jitter.
 * With these values 100 seeded histories of pure noise raise no alarm (src/nightly/verdict.test.ts).
 */
export const BAND = {
  /** Baseline: the last this-many runs of the same scenario and workload. */
  baseline: 14,
  /** Fewer earlier runs than this: no verdict yet ("no baseline"). */
  minBaseline: 7,
  k: 5,
  relativeFloor: 0.1,
  absoluteFloor: { ms: 1, ratio: 0.005, per_s: 0, count: 0.5 } as Record<NightMetric['unit'], number>,
} as const;
export type Band = typeof BAND;

export type MetricStatus = 'improved' | 'unchanged' | 'regressed' | 'no baseline';

/** What found a regression: the band (tonight against the last 14 runs), the drift (the level since the history began), a pinned baseline. */
export type RegressionKind = 'band' | 'drift' | 'tag';

/** A run of the workload's history: its place (1 is the oldest run judged) and when it started. */
export interface RunRef {
  readonly run: number;
  readonly started_at?: string | undefined;
}

/** A metric whose level moved since the history began (src/nightly/drift.ts): from the first segment's level to tonight's. */
export interface Drift {
  readonly status: Exclude<LevelStatus, 'unchanged'>;
  readonly from: number;
  readonly to: number;
  /** The first run of the moved level: where the drift started. */
  readonly since: RunRef;
}

/** One metric's verdict, with the numbers it rests on. */
export interface MetricVerdict {
  readonly metric: string;
  readonly unit: NightMetric['unit'];
  readonly better: NightMetric['better'];
  readonly value: number;
  /** Baseline median and band; absent without enough baseline. */
  readonly median?: number;
  readonly low?: number;
  readonly high?: number;
  /** Baseline runs that had this metric. */
  readonly n: number;
  /** Regressed when the band, the drift or a pinned baseline says so; improved when only the band saw it improve. */
  readonly status: MetricStatus;
  /** The band's own verdict; absent where `status` is the band's alone (judgeMetric). */
  readonly band?: MetricStatus;
  /** Where the metric's level changed over the history (oldest first), tonight included. */
  readonly changePoints?: readonly RunRef[];
  /** Present when tonight's level is beyond the floor from the level the history began at. */
  readonly drift?: Drift;
  /** What found this metric regressed, when something did. */
  readonly kinds?: readonly RegressionKind[];
}

/** Tonight against one pinned baseline (`--baseline-tag`): the newest run carrying the tag. */
export interface TagVerdict {
  readonly tag: string;
  readonly at: RunRef;
  /** Regressed when a metric's level is worse than at the tagged run by more than its floor. */
  readonly status: Exclude<MetricStatus, 'no baseline'>;
  readonly metrics: readonly {
    readonly metric: string;
    readonly unit: NightMetric['unit'];
    readonly from: number;
    readonly to: number;
    readonly status: LevelStatus;
  }[];
}

/** A night's verdict: regressed when any metric regressed, improved when none did and one improved. */
export interface Verdict {
  readonly status: MetricStatus;
  readonly baselineRuns: number;
  readonly metrics: MetricVerdict[];
  /** Runs of this workload in the history, tonight included (the drift looks at the last `DRIFT.history`); absent without a baseline. */
  readonly historyRuns?: number;
  /** One per tag in the history, in the order they were last pinned. */
  readonly tags?: readonly TagVerdict[];
  /** What found the regressions (of every metric), when there are any. */
  readonly kinds?: readonly RegressionKind[];
}

/** What the verdict knows of a run besides its metrics: when it started and the tag it was pinned with. */
export interface RunLabel {
  readonly started_at?: string | undefined;
  readonly baseline_tag?: string | undefined;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
/**
 * The baseline's spread: its MAD scaled by 1.4826 (a robust standard deviation), or its standard
 * deviation when that is larger. The MAD of a dozen nights is itself noisy: when a few nights happen to
 * cluster it collapses and the band with it, which alone raised one false alarm in 70 noise histories.
 * The standard deviation leaves out the night furthest from the median when it is further than 5 MADs: a
 * single wild night (a CI runner starved of CPU) must not widen the band for the next two weeks.
 */
const spreadOf = (xs: readonly number[], m: number) => {
  const mad = 1.4826 * median(xs.map((x) => Math.abs(x - m)));
  const furthest = xs.reduce((f, x, i) => (Math.abs(x - m) > Math.abs((xs[f] as number) - m) ? i : f), 0);
  const wild = Math.abs((xs[furthest] as number) - m) > OUTLIER_MADS * mad;
  const kept = wild ? xs.filter((_, i) => i !== furthest) : xs;
  const mean = kept.reduce((a, x) => a + x, 0) / kept.length;
  const sd = Math.sqrt(kept.reduce((a, x) => a + (x - mean) ** 2, 0) / Math.max(1, kept.length - 1));
  return Math.max(mad, sd);
};
/** A night further than this many MADs from the median is wild, not noise. */
const OUTLIER_MADS = 5;

/**
 * Few nights estimate the spread poorly: k widens as Student's t quantile does over the normal one at
 * 1 in 10,000 (t with n−1 degrees of freedom over z): ×2.3 with 5 nights, ×1.13 with 14.
 */
const T_OVER_Z = [2.315, 1.847, 1.602, 1.454, 1.355, 1.286, 1.233, 1.193, 1.161, 1.135, 1.113];
const widening = (n: number) => T_OVER_Z[n - 5] ?? 1.1;

/**
 * Judges one metric against its baseline values (oldest first).
 *
 * @example
 * judgeMetric('chat p95', { value: 9, unit: 'ms', better: 'lower' }, [5, 5.2, 4.9, 5.1, 5]).status; // 'regressed'
 */
export function judgeMetric(metric: string, tonight: NightMetric, baseline: readonly number[], band: Band = BAND): MetricVerdict {
  const base = { metric, unit: tonight.unit, better: tonight.better, value: tonight.value, n: baseline.length };
  if (baseline.length < band.minBaseline) return { ...base, status: 'no baseline' };
  const m = median(baseline);
  const k = band.k * widening(baseline.length);
  // Latency and throughput noise is multiplicative (a slow night stretches the tail), so their band
  // is k MADs of the logarithm: symmetric in ratio, not in milliseconds. Rates and counts are additive.
  const logScale = (tonight.unit === 'ms' || tonight.unit === 'per_s') && baseline.every((x) => x > 0);
  const spread = logScale ? Math.expm1(k * spreadOf(baseline.map(Math.log), Math.log(m))) * m : k * spreadOf(baseline, m);
  const half = Math.max(spread, band.relativeFloor * Math.abs(m), band.absoluteFloor[tonight.unit]);
  const low = logScale ? Math.min(m - band.relativeFloor * m, m / (1 + half / m)) : m - half;
  const high = m + half;
  const worse = tonight.better === 'lower' ? tonight.value > high : tonight.value < low;
  const better = tonight.better === 'lower' ? tonight.value < low : tonight.value > high;
  return { ...base, median: m, low, high, status: worse ? 'regressed' : better ? 'improved' : 'unchanged' };
}

/**
 * A metric's values in the runs that recorded it (oldest first), and where each run stands in `runs`. A plain loop:
 * with flatMap, judging a year of nights night by night spent most of its time building one-element arrays.
 *
 * @example
 * seriesOf([{ p95: m(5) }, {}, { p95: m(7) }], 'p95'); // { at: [0, 2], values: [5, 7] }
 */
export function seriesOf(runs: readonly Readonly<Record<string, NightMetric>>[], name: string): { at: number[]; values: number[] } {
  const at: number[] = [];
  const values: number[] = [];
  for (let i = 0; i < runs.length; i++) {
    const m = runs[i]?.[name];
    if (!m) continue;
    at.push(i);
    values.push(m.value);
  }
  return { at, values };
}

/**
 * Judges tonight's metrics against the earlier runs' (oldest first): the band against the last `band.baseline` runs
 * (a step caught the night it happens), the drift over the whole history (up to `DRIFT.history` runs: a slow creep the
 * band walks along with; since the newest pinned run when there is one), and each pinned baseline (the newest run carrying each `baseline_tag`). `labels` name
 * the earlier runs and then tonight (when they started, their tags); without them runs are known by number only.
 *
 * @example
 * const v = judge(earlier.map((r) => r.metrics ?? {}), metricsOf(summary), BAND, [...earlier, tonight]);
 * if (v.status === 'regressed') process.exitCode = 6;
 */
export function judge(
  earlier: readonly Readonly<Record<string, NightMetric>>[],
  tonight: Readonly<Record<string, NightMetric>>,
  band: Band = BAND,
  labels: readonly RunLabel[] = [],
): Verdict {
  const window = earlier.slice(-band.baseline);
  if (window.length < band.minBaseline) {
    const metrics = Object.entries(tonight)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, t]) => judgeMetric(name, t, seriesOf(window, name).values, band));
    return { status: 'no baseline', baselineRuns: window.length, metrics };
  }
  // The history the drift is looked for in: runs[i] is run start + i + 1 of the workload, tonight last.
  const start = Math.max(0, earlier.length - DRIFT.history);
  const runs = [...earlier.slice(start), tonight];
  const ref = (i: number): RunRef => ({ run: start + i + 1, started_at: labels[start + i]?.started_at });
  const tagged = new Map<string, number>();
  runs.slice(0, -1).forEach((_, i) => {
    const tag = labels[start + i]?.baseline_tag;
    if (!tag) return;
    tagged.delete(tag); // the newest run of each tag; tags in the order they were last pinned
    tagged.set(tag, i);
  });
  const tagMetrics = new Map<string, TagVerdict['metrics'][number][]>([...tagged.keys()].map((t) => [t, []]));
  // Drift is looked for since the newest pinned run when there is one, else since the history began: pinning a release
  // accepts its level, so a slowdown the team chose does not stay red every night after.
  const newestPin = Math.max(-1, ...tagged.values());
  const metrics = Object.entries(tonight)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, t]): MetricVerdict => {
      const banded = judgeMetric(name, t, seriesOf(window, name).values, band);
      // The metric's own series: the runs that recorded it.
      const { at, values } = seriesOf(runs, name);
      const levels = levelsOf(values, t.unit);
      const drift = levelChange(levels, Math.max(0, at.indexOf(newestPin)), t, band);
      let tagWorse = false;
      for (const [tag, i] of tagged) {
        const p = at.indexOf(i);
        if (p < 0) continue; // the tagged run did not record this metric
        const c = levelChange(levels, p, t, band);
        tagWorse ||= c.status === 'regressed';
        tagMetrics.get(tag)?.push({ metric: name, unit: t.unit, from: c.from, to: c.to, status: c.status });
      }
      const kinds = [
        ...(banded.status === 'regressed' ? ['band' as const] : []),
        ...(drift.status === 'regressed' ? ['drift' as const] : []),
        ...(tagWorse ? ['tag' as const] : []),
      ];
      return {
        ...banded,
        status: kinds.length ? 'regressed' : banded.status,
        band: banded.status,
        ...(kinds.length ? { kinds } : {}),
        changePoints: levels.points.map((c) => ref(at[c.index] as number)),
        ...(drift.status !== 'unchanged' && drift.since !== undefined
          ? { drift: { status: drift.status, from: drift.from, to: drift.to, since: ref(at[drift.since] as number) } }
          : {}),
      };
    });
  const tags = [...tagged].map(([tag, i]): TagVerdict => {
    const ms = tagMetrics.get(tag) ?? [];
    const status = ms.some((m) => m.status === 'regressed') ? 'regressed' : ms.some((m) => m.status === 'improved') ? 'improved' : 'unchanged';
    return { tag, at: ref(i), status, metrics: ms };
  });
  const has = (s: MetricStatus) => metrics.some((x) => x.status === s);
  const status: MetricStatus = has('regressed') ? 'regressed' : has('improved') ? 'improved' : 'unchanged';
  const kinds = (['band', 'drift', 'tag'] as const).filter((k) => metrics.some((m) => m.kinds?.includes(k)));
  return { status, baselineRuns: window.length, metrics, historyRuns: earlier.length + 1, tags, ...(kinds.length ? { kinds } : {}) };
}

const num = (v: number | undefined, unit: NightMetric['unit']) =>
  v === undefined
    ? '—'
    : unit === 'ratio'
      ? `${(v * 100).toFixed(2)}%`
      : `${Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2)}${unit === 'ms' ? ' ms' : unit === 'per_s' ? '/s' : ''}`;

/**
 * A change of level as the reader weighs it: relative for latencies and throughput, in percentage points for rates,
 * in events for counts.
 *
 * @example
 * changeText(100, 138, 'ms'); // '+38.0 %'
 */
export function changeText(from: number, to: number, unit: NightMetric['unit']): string {
  const sign = (x: number) => (x < 0 ? '-' : '+');
  if (unit === 'ratio') return `${sign(to - from)}${Math.abs((to - from) * 100).toFixed(2)} pp`;
  if (unit === 'count' || from <= 0) return `${sign(to - from)}${Math.abs(to - from).toFixed(1)}${unit === 'ms' ? ' ms' : unit === 'per_s' ? '/s' : ''}`;
  const r = to / from - 1;
  return `${sign(r)}${Math.abs(r * 100).toFixed(Math.abs(r) < 1 ? 1 : 0)} %`;
}

/** A run as a line names it: the night it started and its place in the history. */
const runText = (r: RunRef, total: number | undefined) =>
  `${r.started_at ? `night ${r.started_at.slice(0, 10)} ` : ''}(run ${r.run}${total ? ` of ${total}` : ''})`;

/**
 * The line that names a metric's drift: how far, since which night, and where its level changed.
 *
 * @example
 * driftLine(m, 61); // '  regressed http_req_duration p95: drifted +38.0 % since night 2026-11-02 (run 21 of 61), 100 ms → 138 ms; change points at run 21
 * (2026-11-02), run 34 (2026-11-15)'
 */
export function driftLine(m: MetricVerdict, total?: number): string | undefined {
  if (!m.drift) return undefined;
  const points = (m.changePoints ?? []).map((c) => `run ${c.run}${c.started_at ? ` (${c.started_at.slice(0, 10)})` : ''}`);
  return (
    `  ${m.drift.status} ${m.metric}: drifted ${changeText(m.drift.from, m.drift.to, m.unit)} since ${runText(m.drift.since, total)}, ` +
    `${num(m.drift.from, m.unit)} → ${num(m.drift.to, m.unit)}; change point${points.length === 1 ? '' : 's'} at ${points.join(', ')}`
  );
}

/** Metrics named on a tag's line at most; the page lists them all. */
const TAG_LINE_METRICS = 5;

/**
 * The line of one pinned baseline: tonight's level of each metric against the level at the tagged run.
 *
 * @example
 * tagLine(v.tags[0], 61); // '  vs 1.4 (night 2026-11-03, run 12 of 61): regressed: http_req_duration p95 +12.0 % (100 ms → 112 ms); 12 of 13 metrics within
 * their floor'
 */
export function tagLine(t: TagVerdict, total?: number): string {
  const moved = [...t.metrics.filter((m) => m.status === 'regressed'), ...t.metrics.filter((m) => m.status === 'improved')];
  const named = moved
    .slice(0, TAG_LINE_METRICS)
    .map((m) => `${m.status === 'improved' ? 'improved ' : ''}${m.metric} ${changeText(m.from, m.to, m.unit)} (${num(m.from, m.unit)} → ${num(m.to, m.unit)})`);
  if (moved.length > TAG_LINE_METRICS) named.push(`${moved.length - TAG_LINE_METRICS} more`);
  const within = `${t.metrics.length - moved.length} of ${t.metrics.length} metrics within their floor`;
  const at = `${t.at.started_at ? `night ${t.at.started_at.slice(0, 10)}, ` : ''}run ${t.at.run}${total ? ` of ${total}` : ''}`;
  return `  vs ${t.tag} (${at}): ${t.status}: ${named.length ? `${named.join(', ')}; ` : ''}${within}`;
}

/**
 * One line per metric that left its band, one per metric that drifted, one per pinned baseline, after the overall
 * line: what the terminal and CI log show.
 *
 * @example
 * verdictLines(v); // ['verdict: regressed against 14 earlier runs', '  regressed chat p95: 9.00 ms (baseline median 5.00 ms, band 4.50 ms … 5.50 ms)']
 */
export function verdictLines(v: Verdict): string[] {
  const bandOf = (m: MetricVerdict) => m.band ?? m.status;
  const drifted = v.metrics.filter((m) => m.drift?.status === 'regressed');
  const head =
    v.status === 'no baseline'
      ? `verdict: no baseline yet (${v.baselineRuns} earlier runs of this workload; ${BAND.minBaseline} needed)`
      : `verdict: ${v.status} against ${v.baselineRuns} earlier runs (${v.metrics.filter((m) => bandOf(m) === 'unchanged').length} of ${v.metrics.length} metrics within their band${drifted.length ? `, ${drifted.length} drifted over ${v.historyRuns} runs` : ''})`;
  const moved = v.metrics
    .filter((m) => bandOf(m) === 'regressed' || bandOf(m) === 'improved')
    .map(
      (m) =>
        `  ${bandOf(m)} ${m.metric}: ${num(m.value, m.unit)} (baseline median ${num(m.median, m.unit)}, band ${num(m.low, m.unit)} … ${num(m.high, m.unit)})`,
    );
  const drifts = drifted.flatMap((m) => driftLine(m, v.historyRuns) ?? []);
  return [head, ...moved, ...drifts, ...(v.tags ?? []).map((t) => tagLine(t, v.historyRuns))];
}
