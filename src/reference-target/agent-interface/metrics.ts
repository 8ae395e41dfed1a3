import type { AlertMetric } from '../../contract/alerts/shapes.js';

/** What the monitoring side sees of the target's traffic. */
export type SampleKind = 'api' | 'turn' | 'function' | 'call';

/** One observation: an API request, a conversation turn, a function call or a call. */
export interface Sample {
  readonly at: number;
  readonly kind: SampleKind;
  readonly accountId: string;
  /** Every id the sample's project is known by (slug and prefixed form); empty when account-wide. */
  readonly projectIds: readonly string[];
  /** api and function samples: whether it failed. */
  readonly error?: boolean;
  /** turn samples: user message to agent response, in milliseconds. */
  readonly latencyMs?: number;
  /** call samples: whether the call crashed. */
  readonly crashed?: boolean;
}

/**
 * The nearest-rank percentile of `values` (p in 0..100), or undefined for none.
 *
 * @example
 * percentile([100, 200, 300, 400], 50); // 200
 * percentile([100, 200, 300, 400], 95); // 400
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

const latency = (p: number) => (s: readonly Sample[]) =>
  percentile(
    s.map((x) => x.latencyMs ?? 0),
    p,
  ) ?? 0;
const countOf = (pred: (s: Sample) => boolean) => (s: readonly Sample[]) => s.filter(pred).length;

/**
 * Which samples feed each metric and how a window of them becomes its value: latencies in
 * milliseconds, the rest absolute counts in the window (not rates). A window without samples of
 * the metric's kind has no data.
 */
export const METRIC_SOURCES: Record<AlertMetric, { readonly kind: SampleKind; readonly value: (window: readonly Sample[]) => number }> = {
  turn_latency_p50: { kind: 'turn', value: latency(50) },
  turn_latency_p95: { kind: 'turn', value: latency(95) },
  api_errors: { kind: 'api', value: countOf((s) => s.error === true) },
  function_errors: { kind: 'function', value: countOf((s) => s.error === true) },
  call_crashes: { kind: 'call', value: countOf((s) => s.crashed === true) },
  call_volume: { kind: 'call', value: (s) => s.length },
};

/** The scope of one metric question: an account, optionally one project. */
export interface MetricScope {
  readonly accountId: string;
  readonly projectId?: string | undefined;
}

/**
 * The value of `metric` over the samples in the window `(now - windowMs, now]`, or null when the
 * window holds no data for it.
 *
 * @example
 * metricValue(samples, { accountId: 'A' }, 'api_errors', 5 * 60_000, now); // 10, or null with no API traffic
 */
export function metricValue(samples: Iterable<Sample>, scope: MetricScope, metric: AlertMetric, windowMs: number, now: number): number | null {
  const source = METRIC_SOURCES[metric];
  const inWindow: Sample[] = [];
  for (const s of samples) {
    if (s.kind !== source.kind || s.accountId !== scope.accountId) continue;
    if (scope.projectId !== undefined && !s.projectIds.includes(scope.projectId)) continue;
    if (s.at <= now - windowMs || s.at > now) continue;
    inWindow.push(s);
  }
  return inWindow.length === 0 ? null : source.value(inWindow);
}

/** Samples are kept this long past the widest window (60m), then dropped. */
const RETENTION_MS = 2 * 60 * 60_000;

/**
 * The target's own traffic as the monitoring backend sees it, plus values the control surface sets
 * (as if the backend had reported them). Turns come from the shared conversation store through
 * `externalSamples`, so chat traffic feeds the latency metrics without the chat routes knowing.
 */
export class MetricsRecorder {
  readonly #samples: Sample[] = [];
  readonly #overrides = new Map<string, number | null>();

  constructor(private readonly externalSamples: () => Iterable<Sample> = () => []) {}

  record(sample: Sample): void {
    this.#samples.push(sample);
    const cutoff = sample.at - RETENTION_MS;
    while (this.#samples.length > 0 && (this.#samples[0]?.at ?? 0) < cutoff) this.#samples.shift();
  }

  /** Sets (or with undefined clears) the value the backend reports for a metric; null reports "no data". */
  override(scope: MetricScope, metric: AlertMetric, value: number | null | undefined): void {
    const key = overrideKey(scope, metric);
    if (value === undefined) this.#overrides.delete(key);
    else this.#overrides.set(key, value);
  }

  /** The metric's value now: a set value when there is one, else computed from the traffic in the window. */
  value(scope: MetricScope, metric: AlertMetric, windowMs: number, now: number): number | null {
    const key = overrideKey(scope, metric);
    if (this.#overrides.has(key)) return this.#overrides.get(key) ?? null;
    return metricValue(this.#all(), scope, metric, windowMs, now);
  }

  *#all(): Iterable<Sample> {
    yield* this.#samples;
    yield* this.externalSamples();
  }
}

const overrideKey = (scope: MetricScope, metric: AlertMetric) => `${scope.accountId}|${scope.projectId ?? ''}|${metric}`;
