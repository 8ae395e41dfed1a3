// The bookkeeping of the engine's network outputs (src/engine/metrics/outputs/delivery.ts) and how a `dialtone load`
// run's headline reads the engine's end line for an output that dropped samples.
import { describe, expect, it } from 'vitest';
import { Delivery, droppedLine, safeUrl } from '../src/engine/metrics/outputs/delivery.js';
import { logLine } from '../src/engine/run/log.js';
import { outputsDropped } from '../src/load/run-load.js';

describe('a network output’s delivery record', () => {
  it('counts samples sent and dropped, logs each distinct error once, and never throws', async () => {
    const logged: string[] = [];
    const d = new Delivery('influxdb', 'http://db:8086/write', (_level, m) => logged.push(m));
    await d.send(10, async () => {});
    await d.send(4, () => Promise.reject(new Error('HTTP 401')));
    await d.send(6, () => Promise.reject(new Error('HTTP 401')));
    await d.send(2, () => Promise.reject(new Error('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })));
    await d.drain();
    expect(d.report()).toEqual({ output: 'influxdb', where: 'http://db:8086/write', sent: 10, dropped: 12, lastError: 'fetch failed: ECONNREFUSED' });
    expect(logged).toHaveLength(2);
    expect(droppedLine(d.report())).toBe('output influxdb (http://db:8086/write) dropped 12 of 22 samples; last error: fetch failed: ECONNREFUSED');
    expect(droppedLine({ ...d.report(), dropped: 0 })).toBeUndefined();
  });

  it('shows a URL without its credentials or query', () => {
    expect(safeUrl('https://user:s3cret@prom.example.com/api/v1/write?token=abc')).toBe('https://prom.example.com/api/v1/write');
  });

  it('puts the engine’s end line into the load run’s headline, and nothing else the engine wrote', () => {
    const line = 'output experimental-prometheus-rw (http://127.0.0.1:9090/api/v1/write) dropped 5 of 9 samples; last error: HTTP 500';
    const first = logLine(1000, 'error', 'output experimental-prometheus-rw (x): 4 sample(s) dropped: HTTP 500; the run goes on');
    const stderr = `${first}${logLine(12_000, 'error', line)}`;
    expect(outputsDropped(stderr)).toEqual([line]);
  });
});
