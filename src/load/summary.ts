/** One metric of k6's --summary-export JSON: trend stats, rate passes/fails, or counter count/rate. */
export interface K6Metric {
  readonly [stat: string]: number | Record<string, boolean> | undefined;
  readonly thresholds?: Record<string, boolean>;
}

export interface K6Summary {
  readonly metrics: Record<string, K6Metric>;
}

/** A threshold as the report shows it; k6 records `true` when the threshold FAILED. */
export interface ThresholdResult {
  readonly metric: string;
  readonly expression: string;
  readonly passed: boolean;
  readonly value: number | undefined;
}

const STAT_OF = /^(p\(\d+(?:\.\d+)?\)|avg|min|max|med|rate|count|value)/;

/** Every threshold of the run with the value it was judged on. */
export function thresholdsOf(summary: K6Summary): ThresholdResult[] {
  const out: ThresholdResult[] = [];
  for (const [metric, m] of Object.entries(summary.metrics)) {
    for (const [expression, failed] of Object.entries(m.thresholds ?? {})) {
      const stat = STAT_OF.exec(expression)?.[1];
      const key = stat === 'rate' && m.value !== undefined && m.rate === undefined ? 'value' : stat;
      const v = key ? m[key] : undefined;
      out.push({ metric, expression, passed: !failed, value: typeof v === 'number' ? v : undefined });
    }
  }
  return out;
}

/** A number from the summary, or undefined. */
export function stat(summary: K6Summary, metric: string, key: string): number | undefined {
  const v = summary.metrics[metric]?.[key];
  return typeof v === 'number' ? v : undefined;
}
