import { describe, expect, it } from 'vitest';
import { MetricsRecorder } from '../agent-interface/metrics.js';
import { SeededRandom } from '../ids.js';
import { evaluateRule, eventFor, isDue, nextState } from './evaluation.js';
import { payloadFor } from './payloads.js';
import { RuleStore } from './rule-store.js';

const now = Date.parse('2030-01-01T00:00:00.000Z');
const fields = { name: 'errors', project_id: null, metric: 'api_errors', operator: '>=', threshold_value: 10, window_duration: '5m', enabled: true } as const;

function setup() {
  const metrics = new MetricsRecorder();
  const rule = new RuleStore(new SeededRandom(3)).create('A', { ...fields }, new Date(now - 1000).toISOString());
  return { metrics, rule };
}

describe('nextState', () => {
  const rule = { state: 'ok', operator: '>=', threshold_value: 10 } as const;
  it('fires at the threshold under >= and not below it', () => {
    expect(nextState(rule, 10, true)).toBe('alert');
    expect(nextState(rule, 9, true)).toBe('ok');
  });
  it('is no_data without a value and unknown when the evaluation could not complete', () => {
    expect(nextState(rule, null, true)).toBe('no_data');
    expect(nextState(rule, 50, false)).toBe('unknown');
  });
  it('honours the defect options', () => {
    expect(nextState(rule, 10, true, { strictGreater: true })).toBe('ok');
    expect(nextState(rule, null, true, { noDataKeepsState: true })).toBe('ok');
  });
});

describe('eventFor', () => {
  it('sends triggered on entering alert from any other state', () => {
    for (const from of ['ok', 'no_data', 'unknown'] as const) expect(eventFor(from, 'alert')).toBe('alerts.triggered');
  });
  it('sends resolved only from alert to ok', () => {
    expect(eventFor('alert', 'ok')).toBe('alerts.resolved');
    expect(eventFor('unknown', 'ok')).toBeUndefined();
    expect(eventFor('alert', 'no_data')).toBeUndefined();
    expect(eventFor('unknown', 'ok', { resolvedOnAnyOk: true })).toBe('alerts.resolved');
  });
});

describe('evaluateRule', () => {
  it('moves unknown to ok to alert to ok with the right events and payloads', () => {
    const { metrics, rule } = setup();
    metrics.override({ accountId: 'A' }, 'api_errors', 3);
    expect(evaluateRule(rule, metrics, now, true)?.event).toBeUndefined();
    expect(rule.state).toBe('ok');
    metrics.override({ accountId: 'A' }, 'api_errors', 12);
    const fired = evaluateRule(rule, metrics, now + 1000, true);
    expect(fired?.event).toBe('alerts.triggered');
    expect(payloadFor(fired!, new Date(now + 1000).toISOString())).toMatchObject({
      event_type: 'alerts.triggered',
      alert: { id: rule.id, current_value: 12, previous_state: 'ok', triggered_at: new Date(now + 1000).toISOString() },
    });
    expect(evaluateRule(rule, metrics, now + 2000, true)).toBeUndefined();
    metrics.override({ accountId: 'A' }, 'api_errors', 1);
    const resolved = evaluateRule(rule, metrics, now + 3000, true);
    expect(resolved?.event).toBe('alerts.resolved');
    expect(payloadFor(resolved!, new Date(now + 3000).toISOString())).toMatchObject({
      event_type: 'alerts.resolved',
      alert: { previous_state: 'alert', triggered_at: new Date(now + 1000).toISOString(), resolved_at: new Date(now + 3000).toISOString() },
    });
  });

  it('keeps the last value when the evaluation could not complete', () => {
    const { metrics, rule } = setup();
    metrics.override({ accountId: 'A' }, 'api_errors', 4);
    evaluateRule(rule, metrics, now, true);
    evaluateRule(rule, metrics, now + 1000, false);
    expect(rule).toMatchObject({ state: 'unknown', current_value: 4, last_evaluated_at: new Date(now).toISOString() });
  });
});

describe('isDue', () => {
  it('is due a minute after creation or the last evaluation, and never when disabled', () => {
    const base = { enabled: true, last_evaluated_at: null, created_at: new Date(now).toISOString() };
    expect(isDue(base, now + 59_999)).toBe(false);
    expect(isDue(base, now + 60_000)).toBe(true);
    expect(isDue({ ...base, enabled: false }, now + 120_000)).toBe(false);
  });
});
