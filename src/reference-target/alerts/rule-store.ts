import {
  ALERT_RULE_ID_PREFIX,
  type AlertMetric,
  type AlertOperator,
  type AlertRule,
  type AlertState,
  type WindowDuration,
} from '../../contract/alerts/shapes.js';
import type { SeededRandom } from '../ids.js';

/**
 * The reference target's reading of the initial-state contradiction: a new rule is `unknown` until
 * its first evaluation, which agrees with the unknown row ("rule not yet evaluated").
 */
export const INITIAL_STATE: AlertState = 'unknown';

/** An alert rule as the target keeps it: the listed fields plus when (and from what) it last fired. */
export interface StoredRule {
  readonly id: string;
  readonly accountId: string;
  name: string;
  project_id: string | null;
  metric: AlertMetric;
  operator: AlertOperator;
  threshold_value: number;
  window_duration: WindowDuration;
  enabled: boolean;
  state: AlertState;
  readonly created_at: string;
  updated_at: string;
  since: string;
  last_evaluated_at: string | null;
  current_value: number | null;
  /** Set while the rule is firing: the state it left and when. */
  firing: { readonly previous_state: AlertState; readonly triggered_at: string } | undefined;
}

/** The fields a create or update may set. */
export type RuleFields = Pick<StoredRule, 'name' | 'project_id' | 'metric' | 'operator' | 'threshold_value' | 'window_duration' | 'enabled'>;

/** A rule as the list answers it (`AlertRule`). */
export function ruleView(r: StoredRule): AlertRule {
  return {
    id: r.id,
    name: r.name,
    project_id: r.project_id,
    metric: r.metric,
    operator: r.operator,
    threshold_value: r.threshold_value,
    window_duration: r.window_duration,
    enabled: r.enabled,
    state: r.state,
    created_at: r.created_at,
    updated_at: r.updated_at,
    since: r.since,
    last_evaluated_at: r.last_evaluated_at,
    current_value: r.current_value,
  };
}

/** Alert rules of every account, in creation order. */
export class RuleStore {
  readonly #rules = new Map<string, StoredRule>();
  constructor(private readonly rng: SeededRandom) {}

  create(accountId: string, fields: RuleFields, nowIso: string): StoredRule {
    const rule: StoredRule = {
      ...fields,
      id: `${ALERT_RULE_ID_PREFIX}${this.rng.hex(16)}`,
      accountId,
      state: INITIAL_STATE,
      created_at: nowIso,
      updated_at: nowIso,
      since: nowIso,
      last_evaluated_at: null,
      current_value: null,
      firing: undefined,
    };
    this.#rules.set(rule.id, rule);
    return rule;
  }

  get(accountId: string, id: string): StoredRule | undefined {
    const r = this.#rules.get(id);
    return r?.accountId === accountId ? r : undefined;
  }

  delete(rule: StoredRule): void {
    this.#rules.delete(rule.id);
  }

  forAccount(accountId: string): StoredRule[] {
    return [...this.#rules.values()].filter((r) => r.accountId === accountId);
  }

  all(): IterableIterator<StoredRule> {
    return this.#rules.values();
  }
}
