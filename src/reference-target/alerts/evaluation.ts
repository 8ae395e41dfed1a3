import { type AlertState, breaches, WINDOW_DURATION_MS } from '../../contract/alerts/shapes.js';
import type { WebhookEventType } from '../../contract/webhooks/shapes.js';
import type { MetricsRecorder } from '../agent-interface/metrics.js';
import type { StoredRule } from './rule-store.js';

/** How an evaluation reads: `>=` (or, with a defect, `>`), and what no data does to the state. */
export interface EvaluationOptions {
  readonly strictGreater?: boolean;
  readonly noDataKeepsState?: boolean;
  readonly resolvedOnAnyOk?: boolean;
  /** A defect's: the firing details outlive the alert, so the active list keeps a resolved alert. */
  readonly keepsFiringAfterResolve?: boolean;
}

/**
 * The state an evaluation leads to: unknown when it could not complete, no_data without a value,
 * else alert when the value breaches the threshold and ok when it is within.
 *
 * @example
 * nextState({ state: 'ok', operator: '>=', threshold_value: 10 }, 10, true); // 'alert'
 */
export function nextState(
  rule: Pick<StoredRule, 'state' | 'operator' | 'threshold_value'>,
  value: number | null,
  completed: boolean,
  options: EvaluationOptions = {},
): AlertState {
  if (!completed) return 'unknown';
  if (value === null) return options.noDataKeepsState ? rule.state : 'no_data';
  const breached = options.strictGreater ? value > rule.threshold_value : breaches(value, rule.operator, rule.threshold_value);
  return breached ? 'alert' : 'ok';
}

/**
 * The webhook event a transition sends: alerts.triggered on entering alert, alerts.resolved on going
 * from alert back to ok; other transitions send nothing.
 *
 * @example
 * eventFor('alert', 'ok'); // 'alerts.resolved'
 * eventFor('no_data', 'ok'); // undefined
 */
export function eventFor(from: AlertState, to: AlertState, options: EvaluationOptions = {}): WebhookEventType | undefined {
  if (to === 'alert' && from !== 'alert') return 'alerts.triggered';
  if (to === 'ok' && (from === 'alert' || (options.resolvedOnAnyOk && from !== 'ok'))) return 'alerts.resolved';
  return undefined;
}

/** A state change an evaluation made, with the event it sends and the rule as it was while firing. */
export interface Transition {
  readonly rule: StoredRule;
  readonly from: AlertState;
  readonly to: AlertState;
  readonly event: WebhookEventType | undefined;
  readonly firing: StoredRule['firing'];
}

/**
 * Evaluates one rule at `now` and updates it in place. An evaluation that could not complete
 * leaves last_evaluated_at and current_value as they were.
 */
export function evaluateRule(
  rule: StoredRule,
  metrics: MetricsRecorder,
  now: number,
  completed: boolean,
  options: EvaluationOptions = {},
): Transition | undefined {
  const nowIso = new Date(now).toISOString();
  const scope = { accountId: rule.accountId, projectId: rule.project_id ?? undefined };
  const value = completed ? metrics.value(scope, rule.metric, WINDOW_DURATION_MS[rule.window_duration], now) : rule.current_value;
  const from = rule.state;
  const to = nextState(rule, value, completed, options);
  if (completed) {
    rule.last_evaluated_at = nowIso;
    rule.current_value = value;
  }
  if (to === from) return undefined;
  const firing = rule.firing;
  rule.state = to;
  rule.since = nowIso;
  rule.firing = to === 'alert' ? { previous_state: from, triggered_at: nowIso } : options.keepsFiringAfterResolve ? firing : undefined;
  return { rule, from, to, event: eventFor(from, to, options), firing: to === 'alert' ? rule.firing : firing };
}

/** A rule is due for the timer once this long (target clock) has passed since its last evaluation or creation. */
export const EVALUATION_INTERVAL_MS = 60_000;

/** Whether the timer should evaluate a rule now. */
export function isDue(rule: Pick<StoredRule, 'enabled' | 'last_evaluated_at' | 'created_at'>, now: number): boolean {
  return rule.enabled && Date.parse(rule.last_evaluated_at ?? rule.created_at) + EVALUATION_INTERVAL_MS <= now;
}
