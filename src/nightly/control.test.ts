import { describe, expect, it } from 'vitest';
import { controlLines, controlReading } from './control.js';
import type { MetricVerdict, Verdict } from './verdict.js';

const metric = (name: string, status: MetricVerdict['status']) => ({ metric: name, status }) as MetricVerdict;
const verdict = (status: Verdict['status'], ...ms: MetricVerdict[]): Verdict => ({ status, baselineRuns: 14, metrics: ms });
const P95 = 'http_req_duration p95';
const RATE = 'iterations per_s';

describe('the control run', () => {
  it('calls a metric that regressed in the control too the runner, and one that regressed alone the product', () => {
    const tonight = verdict('regressed', metric(P95, 'regressed'), metric(RATE, 'regressed'));
    const control = verdict('regressed', metric(P95, 'regressed'), metric(RATE, 'unchanged'));
    const r = controlReading(tonight, control);
    expect(r).toEqual({ status: 'regressed', together: [P95], alone: [RATE] });
    expect(controlLines(r)).toEqual([
      'control (the reference target on this runner): regressed',
      `  moved together with the control, so the runner, not the product: ${P95}`,
      `  regressed while the control held, so the product: ${RATE}`,
    ]);
  });

  it('says nothing of the runner while the control has no baseline', () => {
    const r = controlReading(verdict('regressed', metric(P95, 'regressed')), verdict('no baseline'));
    expect(r.together).toEqual([]);
    expect(controlLines(r)).toEqual([
      'control (the reference target on this runner): no baseline: too few earlier control runs to say whether the runner moved',
    ]);
  });

  it('gives only its head line when tonight regressed nothing', () => {
    expect(controlLines(controlReading(verdict('unchanged', metric(P95, 'unchanged')), verdict('regressed', metric(P95, 'regressed'))))).toEqual([
      'control (the reference target on this runner): regressed',
    ]);
  });
});
