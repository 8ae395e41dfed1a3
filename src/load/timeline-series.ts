// The run over time from segments' histograms (histograms.json) rather than their raw samples: each file's intervals
// are laid on one clock, at the coarsest interval of them all, and read as timeline.ts reads a tally of seconds.

import { existsSync, readFileSync } from 'node:fs';
import { type Acc, HISTOGRAM_FORMAT, type HistogramFile, joinAcc, loadAcc } from '../core/histogram-series.js';
import { emptyHistogram, type LogHistogram, mergeInto } from '../core/log-histogram.js';
import { emptyTally, LATENCY_METRIC, type Tally, type Timeline, timelineOf } from './timeline.js';

const COUNTS = ['http_reqs', 'iterations', 'dropped_iterations'];

/** One slot of the joined series: each file's figures per key, the VUs kept per file since they add up across files. */
type Slot = Map<string, Acc>[];

/**
 * The timeline of one or more histogram files (one per engine process or segment), with the SLO keys to draw; undefined
 * when no file holds an interval.
 *
 * @example
 * const timeline = timelineOfHistograms([JSON.parse(readFileSync('histograms.json', 'utf8'))], [{ key: 'checks', expressions: ['rate>0.99'] }]);
 */
export function timelineOfHistograms(
  files: readonly HistogramFile[],
  slos: readonly { readonly key: string; readonly expressions: readonly string[] }[],
): Timeline | undefined {
  const used = files.filter((f) => f.intervals.length > 0);
  if (used.length === 0) return undefined;
  const start = Math.min(...used.map((f) => f.started_ms));
  const width = Math.max(...used.map((f) => f.interval_s));
  const slots = new Map<number, Slot>();
  used.forEach((f, source) => {
    for (const iv of f.intervals) {
      const at = Math.floor((f.started_ms + iv.t * 1000 - start) / (width * 1000));
      const slot = slots.get(at) ?? [];
      slots.set(at, slot);
      const mine = slot[source] ?? new Map<string, Acc>();
      slot[source] = mine;
      for (const [k, m] of Object.entries(iv.metrics)) {
        const a = mine.get(k);
        if (a) joinAcc(a, loadAcc(m));
        else mine.set(k, loadAcc(m));
      }
    }
  });
  const tally = tallyOf(slots, slos);
  // The tally's "seconds" are slots of `width` seconds: read back, times and per-second rates are scaled to them.
  const tl = timelineOf(tally);
  if (!tl) return undefined;
  return {
    started_at: new Date(start + Math.min(...slots.keys()) * width * 1000).toISOString(),
    interval_s: tl.interval_s * width,
    points: tl.points.map((p) => ({
      ...p,
      t: p.t * width,
      requests_per_s: p.requests_per_s / width,
      iterations_per_s: p.iterations_per_s / width,
      dropped_per_s: p.dropped_per_s / width,
    })),
    distribution: tl.distribution,
    source: used.length > 1 ? `the bounded histograms of ${used.length} engine processes` : 'the bounded histograms the engine kept',
  };
}

/** The slots as timeline.ts's tally: counts, VUs per source, rates and trends per key, the latencies over the whole run. */
function tallyOf(slots: ReadonlyMap<number, Slot>, slos: readonly { readonly key: string; readonly expressions: readonly string[] }[]): Tally {
  const tally = emptyTally(slos);
  for (const [at, slot] of slots) {
    const counts = new Map<string, number>();
    const vus = new Map<number, number>();
    const rates = new Map<string, { nonZero: number; count: number }>();
    const trends = new Map<string, LogHistogram>();
    slot.forEach((keys, source) => {
      for (const [k, a] of keys) {
        if (COUNTS.includes(k)) counts.set(k, (counts.get(k) ?? 0) + a.sum);
        else if (k === 'vus') vus.set(source, Math.max(vus.get(source) ?? 0, a.max));
        else if (a.kind === 'rate') {
          const r = rates.get(k) ?? { nonZero: 0, count: 0 };
          rates.set(k, { nonZero: r.nonZero + a.nonZero, count: r.count + a.count });
        } else if (a.hist) addHist(trends, k, a.hist);
        if (a.hist && (k === LATENCY_METRIC || k.startsWith(`${LATENCY_METRIC}{op:`))) addHist(tally.whole, k, a.hist);
      }
    });
    tally.seconds.set(at, { counts, vus, rates, trends });
  }
  return tally;
}

const addHist = (into: Map<string, LogHistogram>, key: string, h: LogHistogram) => {
  let a = into.get(key);
  if (!a) {
    a = emptyHistogram();
    into.set(key, a);
  }
  mergeInto(a, h);
};

/**
 * The timeline of a run from its histogram files, or why there is none, as timelineOfRun gives it from samples.
 *
 * @example
 * const { timeline, missing } = timelineOfHistogramFiles(['segments/1-of-2/histograms.json'], thresholdsOf(summary));
 */
export function timelineOfHistogramFiles(
  paths: readonly string[],
  thresholds: readonly { readonly metric: string; readonly expression: string }[],
): { timeline: Timeline | undefined; missing: string | undefined } {
  const slos = [...new Set(thresholds.map((t) => t.metric))].map((key) => ({
    key,
    expressions: thresholds.filter((t) => t.metric === key).map((t) => t.expression),
  }));
  try {
    const files = paths.filter(existsSync).map((p) => JSON.parse(readFileSync(p, 'utf8')) as HistogramFile);
    const timeline = timelineOfHistograms(
      files.filter((f) => f.format === HISTOGRAM_FORMAT),
      slos,
    );
    return { timeline, missing: timeline ? undefined : 'the run wrote no histogram interval' };
  } catch (e) {
    return { timeline: undefined, missing: `its histograms could not be read (${(e as Error).message})` };
  }
}
