import type { Alert } from '../../contract/alerts/shapes.js';
import type { AlertResolvedPayload, AlertTriggeredPayload } from '../../contract/webhooks/shapes.js';
import type { Transition } from './evaluation.js';
import type { StoredRule } from './rule-store.js';

/** An active alert (GET /v1/alerts) or a payload's `alert`: the rule's fields plus the firing details. `id` is the rule's id. */
export function alertView(rule: StoredRule, firing: NonNullable<StoredRule['firing']>): Alert {
  return {
    id: rule.id,
    name: rule.name,
    project_id: rule.project_id,
    metric: rule.metric,
    operator: rule.operator,
    threshold_value: rule.threshold_value,
    current_value: rule.current_value ?? 0,
    previous_state: firing.previous_state,
    triggered_at: firing.triggered_at,
  };
}

/**
 * The delivery body of a transition's event. alerts.triggered is documented; alerts.resolved is the
 * reference's choice: the same alert object (previous_state `alert`) plus resolved_at.
 */
export function payloadFor(
  t: Transition,
  nowIso: string,
  options: { dropPreviousState?: boolean } = {},
): AlertTriggeredPayload | AlertResolvedPayload | undefined {
  if (t.event === 'alerts.triggered' && t.firing) {
    const alert = alertView(t.rule, t.firing);
    if (options.dropPreviousState) delete (alert as Partial<Alert>).previous_state;
    return { event_type: 'alerts.triggered', alert };
  }
  if (t.event === 'alerts.resolved') {
    const triggered_at = t.firing?.triggered_at ?? nowIso;
    return { event_type: 'alerts.resolved', alert: { ...alertView(t.rule, { previous_state: t.from, triggered_at }), resolved_at: nowIso } };
  }
  return undefined;
}
