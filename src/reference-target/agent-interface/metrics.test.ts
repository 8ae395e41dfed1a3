import { describe, expect, it } from 'vitest';
import { MetricsRecorder, metricValue, percentile, type Sample } from './metrics.js';

const now = 1_000_000_000;
const min = 60_000;
const api = (at: number, error: boolean, accountId = 'A'): Sample => ({ at, kind: 'api', accountId, projectIds: [], error });
const turn = (at: number, latencyMs: number, projectIds: string[] = ['P']): Sample => ({ at, kind: 'turn', accountId: 'A', projectIds, latencyMs });

describe('percentile (nearest rank)', () => {
  it('takes the value at rank ceil(p * n)', () => {
    expect(percentile([400, 100, 300, 200], 50)).toBe(200);
    expect(percentile([400, 100, 300, 200], 95)).toBe(400);
    expect(percentile([7], 95)).toBe(7);
  });

  it('has no value for no samples', () => {
    expect(percentile([], 50)).toBeUndefined();
  });
});

describe('metricValue', () => {
  it('counts api errors in the window as an absolute count, not a rate', () => {
    const samples = [api(now - 1000, true), api(now - 2000, true), api(now - 3000, false), api(now - 6 * min, true)];
    expect(metricValue(samples, { accountId: 'A' }, 'api_errors', 5 * min, now)).toBe(2);
    expect(metricValue(samples, { accountId: 'A' }, 'api_errors', 10 * min, now)).toBe(3);
  });

  it('reports zero, not no data, when there was traffic but no error', () => {
    expect(metricValue([api(now - 1000, false)], { accountId: 'A' }, 'api_errors', 5 * min, now)).toBe(0);
  });

  it('reports no data when the window holds no sample of the metric kind', () => {
    expect(metricValue([api(now - 1000, true)], { accountId: 'A' }, 'call_volume', 5 * min, now)).toBeNull();
    expect(metricValue([api(now - 6 * min, true)], { accountId: 'A' }, 'api_errors', 5 * min, now)).toBeNull();
  });

  it('keeps accounts apart', () => {
    expect(metricValue([api(now - 1000, true, 'B')], { accountId: 'A' }, 'api_errors', 5 * min, now)).toBeNull();
  });

  it('computes latency percentiles in milliseconds and scopes them to a project', () => {
    const samples = [turn(now - 10, 120), turn(now - 20, 180), turn(now - 30, 240), turn(now - 40, 900), turn(now - 50, 5000, ['Q'])];
    expect(metricValue(samples, { accountId: 'A', projectId: 'P' }, 'turn_latency_p50', 5 * min, now)).toBe(180);
    expect(metricValue(samples, { accountId: 'A', projectId: 'P' }, 'turn_latency_p95', 5 * min, now)).toBe(900);
    expect(metricValue(samples, { accountId: 'A' }, 'turn_latency_p95', 5 * min, now)).toBe(5000);
  });
});

describe('MetricsRecorder', () => {
  it('prefers a value set for the scope and clears it again', () => {
    const m = new MetricsRecorder();
    m.record(api(now - 1000, true));
    m.override({ accountId: 'A' }, 'api_errors', 42);
    expect(m.value({ accountId: 'A' }, 'api_errors', 5 * min, now)).toBe(42);
    m.override({ accountId: 'A' }, 'api_errors', null);
    expect(m.value({ accountId: 'A' }, 'api_errors', 5 * min, now)).toBeNull();
    m.override({ accountId: 'A' }, 'api_errors', undefined);
    expect(m.value({ accountId: 'A' }, 'api_errors', 5 * min, now)).toBe(1);
  });

  it('reads turns from an external source such as the conversation store', () => {
    const m = new MetricsRecorder(() => [turn(now - 5, 33)]);
    expect(m.value({ accountId: 'A' }, 'turn_latency_p50', 5 * min, now)).toBe(33);
  });
});
