import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { keepsSamples, readTimeline, timelineOfRun, timelineSamples } from './timeline-file.js';

const dir = mkdtempSync(join(tmpdir(), 'dialtone-timeline-'));

/** k6's JSON output: a Metric line the first time a metric is seen, then a Point line per sample. */
function ndjson(vus: number, seconds: number): string {
  const lines = [
    '{"type":"Metric","data":{"name":"vus","type":"gauge","contains":"default","tainted":null,"thresholds":[],"submetrics":null},"metric":"vus"}',
    '{"type":"Metric","data":{"name":"http_req_duration","type":"trend","contains":"time","tainted":null,"thresholds":[],"submetrics":null},"metric":"http_req_duration"}',
    '{"type":"Metric","data":{"name":"http_req_waiting","type":"trend","contains":"time","tainted":null,"thresholds":[],"submetrics":null},"metric":"http_req_waiting"}',
    '{"type":"Metric","data":{"name":"checks","type":"rate","contains":"default","tainted":null,"thresholds":["rate>0.99"],"submetrics":null},"metric":"checks"}',
  ];
  for (let s = 0; s < seconds; s++) {
    const time = `2026-11-27T16:00:0${s}.250Z`;
    lines.push(`{"type":"Point","data":{"time":"${time}","value":${vus},"tags":{}},"metric":"vus"}`);
    lines.push(`{"type":"Point","data":{"time":"${time}","value":${700 + s},"tags":{"op":"chat.respond","status":"200"}},"metric":"http_req_duration"}`);
    lines.push(`{"type":"Point","data":{"time":"${time}","value":1,"tags":{"op":"chat.respond"}},"metric":"http_req_waiting"}`);
    lines.push(`{"type":"Point","data":{"time":"${time}","value":${s === 1 ? 0 : 1},"tags":{"check":"ok"}},"metric":"checks"}`);
  }
  return `${lines.join('\n')}\n`;
}

describe("a run's samples read into its timeline", () => {
  it('reads gzipped and plain JSON output, each file a process whose VUs add to the others', async () => {
    writeFileSync(join(dir, 'a.json.gz'), gzipSync(ndjson(3, 3)));
    writeFileSync(join(dir, 'b.json'), ndjson(4, 3));
    const tl = await readTimeline([join(dir, 'a.json.gz'), join(dir, 'b.json'), join(dir, 'missing.json')], [{ key: 'checks', expressions: ['rate>0.99'] }]);
    expect(tl?.points.map((p) => p.vus)).toEqual([7, 7, 7]);
    expect(tl?.points.map((p) => p.rates.checks)).toEqual([1, 0, 1]);
    expect(tl?.points[2]?.trends['http_req_duration{op:chat.respond}']?.count).toBe(2);
    expect(Object.keys(tl?.points[0]?.trends ?? {})).toEqual(['http_req_duration{op:chat.respond}']);
  });

  it('reads lines whose metric name is not the last key, as another writer may order them', async () => {
    const lines = [
      '{"metric":"vus","type":"Metric","data":{"name":"vus","type":"gauge","contains":"default"}}',
      '{"metric":"vus","type":"Point","data":{"time":"2017-05-09T14:34:45.625742514+02:00","value":5,"tags":null}}',
    ];
    writeFileSync(join(dir, 'reordered.json'), `${lines.join('\n')}\n`);
    const tl = await readTimeline([join(dir, 'reordered.json')], []);
    expect(tl?.points.map((p) => p.vus)).toEqual([5]);
    expect(tl?.started_at).toBe('2017-05-09T12:34:45.000Z');
  });

  it('keeps a segment’s raw samples, else asks the engine for its JSON output when the run does not push the limit', () => {
    expect(timelineSamples({ wanted: false, work: '/w', segmentRaw: '/d/raw.json.gz' })).toEqual({ args: [], files: ['/d/raw.json.gz'], missing: undefined });
    expect(timelineSamples({ wanted: true, work: '/w' })).toEqual({
      args: ['--out', 'json=/w/samples.json.gz'],
      files: ['/w/samples.json.gz'],
      missing: undefined,
    });
    expect(timelineSamples({ wanted: false, work: '/w' }).missing).toMatch(/or lasts longer than 15 minutes keeps its samples only with --dashboard/);
  });

  it('keeps the samples of smoke and nightly runs, and of a run at the limit or a long one only with --dashboard', () => {
    expect(keepsSamples({ dashboard: undefined, atLimit: false, seconds: 300 })).toBe(true);
    expect(keepsSamples({ dashboard: undefined, atLimit: true, seconds: 60 })).toBe(false);
    expect(keepsSamples({ dashboard: undefined, atLimit: false, seconds: 3600 })).toBe(false);
    expect(keepsSamples({ dashboard: true, atLimit: true, seconds: 3600 })).toBe(true);
  });

  it('says why there is no timeline when the samples cannot be read, and the report stands', async () => {
    writeFileSync(join(dir, 'cut.json.gz'), gzipSync(ndjson(1, 2)).subarray(0, 40));
    const r = await timelineOfRun({ args: [], files: [join(dir, 'cut.json.gz')], missing: undefined }, []);
    expect(r.timeline).toBeUndefined();
    expect(r.missing).toMatch(/^its samples could not be read \(/);
  });
});
