import { z } from 'zod';
import type { K6Metric, K6Summary } from '../core/summary.js';

/** One figure a nightly run is judged on: its value, its unit and which way is better. */
export const NightMetric = z.object({
  value: z.number(),
  unit: z.enum(['ms', 'ratio', 'per_s', 'count']),
  better: z.enum(['lower', 'higher']),
});
export type NightMetric = z.infer<typeof NightMetric>;

/** k6's per-request timing parts and bookkeeping: their sum is http_req_duration, judged instead. */
const PLUMBING =
  /^(http_req_(blocked|connecting|tls_handshaking|sending|waiting|receiving)|data_(sent|received)|vus|vus_max|ws_(connecting|msgs_sent|msgs_received))$|\{expected_response:true\}/;
/** A rate metric counts failures when its name says so (and no threshold says otherwise). */
const BAD_RATE = /fail|error|lost|drop|refused|repeat|skip|regress/;

const num = (m: K6Metric, k: string) => (typeof m[k] === 'number' ? (m[k] as number) : undefined);
const thresholdSays = (m: K6Metric, re: RegExp) => Object.keys(m.thresholds ?? {}).some((t) => re.test(t));

/**
 * The figures a regression verdict compares, from k6's summary export: median, p95 and p99 of every trend
 * (each operation's `http_req_duration{op:…}` and the scenario's own trends), every rate (error
 * rates, checks, the scenario's completion rates), and every counter's throughput, or its count when
 * a threshold bounds the count (events lost = 0). Which way is better comes from the metric's own
 * threshold when it has one (`rate<0.01` lower, `rate>0.99` higher), else from its kind and name.
 *
 * @example
 * metricsOf(summary)['http_req_duration{op:chat.respond} p95']; // { value: 1.8, unit: 'ms', better: 'lower' }
 */
export function metricsOf(summary: K6Summary): Record<string, NightMetric> {
  const out: Record<string, NightMetric> = {};
  for (const [name, m] of Object.entries(summary.metrics)) {
    if (PLUMBING.test(name)) continue;
    const med = num(m, 'med');
    const p95 = num(m, 'p(95)');
    const p99 = num(m, 'p(99)');
    if (p95 !== undefined || p99 !== undefined) {
      // Most trends are durations; a trend of a throughput (walk records per second) is better higher.
      const perSecond = /per_s/.test(name);
      const better = perSecond || thresholdSays(m, /^(p\(|avg|med|min).*>/) ? 'higher' : 'lower';
      const unit = perSecond ? 'per_s' : 'ms';
      // The median moves least from night to night: a slowdown of every request shows there first.
      if (med !== undefined) out[`${name} med`] = { value: med, unit, better };
      if (p95 !== undefined) out[`${name} p95`] = { value: p95, unit, better };
      if (p99 !== undefined) out[`${name} p99`] = { value: p99, unit, better };
    } else if (num(m, 'passes') !== undefined) {
      const better = thresholdSays(m, /^rate\s*>/) ? 'higher' : thresholdSays(m, /^rate\s*</) || BAD_RATE.test(name) ? 'lower' : 'higher';
      out[`${name} rate`] = { value: num(m, 'value') ?? num(m, 'rate') ?? 0, unit: 'ratio', better };
    } else if (num(m, 'count') !== undefined) {
      if (thresholdSays(m, /^count\s*(==|<)/) || BAD_RATE.test(name)) out[`${name} count`] = { value: num(m, 'count') ?? 0, unit: 'count', better: 'lower' };
      else out[`${name} per_s`] = { value: num(m, 'rate') ?? 0, unit: 'per_s', better: 'higher' };
    }
  }
  return out;
}
