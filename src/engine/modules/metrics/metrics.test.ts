// k6/metrics against k6's documentation (/javascript-api/k6-metrics/) and, where it is silent, k6's behaviour.
import { describe, expect, it } from 'vitest';
import { testVu } from '../test-vu.js';
import { metricsModule } from './metrics.js';

describe('k6/metrics', () => {
  // Counter.add(value, [tags]): "Add a value to the Counter metric" (likewise Gauge, Rate, Trend). The docs give no
  // return value; k6's add returns true once the sample is pushed (js/modules/k6/metrics), and scripts test it.
  it('returns true from add() on every metric type, once the sample is added', () => {
    const vu = testVu();
    const m = metricsModule(vu);
    const made = [new m.Counter('c'), new m.Gauge('g'), new m.Rate('r'), new m.Trend('t', true)];
    expect(made.map((x) => x.add(1, { k: 'v' }))).toEqual([true, true, true, true]);
    expect(new m.Rate('r2').add(false)).toBe(true);
    expect(vu.sink.samples.map((s) => s.metric)).toEqual(['c', 'g', 'r', 't', 'r2']);
  });

  it('returns false for a value that is not a number, which it leaves out with a warning', () => {
    const vu = testVu();
    const c = new (metricsModule(vu).Counter)('c');
    expect(c.add(Number.NaN)).toBe(false);
    expect(vu.sink.samples).toEqual([]);
    expect(vu.warnings).toHaveLength(1);
  });
});
