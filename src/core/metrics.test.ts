import { describe, expect, it } from 'vitest';
import { BUILTIN_METRICS, CORE_METRICS, HTTP_METRICS, HTTP_PHASES } from './metrics.js';

describe("k6's built-in metrics", () => {
  it('lists every built-in metric once, though several modules emit data_sent and data_received', () => {
    const names = BUILTIN_METRICS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n === 'data_sent')).toHaveLength(1);
  });

  it('declares the engine, HTTP and timing metrics with their k6 types', () => {
    const byName = new Map(BUILTIN_METRICS.map((m) => [m.name, m]));
    expect(byName.get('http_req_duration')).toEqual({ name: 'http_req_duration', type: 'trend', contains: 'time' });
    expect(byName.get('http_req_failed')?.type).toBe('rate');
    expect(byName.get('vus')?.type).toBe('gauge');
    expect(byName.get('iterations')?.type).toBe('counter');
    for (const phase of HTTP_PHASES) expect(HTTP_METRICS.find((m) => m.name === phase)?.contains).toBe('time');
    for (const m of CORE_METRICS) expect(byName.get(m.name)).toEqual(m);
  });
});
