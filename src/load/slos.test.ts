import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { SCENARIO_DEFAULTS } from './defaults.js';
import { checkExpectations } from './expectations.js';
import { scenarioNames } from './scenarios.js';
import { checkSlos, effectiveSlos, latencyBoundMs, thresholdsFor } from './slos.js';

const ROOT = join(import.meta.dirname, '..', '..');
const RESPOND = 'http_req_duration{op:chat.respond}';

/** The one-line message checkSlos gives for `slos`, or undefined when it takes them. */
function refusal(slos: Record<string, Record<string, unknown[]>>): string | undefined {
  try {
    checkSlos({ slos: slos as never }, 'staging.json');
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
}

describe('the scenarios defaults', () => {
  it('has a row for every scenario and no row without a scenario', () => {
    expect(Object.keys(SCENARIO_DEFAULTS).sort()).toEqual(scenarioNames(ROOT));
  });

  it('declares every custom metric a scenario makes, with its type, so an SLO on it is taken and one on a typo is not', () => {
    for (const name of scenarioNames(ROOT)) {
      const source = readFileSync(join(ROOT, 'scenarios', `${name}.ts`), 'utf8');
      const made = Object.fromEntries(
        [...source.matchAll(/new (Counter|Trend|Rate|Gauge)\('([a-z0-9_]+)'/g)].map((m) => [m[2], (m[1] as string).toLowerCase()]),
      );
      expect(SCENARIO_DEFAULTS[name]?.metrics, name).toEqual(made);
    }
  });

  it('is the only place a scenario states its thresholds and executors', () => {
    for (const name of scenarioNames(ROOT)) {
      const source = readFileSync(join(ROOT, 'scenarios', `${name}.ts`), 'utf8');
      expect(source, name).toContain('thresholds: cfg.thresholds');
      expect(source, name).not.toMatch(/executor:|p\(95\)</);
    }
  });

  it('passes its own check: every default SLO is one k6 would take', () => {
    const slos = Object.fromEntries(Object.entries(SCENARIO_DEFAULTS).map(([n, d]) => [n, d.slos]));
    expect(refusal(slos as never)).toBeUndefined();
  });
});

describe("a profile's slos", () => {
  it('replace the default of the key they name and leave every other key its default', () => {
    const entries = effectiveSlos('chat-turns', { slos: { 'chat-turns': { [RESPOND]: ['p(95)<3000'] } } });
    expect(entries.find((e) => e.key === RESPOND)).toEqual({ key: RESPOND, expressions: ['p(95)<3000'], source: 'profile' });
    expect(entries.find((e) => e.key === 'http_req_duration{op:chat.create}')).toEqual({
      key: 'http_req_duration{op:chat.create}',
      expressions: ['p(95)<500'],
      source: 'default',
    });
    expect(entries.filter((e) => e.source === 'default')).toHaveLength(Object.keys(SCENARIO_DEFAULTS['chat-turns']?.slos ?? {}).length - 1);
  });

  it('may add a key the defaults do not have, on a metric the scenario emits', () => {
    const entries = effectiveSlos('chat-turns', { slos: { 'chat-turns': { 'http_req_waiting{op:chat.respond}': ['p(99)<4000'] } } });
    expect(entries.at(-1)).toEqual({ key: 'http_req_waiting{op:chat.respond}', expressions: ['p(99)<4000'], source: 'profile' });
  });

  it('apply to the scenario they name only', () => {
    const profile = { slos: { 'chat-turns': { http_req_failed: ['rate<0.05'] } } };
    expect(effectiveSlos('outbound-polling', profile).every((e) => e.source === 'default')).toBe(true);
  });

  it('get abortOnFail on the capacity ramp where the default had it, and not on the other workloads', () => {
    const profile = { slos: { 'chat-turns': { [RESPOND]: ['p(95)<3000'] } } };
    expect(thresholdsFor('chat-turns', 'capacity', profile)[RESPOND]).toEqual([{ threshold: 'p(95)<3000', abortOnFail: true }]);
    expect(thresholdsFor('chat-turns', 'nightly', profile)[RESPOND]).toEqual(['p(95)<3000']);
  });

  // k6 docs, /using-k6/thresholds/: "the threshold expression ... <aggregation_method> <operator> <value>"; a threshold
  // on a metric that does not exist, or with an aggregation its type lacks, stops k6 before the test starts.
  it.each([
    [{ 'chat-turn': { checks: ['rate>0.9'] } }, `staging.json: slos.chat-turn: expected a scenario (${scenarioNames(ROOT).join(', ')})`],
    [
      { 'chat-turns': { http_req_durations: ['p(95)<1'] } },
      'staging.json: slos.chat-turns["http_req_durations"]: expected a metric this scenario emits (chat_conversation_completed, checks,',
    ],
    [
      { 'chat-turns': { [RESPOND]: ['p95<3000'] } },
      `staging.json: slos.chat-turns["${RESPOND}"][0]: expected a threshold expression (<aggregation> <operator> <number>, e.g. p(95)<500), found 'p95<3000'`,
    ],
    [
      { 'chat-turns': { checks: ['p(95)<3000'] } },
      `staging.json: slos.chat-turns["checks"][0]: expected an aggregation a rate offers (rate), found 'p(95)<3000'`,
    ],
    [
      { 'chat-turns': { 'http_req_duration{op:chat.respond': ['p(95)<1'] } },
      "expected a metric or metric{tag:value,…} name, found 'http_req_duration{op:chat.respond'",
    ],
    [{ 'chat-turns': { [RESPOND]: ['p(101)<1'] } }, "found 'p(101)<1' (the percentile of p(N) must be a number from 0 to 100"],
    [{ 'messaging-sockets': { ws_sessions: ['p(95)<1'] } }, "expected an aggregation a counter offers (count, rate), found 'p(95)<1'"],
    [{ 'chat-turns': { ws_sessions: ['count>0'] } }, "found 'ws_sessions'"],
  ])('refuse %j with one line', (slos, text) => {
    const message = refusal(slos as never);
    expect(message).toContain(text);
    expect(message).not.toContain('\n');
  });

  it('are checked with the workloads in one call', () => {
    expect(() => checkExpectations({ slos: undefined, workloads: { 'chat-turns': { weekly: {} } } }, 'p.json')).toThrow(
      "p.json: workloads.chat-turns.weekly: expected a workload (smoke, nightly, capacity), found 'weekly'",
    );
  });
});

describe('the latency bound of an SLO', () => {
  it('is the value of its first percentile, max, average or median below a number', () => {
    expect(latencyBoundMs(['count>0', 'p(99)<=4000', 'p(95)<3000'])).toBe(4000);
    expect(latencyBoundMs([{ threshold: 'max<800', abortOnFail: true }])).toBe(800);
  });

  it('is undefined when no expression bounds a sample from above', () => {
    expect(latencyBoundMs(['rate>0.99'])).toBeUndefined();
    expect(latencyBoundMs(['p(95)>10'])).toBeUndefined();
    expect(latencyBoundMs(undefined)).toBeUndefined();
  });
});
