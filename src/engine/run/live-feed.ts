// The live dashboard's feed. The dashboard is served by the dialtone process that started the engine, not by the
// engine: a capacity search runs one engine process per step and the page must outlive each, and the page draws with
// dialtone's report plots (src/report), which the engine does not import. So the engine only folds its samples per
// 1 s interval, as `--out histograms` does, and once a period sends what the period added over the IPC channel it
// already holds: per sample one histogram add, per period one message, nothing more on the hot path.
import { HistogramRecorder } from '../../core/histogram-series.js';
import { LIVE_FEED_ENV, type LiveAsked, type LiveFeedMessage } from '../../core/live-feed.js';
import { sampleKeys } from '../metrics/histogram-output.js';
import type { ScenarioPlan, Stage } from '../options.js';
import type { RunContext } from './context.js';
import type { LiveCounts } from './live.js';
import type { RunPlan } from './plan.js';

/** A period's recorder: never coarsened, as a period is a few seconds. */
const periodRecorder = () => new HistogramRecorder(Number.MAX_SAFE_INTEGER, 1);

/** Where a ramp of stages stands `ms` into it, from `start`. */
function rampAt(start: number, stages: readonly Stage[], ms: number): number {
  let from = start;
  let at = ms;
  for (const s of stages) {
    if (at < s.durationMs) return from + ((s.target - from) * at) / Math.max(1, s.durationMs);
    at -= s.durationMs;
    from = s.target;
  }
  return from;
}

/** What each scenario's schedule asks for `ms` into the run. */
export function askedAt(plans: readonly ScenarioPlan[], ms: number): LiveAsked[] {
  return plans.map((p) => {
    const into = Math.max(0, ms - p.startTimeMs);
    const perS = (n: number) => (n * 1000) / Math.max(1, p.timeUnitMs);
    if (p.executor === 'constant-arrival-rate') return { scenario: p.name, executor: p.executor, rate_per_s: perS(p.rate) };
    if (p.executor === 'ramping-arrival-rate') return { scenario: p.name, executor: p.executor, rate_per_s: perS(rampAt(p.startRate, p.stages, into)) };
    if (p.executor === 'ramping-vus') return { scenario: p.name, executor: p.executor, vus: Math.round(rampAt(p.startVUs, p.stages, into)) };
    return { scenario: p.name, executor: p.executor, vus: p.vus };
  });
}

/**
 * Starts the feed when the starting process asked for it (LIVE_FEED_ENV, the period in ms) and holds an IPC channel;
 * returns what sends the last message and stops it.
 *
 * @example
 * const endFeed = openLiveFeed(run, plan, live); … ; endFeed();
 */
export function openLiveFeed(run: RunContext, plan: RunPlan, live: LiveCounts, send = run.io.send): () => void {
  const periodMs = Number(run.io.env[LIVE_FEED_ENV]);
  if (!send || !Number.isFinite(periodMs) || periodMs <= 0) return () => {};
  const { store } = plan;
  const keysOf = sampleKeys(store);
  let rec = periodRecorder();
  const off = store.onSample((metric, tagSetId, t, value) => {
    const k = keysOf(metric, tagSetId);
    // Most of a request's samples (blocked, connecting, sending, …) are drawn by no plot: they cost one lookup.
    if (k.interval.length === 0) return;
    rec.add(store.typeOf(metric) ?? 'trend', t, value, [], k.interval);
  });
  const flush = (ended: boolean) => {
    const period = rec.toFile();
    rec = periodRecorder();
    const elapsed = live.running || ended ? store.elapsedMs() : 0;
    const message: LiveFeedMessage = {
      t: 'dialtone-live',
      at: Date.now(),
      elapsed_s: elapsed / 1000,
      period,
      thresholds: store.judge({ during: !ended }).map((v) => ({ key: v.key, source: v.threshold.source, ok: v.ok, value: v.value ?? null })),
      asked: askedAt(plan.plans, elapsed),
      vus: live.vus,
      vus_max: live.vusMax,
      ended,
    };
    try {
      send(message);
    } catch {
      // The dashboard's process is gone: the run goes on without it.
    }
  };
  const timer = setInterval(() => flush(false), periodMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    off();
    flush(true);
  };
}
