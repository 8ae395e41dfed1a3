import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { runOnEngine } from '../../tests/engine-segment.js';
import { ROOT } from '../cli/root.js';
import { percentile } from '../core/percentile.js';
import type { K6Summary } from '../core/summary.js';
import { resolveEngine } from './engine.js';
import { HISTOGRAMS_FILE, RAW_FILE, segmentArgs } from './extras.js';
import { mergeSegments, readSegment } from './merge.js';
import { histogramsOfRaw } from './raw-histograms.js';

// A tiny real script: one trend with an op-tagged submetric, a counter and a rate, under an arrival-rate executor that
// the engine (the user's k6 when installed, else the built-in one, in this process) splits across execution segments.
const SCRIPT = `
import { Counter, Rate, Trend } from 'k6/metrics';
const t = new Trend('merge_latency', true);
const c = new Counter('merge_things');
const r = new Rate('merge_ok');
export const options = {
  scenarios: { s: { executor: 'constant-arrival-rate', rate: 60, timeUnit: '1s', duration: '2s', preAllocatedVUs: 4 } },
  thresholds: { 'merge_latency{op:a}': ['p(95)<1000'], merge_ok: ['rate>0.99'] },
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'],
};
export default function () {
  t.add(Math.random() ** 3 * 900, { op: Math.random() < 0.5 ? 'a' : 'b' });
  c.add(3);
  r.add(Math.random() < 0.5);
}`;

let dirs: string[] = [];

/** Reads a segment's raw JSON output directly: every Point of one metric, optionally of one op. */
function rawValues(dir: string, metric: string, op?: string): number[] {
  return gunzipSync(readFileSync(join(dir, RAW_FILE)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.includes('"Point"'))
    .map((l) => JSON.parse(l) as { metric: string; data: { value: number; tags: Record<string, string> } })
    .filter((p) => p.metric === metric && (op === undefined || p.data.tags.op === op))
    .map((p) => p.data.value);
}

beforeAll(async () => {
  const engine = resolveEngine(ROOT, 'auto');
  const base = mkdtempSync(join(tmpdir(), 'dialtone-merge-'));
  writeFileSync(join(base, 'script.js'), SCRIPT);
  dirs = [1, 2].map((i) => join(base, `seg${i}`));
  await Promise.all(
    dirs.map(async (dir, i) => {
      const args = [
        '-q',
        '--no-color',
        '--summary-export',
        join(dir, 'summary.json'),
        ...segmentArgs({ index: i + 1, count: 2 }),
        '--out',
        `json=${join(dir, RAW_FILE)}`,
      ];
      mkdirSync(dir, { recursive: true });
      const run = await runOnEngine(engine, [...args, join(base, 'script.js')], dir);
      // merge_ok's threshold fails on purpose
      if (run.code !== 99) throw new Error(`the segment exited ${run.code}: ${run.stderr}`);
      writeFileSync(join(dir, 'result.json'), JSON.stringify({ scenario: 'merge-test', duration_ms: 2000, k6_exit_code: 99 }));
    }),
  );
}, 60_000);

describe('merging execution segments', () => {
  it('gives p95 and p99 equal to those of the concatenated raw samples, not an average of percentiles', async () => {
    const merged = await mergeSegments(dirs.map(readSegment));
    for (const [key, op] of [
      ['merge_latency', undefined],
      ['merge_latency{op:a}', 'a'],
    ] as const) {
      const all = dirs.flatMap((d) => rawValues(d, 'merge_latency', op)).sort((a, b) => a - b);
      expect(all.length).toBeGreaterThan(20); // a loaded machine may drop some of the 120 iterations
      expect(merged.metrics[key]?.['p(95)']).toBe(percentile(all, 0.95));
      expect(merged.metrics[key]?.['p(99)']).toBe(percentile(all, 0.99));
    }
  });

  it('computes percentiles exactly as k6 does: one segment merged alone equals its own k6 summary', async () => {
    const one = readSegment(dirs[0] as string);
    const merged = await mergeSegments([one]);
    for (const stat of ['p(95)', 'p(99)', 'med', 'min', 'max']) {
      expect(merged.metrics.merge_latency?.[stat]).toBeCloseTo(one.summary.metrics.merge_latency?.[stat] as number, 9);
    }
  });

  it('sums counts, passes and fails across segments, and judges thresholds again on the merged figures', async () => {
    const segs = dirs.map(readSegment);
    const merged = await mergeSegments(segs);
    const sum = (metric: string, stat: string) => segs.reduce((a, s) => a + ((s.summary as K6Summary).metrics[metric]?.[stat] as number), 0);
    expect(merged.metrics.merge_things?.count).toBe(sum('merge_things', 'count'));
    expect(merged.metrics.iterations?.count).toBe(sum('iterations', 'count'));
    expect(merged.metrics.merge_ok?.passes).toBe(sum('merge_ok', 'passes'));
    expect(merged.metrics.merge_ok?.fails).toBe(sum('merge_ok', 'fails'));
    expect(merged.metrics['merge_latency{op:a}']?.thresholds).toEqual({ 'p(95)<1000': false });
    expect(merged.metrics.merge_ok?.thresholds).toEqual({ 'rate>0.99': true });
  });

  it("merges segments from their histograms: every percentile within 1 % of k6's exact one, counts exact", async () => {
    const withHistograms = await Promise.all(
      dirs.map(async (d) => {
        const seg = readSegment(d);
        const h = await histogramsOfRaw(seg.raw as string, seg.summary);
        const file = join(d, '..', `${d.split('/').at(-1)}-${HISTOGRAMS_FILE}`);
        writeFileSync(file, JSON.stringify(h));
        return { ...seg, histograms: file };
      }),
    );
    // With both kept, the histograms are what merge reads unless the exact merge is asked.
    const merged = await mergeSegments(withHistograms);
    const exact = await mergeSegments(withHistograms, { exact: true });
    const histogramsOnly = await mergeSegments(withHistograms.map((s) => ({ ...s, raw: undefined })));
    expect(histogramsOnly).toEqual(merged);
    expect(merged.metrics.merge_latency?.['p(95)']).not.toBe(exact.metrics.merge_latency?.['p(95)']);
    for (const [key, op] of [
      ['merge_latency', undefined],
      ['merge_latency{op:a}', 'a'],
    ] as const) {
      const all = dirs.flatMap((d) => rawValues(d, 'merge_latency', op)).sort((a, b) => a - b);
      for (const [stat, p] of [
        ['p(95)', 0.95],
        ['p(99)', 0.99],
        ['med', 0.5],
      ] as const) {
        const exactly = percentile(all, p);
        expect(Math.abs((merged.metrics[key]?.[stat] as number) - exactly) / exactly, `${key} ${stat}`).toBeLessThanOrEqual(0.01);
      }
      expect(merged.metrics[key]?.max).toBe(all.at(-1));
    }
    for (const [metric, stat] of [
      ['merge_things', 'count'],
      ['merge_ok', 'passes'],
      ['merge_ok', 'fails'],
      ['iterations', 'count'],
    ] as const)
      expect(merged.metrics[metric]?.[stat]).toBe(exact.metrics[metric]?.[stat]);
    expect(merged.metrics['merge_latency{op:a}']?.thresholds).toEqual({ 'p(95)<1000': false });
    expect(merged.metrics.merge_ok?.thresholds).toEqual({ 'rate>0.99': true });
  });

  it("reads a segment's first-format histograms.json no more: its raw samples stand in, and without them one line says so", () => {
    const d = mkdtempSync(join(tmpdir(), 'dialtone-old-hist-'));
    for (const f of ['summary.json', 'result.json', RAW_FILE]) writeFileSync(join(d, f), readFileSync(join(dirs[0] as string, f)));
    writeFileSync(join(d, HISTOGRAMS_FILE), JSON.stringify({ relative_error: 0.01, metrics: {} }));
    expect(readSegment(d).histograms).toBeUndefined();
    rmSync(join(d, RAW_FILE));
    expect(() => readSegment(d)).toThrow(`merge: ${d}: its histograms.json is of an older dialtone and it kept no raw samples; run the segment again`);
  });

  it('refuses a directory without raw samples with one line that says how to make them', () => {
    expect(() => readSegment(tmpdir())).toThrow(/^merge: .*: no summary\.json \(give the report directory of a segment run/);
  });
});
