import { describe, expect, it } from 'vitest';
import { renderSvg } from '../report/chart.js';
import { analyse } from './analysis.js';
import { throughputChart } from './charts.js';
import { capacityPage, heldAt, noHeadroom, verdict } from './report.js';
import type { CapacityResult } from './result.js';
import { DEFAULT_SEARCH } from './search.js';
import type { StepResult } from './step.js';
import { closedWorkOf, searchDefaultsFor } from './units.js';

/** A step that held its SLOs at `offered`, completing `throughput` a second. */
const step = (index: number, offered: number, throughput: number): StepResult => ({
  index,
  stage: 'coarse',
  offered_rate: offered,
  duration_s: 75,
  warmup_s: 15,
  throughput,
  requests_per_s: throughput * 40,
  requests_per_iteration: 40,
  error_rate: 0,
  dropped_iterations: 0,
  dropped_share: 0,
  vus_in_use: 5,
  vus_cap: 20,
  generator_cpu_cores: 0.07,
  machine_busy: 0.4,
  mean_iteration_s: 8,
  concurrency: throughput * 8,
  latency: {},
  thresholds: [{ metric: 'http_req_duration{op:conversations.list}', expression: 'p(95)<1000', passed: true, value: 227 }],
  slo_held: true,
  k6_exit_code: 0,
  wall_s: 90,
});

const result = (r2: number): CapacityResult => ({
  tool_version: '0.1.0',
  scenario: 'conversations-paging',
  unit: 'walks',
  target: 'reference',
  engine: { kind: 'builtin', version: 'v0.1.0' },
  started_at: '2026-11-23T17:59:47.528Z',
  search: DEFAULT_SEARCH,
  stopped: 'refined',
  wall_s: 545,
  analysis: {
    max_sustainable_rate: 0.25,
    limited_by: 'target',
    limit_reason: 'at 0.32/s the target broke no SLO but completed only 0.22/s of the offered 0.32/s (a queue was growing)',
    knee: null,
    usl: { sigma: 0, kappa: 0.24, r2, peak_concurrency: 2, peak_throughput: 0.21 },
    latency_slo: undefined,
  } as unknown as CapacityResult['analysis'],
  steps: [step(0, 0.25, 0.25), step(1, 0.32, 0.22)],
});

describe('the capacity page', () => {
  it('says a step whose SLOs held but whose completions fell behind did not hold', async () => {
    const html = await capacityPage(result(0.9));
    expect(html).toContain('<td>held</td>');
    expect(html).toContain('held, but <b>fell behind</b>: 0.22 of 0.32/s completed (a queue was growing)');
  });

  it('reads a USL peak as a prediction only when the fit describes the steps', async () => {
    expect(await capacityPage(result(0.9))).toContain('predicted peak 0.21 walks/s at concurrency 2.0');
    const poor = await capacityPage(result(-3.3));
    expect(poor).toContain('a poor fit (R² below 0.5): its peak is no prediction');
    expect(poor).not.toContain('predicted peak');
  });

  it("puts the platform's busiest hour beside the capacity found, and its day under the capacity line, when a traffic model was given", async () => {
    const headroom = {
      file: 'traffic-model.json',
      busiest_hour_start: '2026-11-18T12:00:00.000Z',
      per_second: 0.1,
      concurrency_peak: 3,
      per_hour_of_day: Array.from({ length: 24 }, (_, h) => (h === 12 ? 360 : 36)),
      share: 0.4,
      share_range: null,
    };
    const html = await capacityPage({ ...result(0.9), headroom });
    expect(html).toContain('uses 40 % of what holds the SLOs (0.250 walks/s)');
    // The observed day is plotted under the capacity line.
    expect(html).toContain('the observed day (traffic-model.json) under what holds the SLOs');
    expect(html).toContain('holds the SLOs: 0.250 walks/s');
    const without = await capacityPage(result(0.9));
    expect(without).not.toContain('busiest hour');
    expect(without).not.toContain('the observed day');
  });

  it('names a learned workload and its model, and says why it gives no headroom when the search was cut short', async () => {
    const workload = { kind: 'learned' as const, file: 'traffic-model.json', turns_p50: 5, think_time_p50_s: 6.008 };
    const untouched = result(0.9);
    const html = await capacityPage({ ...untouched, workload, analysis: { ...untouched.analysis, limited_by: 'none' } });
    expect(html).toContain('Workload learned from traffic-model.json: walks arrive at the rate searched (an open model)');
    expect(html).toContain('think time drawn from the model (median 6.0 s)');
    expect(html).toContain('<p class="headroom">No headroom: nothing broke');
    const cut = { ...result(0.9), stopped: 'step-budget' as const };
    expect(noHeadroom(cut)).toBe('the search was cut short by its step-budget before it refined the knee');
    expect(noHeadroom({ ...cut, analysis: { ...cut.analysis, limited_by: 'load-generator' } })).toBe(
      "the load generator was the limit: the target's capacity is not known",
    );
    expect(await capacityPage(result(0.9))).not.toContain('Workload learned');
  });

  it('names the engine that ran the steps', async () => {
    expect(await capacityPage(result(0.9))).toContain('engine dialtone built-in engine v0.1.0');
    expect(await capacityPage({ ...result(0.9), engine: { kind: 'k6', version: 'k6 v2.2.0 (go1.25.1, linux/amd64)' } })).toContain('engine k6 v2.2.0');
  });
});

/**
 * A closed-model search of `scenario` as run.ts puts it together: `held` at each step with `sockets` × `rate` work a
 * second each, `answered` of it answered, analysed in the scenario's words.
 */
function closedResult(scenario: string, sockets: number, rate: number, steps: readonly (readonly [held: number, answered: number])[]): CapacityResult {
  const search = { ...searchDefaultsFor(scenario, true), closed: { messageRate: rate } };
  const held = steps.map(([n, answered], i) => ({
    ...step(i, n, answered / (sockets * rate)),
    concurrency: n,
    messages: { offered_per_s: n * sockets * rate, answered_per_s: answered },
  }));
  return {
    ...result(0.9),
    scenario,
    unit: closedWorkOf(scenario).held,
    model: { kind: 'closed', sockets, message_rate_per_socket: rate },
    search,
    analysis: analyse(held, search, scenario),
    steps: held,
  };
}

describe('a closed-model report', () => {
  it('says what messaging-sockets held and at what message rate, as it always has', () => {
    const r = closedResult('messaging-sockets', 10, 1, [
      [1, 9.8],
      [2, 19.8],
      [4, 23.5],
      [3, 24.3],
    ]);
    expect(heldAt(r)).toBe(
      ' Closed model: sessions held for a whole step each, 10 sockets to one, every socket sending 1.00 messages/s (10.0 messages/s a session); ' +
        'with 2 held, 19.8 of the 20.0 messages/s sent were answered in full.',
    );
  });

  it('says a voice-calls search held calls taking turns, and never speaks of messages, sessions or sockets', async () => {
    const r = closedResult('voice-calls', 1, 0.25, [
      [4, 1],
      [8, 2],
      [16, 3],
      [12, 2.6],
    ]);
    expect(verdict(r)).toBe(
      'Sustains 8 calls held with every SLO held; with 12 held the target broke no SLO but answered only 2.6 of the 3.0 turns/s taken (a queue was growing). ' +
        "The boundary lies between 8 and 12 calls held (20.0 % either side of 10.0; one step each, the search's bracket). " +
        'Too wide to plan on (over 25 % of its low end): plan on 8 calls held, or search again with --repeats. ' +
        'Closed model: calls held for a whole step each, every call taking 0.25 turns/s; with 8 held, 2.0 of the 2.0 turns/s taken were answered in full.',
    );
    const html = await capacityPage(r);
    expect(html).toContain('2.6 of the 3.0 turns/s taken were answered, below 90%');
    expect(html).not.toMatch(/messages|sessions|socket/i);
  });
});

describe('the throughput plot', () => {
  it('names every line in its legend: the measured steps, the USL fit and the keeping-up line', async () => {
    const svg = await renderSvg(throughputChart(result(0.9)));
    const legend = svg.slice(svg.indexOf('aria-roledescription="legend"'));
    expect(svg).toContain('aria-roledescription="legend"');
    for (const label of ['measured', 'USL fit at measured concurrency', 'throughput = offered (keeping up)']) expect(legend).toContain(label);
  });
});
