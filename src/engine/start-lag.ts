// Beyond k6: how late each arrival-rate iteration started against the time its schedule gave it. An open model is
// only open if the generator keeps its schedule; when it cannot (a busy event loop, a core saturated, VUs made
// mid-test), the iterations start late and the load the target saw was less than asked, which the target's latencies
// alone never show (coordinated omission). The metric is the built-in engine's own: k6 has no such metric, so k6 would
// refuse a threshold on it.
import type { MetricDecl } from '../core/metrics.js';

export const START_LAG: MetricDecl = { name: 'iteration_start_lag', type: 'trend', contains: 'time' };

/**
 * The lag of an iteration that starts now and was due `dueMs` after the run's start `t0` (both epoch ms); never below 0.
 *
 * @example
 * startLag(1_000, 250, 1_262); // 12
 */
export const startLag = (t0: number, dueMs: number, now = Date.now()) => Math.max(0, now - (t0 + dueMs));
