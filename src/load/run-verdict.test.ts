import { describe, expect, it } from 'vitest';
import type { Delivery } from './delivery.js';
import type { LoadResult } from './page.js';
import { type RunOutcome, restOfHeadline, sourceText, valueText, verdictBlock } from './run-verdict.js';

const delivery = {
  delivered: true,
  short_by: [],
  asked_rate: 5,
  executor: 'constant-arrival-rate',
  delivered_rate: 5,
  iterations: 75,
  dropped: 0,
  dropped_share: 0,
  requests_per_s: 28.3,
  peak_vus: 20,
  max_vus: 36,
  vus_exhausted: false,
  generator_cpu_avg_cores: 0.17,
  generator_cpu_peak_cores: 0.51,
  generator_cpu_seconds: 4,
  generator_saturated_seconds: 0,
  cores: 2,
  machine_busy: 0.5,
  start_lag_p99_ms: null,
  max_start_lag_ms: null,
} satisfies Delivery;

const failing: RunOutcome = {
  scenario: 'chat-turns',
  passed: false,
  k6_exit_code: 99,
  delivery,
  headline: ['load delivered: whatever', '20.2/s chat turns, p95 736.6 ms (median 706.6 ms)'],
  expectations: { slo_set: 'profile staging-us' },
  thresholds: [
    { metric: 'http_req_duration{op:chat.respond}', expression: 'p(95)<500', passed: false, value: 736.56, source: 'default' },
    { metric: 'http_req_failed', expression: 'rate<0.01', passed: false, value: 0.034, source: 'profile' },
    { metric: 'checks', expression: 'rate>0.99', passed: true, value: 1, source: 'default' },
  ],
};

describe('the verdict at the top of a load page', () => {
  it('says fail and how many SLOs failed, then each failed SLO with its threshold, value and source', () => {
    const html = verdictBlock(failing);
    expect(html).toMatch(/<span class="badge fail">FAIL<\/span> <strong>2 of 3 SLOs failed \(exit 99\)<\/strong>/);
    expect(html).toContain(
      '<li class="failed-slo"><code>http_req_duration{op:chat.respond}</code> <code>p(95)&lt;500</code> was <strong>736.56 ms</strong> · the default SLO ' +
        'of chat-turns (scenarios/chat-turns.defaults.ts)</li>',
    );
    expect(html).toContain('was <strong>0.034 (3.40 %)</strong> · set by profile staging-us&#39;s slos</li>');
    expect(html).not.toContain('checks');
  });

  it('follows the SLOs with the load delivered against the load asked for', () => {
    const html = verdictBlock(failing);
    expect(html.indexOf('failed-slo')).toBeLessThan(html.indexOf('load delivered: asked 5.0 iterations/s, delivered 5.0/s'));
  });

  it('says pass when every SLO held on the load asked for', () => {
    const passing = { ...failing, passed: true, k6_exit_code: 0, thresholds: failing.thresholds.map((t) => ({ ...t, passed: true })) };
    expect(verdictBlock(passing)).toMatch(/<span class="badge pass">PASS<\/span> <strong>all 3 SLOs held on the load asked for<\/strong>/);
  });

  it('fails a run whose SLOs held on load that was not delivered, and says so', () => {
    const short = { ...failing, thresholds: [], delivery: { ...delivery, delivered: false, short_by: ['dropped_iterations' as const], dropped: 40 } };
    expect(verdictBlock(short)).toContain('every SLO held, but the load asked for was not delivered');
  });

  it('calls an interrupted run neither passed nor failed', () => {
    const html = verdictBlock({ ...failing, interrupted: { signal: 'SIGINT', at: '2026-11-27T16:00:00.000Z' } });
    expect(html).toContain('INTERRUPTED');
    expect(html).toContain('interrupted by SIGINT at 2026-11-27T16:00:00.000Z');
    expect(html).toContain('neither passed nor failed; 2 of 3 SLOs failed on it');
  });

  it('gives an interrupted run the interrupted badge on its page, its thresholds as they stood, and earlier runs their own', async () => {
    const { loadPage } = await import('./page.js');
    const cut = { ...failing, interrupted: { signal: 'SIGINT' as const, at: '2026-11-27T16:00:00.000Z' } };
    const r: LoadResult = {
      ...cut,
      headline: [...cut.headline],
      thresholds: [...cut.thresholds],
      expectations: undefined,
      profile: 'smoke',
      target: 'reference',
      started_at: cut.interrupted.at,
      duration_ms: 10_000,
      figures: {},
    };
    const { interrupted: _, ...earlier } = r;
    const html = loadPage(r, { metrics: {} }, [r, earlier], false);
    expect(html).toContain('<h1>Load: chat-turns <span class="badge interrupted">interrupted</span></h1>');
    expect(html).toContain('<h2>Thresholds (SLOs), as they stood when the run was interrupted</h2>');
    expect(html.match(/<td><span class="badge (\w+)">/g)?.filter((b) => !b.includes('pass') && !b.includes('fail'))).toHaveLength(1);
  });

  it('names a merged run’s SLO source as not recorded, and a count as a count', () => {
    expect(sourceText({ metric: 'checks', expression: 'rate>0.99', passed: false, value: 0.9 }, failing)).toBe('source not recorded (a merge of segments)');
    expect(valueText({ metric: 'http_reqs{op:chat.respond}', expression: 'count>0', passed: false, value: 0 })).toBe('0');
  });

  it('leaves the delivery line out of the rest of the headline, which it already said', () => {
    const withDelivery = {
      ...failing,
      headline: [
        'load delivered: asked 5.0 iterations/s, delivered 5.0/s (75 iterations, 28.3 requests/s), 0 dropped (0.0 %); peak 20 of 36 VUs; generator CPU ' +
          '0.17 cores on average, peak 0.51 of 2; machine 50.0 % busy',
        'turns',
      ],
    };
    expect(restOfHeadline(withDelivery)).toEqual(['turns']);
  });
});
