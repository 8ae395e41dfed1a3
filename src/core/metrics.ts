// k6's metric types and the metrics the engine itself emits (/using-k6/metrics/reference/), written from k6's
// documentation. What each k6 module emits is in its description (src/engine/modules/NAME/description.ts). Imports
// nothing.

/** k6's four metric types (/using-k6/metrics/). */
export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';
/** What a metric's values are: plain numbers, milliseconds, or bytes. */
export type MetricContains = 'default' | 'time' | 'data';

/** Declares a metric; declaring one twice with the same type is harmless, with another type an error. */
export interface MetricDecl {
  readonly name: string;
  readonly type: MetricType;
  readonly contains: MetricContains;
}

/** Trends of milliseconds, by name. */
export const trends = (names: readonly string[]): MetricDecl[] => names.map((name) => ({ name, type: 'trend', contains: 'time' }));

/** The metrics the engine itself emits, declared in every sink before any VU runs. */
export const CORE_METRICS: readonly MetricDecl[] = [
  { name: 'iterations', type: 'counter', contains: 'default' },
  { name: 'iteration_duration', type: 'trend', contains: 'time' },
  { name: 'dropped_iterations', type: 'counter', contains: 'default' },
  { name: 'vus', type: 'gauge', contains: 'default' },
  { name: 'vus_max', type: 'gauge', contains: 'default' },
  { name: 'checks', type: 'rate', contains: 'default' },
  { name: 'data_sent', type: 'counter', contains: 'data' },
  { name: 'data_received', type: 'counter', contains: 'data' },
];
