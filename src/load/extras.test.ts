import { describe, expect, it } from 'vitest';
import { exitWithVerdict, loadExtrasOf, REGRESSION_EXIT } from '../cli/commands/load-extras.js';
import { k6ExtraArgs, parseBaselineTag, parseOut, parseSegment, segmentArgs } from './extras.js';

describe('load extras', () => {
  it('pass k6 outputs through as --out, and refuse an output k6 v2 does not have with one line', () => {
    expect(k6ExtraArgs({ outs: ['json=a.json', 'experimental-prometheus-rw'] }, 'k6', '/r', '/r/.work')).toEqual([
      '--out',
      'json=a.json',
      '--out',
      'experimental-prometheus-rw',
    ]);
    // The built-in engine writes its bounded histograms beside the summary on every run.
    expect(k6ExtraArgs({ outs: ['json=a.json'] }, 'builtin', '/r', '/r/.work')).toEqual(['--out', 'json=a.json', '--out', 'histograms=/r/histograms.json']);
    expect(() => parseOut('statsd')).toThrow(
      "load: --out 'statsd': unknown k6 output 'statsd'; known: json, csv, experimental-prometheus-rw, influxdb, " +
        'opentelemetry, experimental-opentelemetry, cloud',
    );
  });

  it("turn --segment 2/3 into k6's execution segment, its sequence and its histograms, the raw samples kept only when asked", () => {
    expect(segmentArgs({ index: 1, count: 1 })).toEqual(['--execution-segment', '0:1', '--execution-segment-sequence', '0,1']);
    const flags = ['--execution-segment', '1/3:2/3', '--execution-segment-sequence', '0,1/3,2/3,1'];
    const segment = parseSegment('2/3');
    expect(k6ExtraArgs({ segment }, 'builtin', '/r', '/r/.work')).toEqual([...flags, '--out', 'histograms=/r/histograms.json']);
    expect(k6ExtraArgs({ segment, rawSamples: true }, 'builtin', '/r', '/r/.work')).toEqual([
      ...flags,
      '--out',
      'histograms=/r/histograms.json',
      '--out',
      'json=/r/raw.json.gz',
    ]);
    // k6 has no histograms output: its JSON output is folded after the run, from the scratch folder unless kept.
    expect(k6ExtraArgs({ segment }, 'k6', '/r', '/r/.work')).toEqual([...flags, '--out', 'json=/r/.work/raw.json.gz']);
    expect(k6ExtraArgs({ segment, rawSamples: true }, 'k6', '/r', '/r/.work')).toEqual([...flags, '--out', 'json=/r/raw.json.gz']);
    for (const bad of ['0/3', '4/3', '2', 'a/b', '1/65'])
      expect(() => parseSegment(bad)).toThrow(`load: --segment must look like 2/4 (segment 2 of 4, at most 64), got '${bad}'`);
  });

  it('keep raw samples only for a segment, and refuse --raw-samples on a whole run with one line', () => {
    expect(loadExtrasOf({ segment: '1/2', 'raw-samples': true }).extras.rawSamples).toBe(true);
    expect(loadExtrasOf({ segments: 2 }).extras.rawSamples).toBe(false);
    expect(() => loadExtrasOf({ 'raw-samples': true })).toThrow(
      'load: --raw-samples keeps the raw samples of a segment: give it with --segment i/N or --segments N',
    );
  });

  it('refuse --segments together with --segment', () => {
    expect(() => loadExtrasOf({ segments: 2, segment: '1/2' })).toThrow('load: --segments runs every segment here; --segment i/N runs one: give one of them');
  });

  it('take a --baseline-tag as a release is named, refuse a name a shell or a page would mangle with one line, and refuse it on one segment', () => {
    for (const good of ['1.4', 'v2.0.0-rc.1', 'before_cache', 'build+7']) expect(loadExtrasOf({ 'baseline-tag': good }).extras.baselineTag).toBe(good);
    for (const bad of ['', 'my tag', '-1.4', '.hidden', 'a/b', 'x'.repeat(65)])
      expect(() => parseBaselineTag(bad, 'merge')).toThrow(
        `merge: --baseline-tag must be 1 to 64 letters, digits, '.', '_', '+' or '-', starting with a letter or digit, got '${bad}'`,
      );
    expect(() => loadExtrasOf({ segment: '1/2', 'baseline-tag': '1.4' })).toThrow(
      "load: --baseline-tag pins a whole run: give it to 'dialtone merge' of the segments, not to --segment i/N",
    );
    expect(loadExtrasOf({}).extras.baselineTag).toBeUndefined();
  });

  it("exit 6 for a regression only under --fail-on-regression, and keep k6's own code when a threshold failed", () => {
    const regressed = { status: 'regressed' as const, baselineRuns: 14, metrics: [] };
    expect(exitWithVerdict(0, regressed, true)).toBe(REGRESSION_EXIT);
    expect(REGRESSION_EXIT).toBe(6);
    expect(exitWithVerdict(0, regressed, false)).toBe(0);
    expect(exitWithVerdict(99, regressed, true)).toBe(99);
    expect(exitWithVerdict(0, { ...regressed, status: 'no baseline' }, true)).toBe(0);
  });
});
