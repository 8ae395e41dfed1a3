import type { K6Summary } from '../core/summary.js';
import type { SloEntry } from './config.js';

/** A threshold as the report shows it; k6 records `true` when the threshold FAILED. */
export interface ThresholdResult {
  readonly metric: string;
  readonly expression: string;
  readonly passed: boolean;
  readonly value: number | undefined;
  /** Where the SLO came from: the scenario's defaults or the target profile's `slos`; absent where unknown (a merge). */
  readonly source?: SloEntry['source'];
}

const STAT_OF = /^(p\(\d+(?:\.\d+)?\)|avg|min|max|med|rate|count|value)/;

/** Every threshold of the run with the value it was judged on, and with its source when the run's SLOs are given. */
export function thresholdsOf(summary: K6Summary, slos?: readonly SloEntry[]): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  for (const [metric, m] of Object.entries(summary.metrics)) {
    for (const [expression, failed] of Object.entries(m.thresholds ?? {})) {
      const stat = STAT_OF.exec(expression)?.[1];
      const key = stat === 'rate' && m.value !== undefined && m.rate === undefined ? 'value' : stat;
      const v = key ? m[key] : undefined;
      const source = slos?.find((e) => e.key === metric)?.source;
      out.push({ metric, expression, passed: !failed, value: typeof v === 'number' ? v : undefined, ...(source ? { source } : {}) });
    }
  }
  return out;
}

/**
 * A line per failed threshold for the terminal, naming the SLO and where it came from.
 *
 * @example
 * failLines(result.thresholds); // ['FAIL http_req_duration{op:chat.respond} p(95)<500 (value 1209.31; the default SLO)']
 */
export function failLines(thresholds: readonly ThresholdResult[]): string[] {
  const value = (v: number | undefined) => (v === undefined ? 'n/a' : Number.isInteger(v) ? String(v) : v.toFixed(2));
  const source = (t: ThresholdResult) => (t.source === 'profile' ? "; the profile's SLO" : t.source === 'default' ? '; the default SLO' : '');
  return thresholds.filter((t) => !t.passed).map((t) => `FAIL ${t.metric} ${t.expression} (value ${value(t.value)}${source(t)})`);
}
