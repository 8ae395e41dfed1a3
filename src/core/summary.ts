// The shape of k6's end-of-test summary (--summary-export JSON), once: the built-in engine writes it, k6 writes it, and
// the load run, the merge, the nightly verdict and the capacity search read it.

/** One metric of k6's --summary-export JSON: trend stats, rate passes/fails, or counter count/rate. */
export interface K6Metric {
  readonly [stat: string]: number | Record<string, boolean> | undefined;
  readonly thresholds?: Record<string, boolean>;
}

/** k6's --summary-export JSON: every metric by its name (a sub-metric by `name{tag:value}`). */
export interface K6Summary {
  readonly metrics: Record<string, K6Metric>;
}

/**
 * A number from the summary, or undefined.
 *
 * @example
 * stat({ metrics: { http_reqs: { count: 12 } } }, 'http_reqs', 'count'); // 12
 */
export function stat(summary: K6Summary, metric: string, key: string): number | undefined {
  const v = summary.metrics[metric]?.[key];
  return typeof v === 'number' ? v : undefined;
}
