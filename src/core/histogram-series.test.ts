import { describe, expect, it } from 'vitest';
import { addTo, belongsTo, emptyAcc, HistogramRecorder, intervalKeysOf, loadAcc, MAX_INTERVALS, storeAcc } from './histogram-series.js';
import { quantile } from './log-histogram.js';

/** A run of `seconds` at `perSecond` samples, every sample's latency from a seeded spread, recorded and written out. */
function fileOf(seconds: number, perSecond: number, cap = MAX_INTERVALS) {
  const rec = new HistogramRecorder(cap);
  let x = 7;
  for (let s = 0; s < seconds; s++)
    for (let i = 0; i < perSecond; i++) {
      x = (x * 48271) % 2147483647;
      rec.add('trend', 1_000_000 + s * 1000 + i, 5 + (x % 5000) / 10, ['http_req_duration'], ['http_req_duration{op:a}']);
    }
  return rec.toFile();
}

describe('histogram series', () => {
  it('keeps at most its cap of intervals, doubling the interval, so a run ten times longer writes a file about as large', () => {
    const short = fileOf(60, 50, 64);
    const long = fileOf(600, 50, 64);
    expect(short.interval_s).toBe(1);
    expect(short.intervals).toHaveLength(60);
    expect(long.interval_s).toBe(16);
    expect(long.intervals.length).toBeLessThanOrEqual(64);
    expect(JSON.stringify(long).length).toBeLessThan(2 * JSON.stringify(short).length);
    // Nothing is lost when intervals are joined: every sample is still counted once.
    expect(long.intervals.reduce((n, iv) => n + (iv.metrics['http_req_duration{op:a}']?.count ?? 0), 0)).toBe(600 * 50);
    expect(long.metrics.http_req_duration?.count).toBe(600 * 50);
  });

  it('writes a file whose size does not grow with the number of samples', () => {
    expect(JSON.stringify(fileOf(30, 500)).length).toBeLessThan(1.5 * JSON.stringify(fileOf(30, 50)).length);
  });

  it('reads back what it stored: counts, range and every quantile', () => {
    const a = emptyAcc('trend');
    for (const v of [0, 3, 12.5, 12.6, 700, 701]) addTo(a, v);
    const back = loadAcc(JSON.parse(JSON.stringify(storeAcc(a))));
    expect({ count: back.count, sum: back.sum, nonZero: back.nonZero, min: back.min, max: back.max }).toEqual({
      count: 6,
      sum: a.sum,
      nonZero: 5,
      min: 0,
      max: 701,
    });
    for (const p of [0, 0.2, 0.5, 0.9, 1]) expect(quantile(back.hist as never, p)).toBe(quantile(a.hist as never, p));
  });

  it('files a sample under the keys the run over time draws and under each sub-metric whose tags it carries', () => {
    expect(intervalKeysOf('http_req_duration', { op: 'chat.respond' }, [])).toEqual(['http_req_duration{op:chat.respond}']);
    expect(intervalKeysOf('checks', {}, ['checks'])).toEqual(['checks']);
    expect(intervalKeysOf('data_received', {}, [])).toEqual([]);
    expect(belongsTo('http_req_duration{op:"chat.respond"}', 'http_req_duration', { op: 'chat.respond', status: '200' })).toBe(true);
    expect(belongsTo('http_req_duration{op:chat.respond}', 'http_req_duration', { op: 'chat.list' })).toBe(false);
    expect(belongsTo('http_req_duration_x', 'http_req_duration', {})).toBe(false);
  });
});
