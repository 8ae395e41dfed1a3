import { describe, expect, it } from 'vitest';
import { HistogramRecorder } from '../../core/histogram-series.js';
import type { LiveFeedMessage } from '../../core/live-feed.js';
import { dashboardSettings } from './settings.js';
import { LiveState } from './state.js';

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);

/** One period's message: `requests` chat.respond requests at `ms` each, in the second `s` after T0. */
function message(s: number, requests: number, ms: number, thresholds: LiveFeedMessage['thresholds'] = []): LiveFeedMessage {
  const rec = new HistogramRecorder(Number.MAX_SAFE_INTEGER, 1);
  for (let i = 0; i < requests; i++) {
    const t = T0 + s * 1000 + i;
    rec.add('counter', t, 1, [], ['http_reqs']);
    rec.add('trend', t, ms, [], ['http_req_duration{op:chat.respond}']);
  }
  return { t: 'dialtone-live', at: t(s), elapsed_s: s, period: rec.toFile(), thresholds, asked: [], vus: 1, vus_max: 2, ended: false };
}
const t = (s: number) => T0 + s * 1000;

describe('the live state', () => {
  it('joins the samples two periods hold for one second, and keeps the seconds apart', () => {
    const state = new LiveState();
    state.add(message(0, 3, 10));
    state.add(message(0, 2, 10));
    state.add(message(1, 4, 20));
    const points = state.view().timeline?.points ?? [];
    expect(points.map((p) => p.requests_per_s)).toEqual([5, 4]);
    expect(state.view().samples).toBe(3);
  });

  it('keeps at most 240 slots however long the run, joining pairs, so an update costs the same at minute 1 and at hour 2', () => {
    const state = new LiveState();
    for (let s = 0; s < 600; s++) state.add(message(s, 2, 10));
    const tl = state.view().timeline;
    expect(tl?.interval_s).toBe(4);
    expect(tl?.points.length).toBe(150);
    expect(tl?.points.reduce((n, p) => n + p.requests_per_s * (tl?.interval_s ?? 0), 0)).toBe(1200);
  });

  it('leaves out a threshold that always holds (a capacity step exports a sub-metric with one) and keeps the SLOs', () => {
    const state = new LiveState();
    const slo = { key: 'http_req_duration{op:chat.respond}', source: 'p(95)<500', ok: false, value: 612 };
    state.add(message(0, 1, 612, [slo, { key: 'iterations{dialtone_phase:steady}', source: 'count>=0', ok: true, value: 4 }]));
    expect(state.view().thresholds).toEqual([slo]);
  });

  it('names the step being tried at once, and marks each step on the plots from its first sample on', () => {
    const state = new LiveState();
    state.add(message(0, 1, 10));
    state.step('step 1 (coarse): 2/s offered for 6 s');
    state.add(message(2, 1, 10));
    state.add(message(3, 1, 10));
    expect(state.view().spans).toEqual([{ from: 2, to: 4, label: 'step 1 (coarse): 2/s offered for 6 s' }]);
    state.step('step 2 (coarse): 4/s offered for 6 s');
    expect(state.view().step).toBe('step 2 (coarse): 4/s offered for 6 s');
    expect(state.view().spans[0]?.label).toBe('step 1 (coarse): 2/s offered for 6 s');
    state.add(message(5, 1, 10));
    expect(state.view().spans).toEqual([{ from: 5, to: 6, label: 'step 2 (coarse): 4/s offered for 6 s' }]);
  });
});

describe("the dashboard's settings, from k6's variables", () => {
  it('serves on 127.0.0.1:5665 once a second by default, as k6 serves on port 5665', () => {
    // k6: "By default, the web dashboard is available on localhost port 5665" (/results-output/web-dashboard/).
    expect(dashboardSettings({})).toEqual({ host: '127.0.0.1', port: 5665, periodMs: 1000, exportFile: undefined, open: false });
    expect(dashboardSettings({ K6_WEB_DASHBOARD_PORT: '-1', K6_WEB_DASHBOARD_PERIOD: '2s', K6_WEB_DASHBOARD_HOST: '::1' })).toMatchObject({
      host: '::1',
      port: -1,
      periodMs: 2000,
    });
  });

  it('refuses a port or a period it cannot use, in one line', () => {
    expect(() => dashboardSettings({ K6_WEB_DASHBOARD_PORT: 'x' })).toThrow('dashboard: K6_WEB_DASHBOARD_PORT=x is not a port (0 to 65535, or -1 for none)');
    expect(() => dashboardSettings({ K6_WEB_DASHBOARD_PERIOD: 'soon' })).toThrow('dashboard: K6_WEB_DASHBOARD_PERIOD=soon is not a duration (e.g. 1s, 500ms)');
  });
});
