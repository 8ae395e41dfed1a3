// `k6/metrics` (/javascript-api/k6-metrics/): Counter, Gauge, Rate, Trend. Each `add` is one sample with the VU's tags
// and the call's.
import type { MetricContains, MetricType } from '../../../core/metrics.js';
import type { Tags, VuHost } from '../../types.js';

const NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/;

/** The `k6/metrics` module for one VU. */
export function metricsModule(vu: VuHost) {
  const make = (type: MetricType) =>
    class {
      readonly name: string;
      constructor(name: string, isTime = false) {
        // k6 docs: metric names must only include ASCII letters, numbers, or underscores and start with a letter or underscore (at most 128).
        if (typeof name !== 'string' || !NAME.test(name))
          throw new Error(`invalid metric name '${String(name)}': ASCII letters, digits and underscores, starting with a letter or underscore, at most 128`);
        this.name = name;
        const contains: MetricContains = isTime === true && type === 'trend' ? 'time' : 'default';
        vu.sink.declare({ name, type, contains });
      }
      /** One sample; true once it is added, as k6's `add` returns, and false for a value left out (not a number). */
      add(value: number | boolean, tags?: Record<string, string>): boolean {
        const v = typeof value === 'boolean' ? (value ? 1 : 0) : Number(value);
        if (Number.isNaN(v)) {
          vu.warn(`${this.name}: a sample that is not a number was left out`);
          return false;
        }
        const base = vu.tags();
        const t: Tags = tags ? { ...base, ...stringTags(tags) } : base;
        vu.sink.emit(this.name, v, t);
        return true;
      }
    };
  return { Counter: make('counter'), Gauge: make('gauge'), Rate: make('rate'), Trend: make('trend') };
}

const stringTags = (t: Record<string, unknown>) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, String(v)]));
