import { z } from 'zod';
import { AgentsErrors } from '../agents/shapes.js';
import { IsoDateTime } from '../common.js';
import { meaning } from '../meaning.js';

/** The six alert metrics. */
export const AlertMetric = z.enum(['turn_latency_p50', 'turn_latency_p95', 'api_errors', 'function_errors', 'call_crashes', 'call_volume'], {
  error: AgentsErrors.METRIC_ENUM.text,
});
export type AlertMetric = z.infer<typeof AlertMetric>;

/** Comparison operators: only `>=` is documented; other allowed operators are not shown. */
export const AlertOperator = z.enum(['>=']);
export type AlertOperator = z.infer<typeof AlertOperator>;

/** Evaluation windows. */
export const WindowDuration = z.enum(['5m', '10m', '60m']);
export type WindowDuration = z.infer<typeof WindowDuration>;

/** Each evaluation window in milliseconds. */
export const WINDOW_DURATION_MS = {
  '5m': 5 * 60_000,
  '10m': 10 * 60_000,
  '60m': 60 * 60_000,
} as const satisfies Record<WindowDuration, number>;

/** Alert rule states. */
export const AlertState = z.enum(['ok', 'alert', 'no_data', 'unknown']);
export type AlertState = z.infer<typeof AlertState>;

/** The documented contradiction: a new rule starts `ok` (table) or `unknown` (note); both are accepted. */
export const INITIAL_STATE_READINGS = ['ok', 'unknown'] as const satisfies readonly AlertState[];

/** Alert rules per account; creating beyond returns 409. */
export const MAX_ALERT_RULES_PER_ACCOUNT = 10;

/** Prefix of assigned alert rule ids. */
export const ALERT_RULE_ID_PREFIX = 'ar_' as const;

/** Metric units: latency percentiles in milliseconds, the rest absolute counts in the window (not rates). */
export const METRIC_UNITS = {
  turn_latency_p50: 'ms',
  turn_latency_p95: 'ms',
  api_errors: 'count',
  function_errors: 'count',
  call_crashes: 'count',
  call_volume: 'count',
} as const satisfies Record<AlertMetric, 'ms' | 'count'>;

/**
 * Whether a metric value breaches the threshold under the operator (`>=`: equal counts as a breach).
 *
 * @example
 * breaches(10, '>=', 10); // true: 10 api_errors in 5m with threshold 10 triggers
 * breaches(9, '>=', 10); // false
 */
export function breaches(value: number, operator: AlertOperator, threshold: number): boolean {
  switch (operator) {
    case '>=':
      return value >= threshold;
  }
}

/** threshold_value: a non-negative integer; violations carry the pinned example message. */
export const ThresholdValue = meaning(
  z.number({ error: AgentsErrors.THRESHOLD_VALUE.text }).int(AgentsErrors.THRESHOLD_VALUE.text).min(0, AgentsErrors.THRESHOLD_VALUE.text),
  { rule: 'alerts.rules.threshold-non-negative-integer' },
);

/** An alert rule id: assigned, prefix `ar_`. */
export const AlertRuleId = z.string().startsWith(ALERT_RULE_ID_PREFIX);

/**
 * POST /v1/alert-rules body. Only `name` is documented as required and `project_id` as optional;
 * requiring metric, threshold_value and window_duration and defaulting operator `>=` and enabled true is the reference's choice.
 */
export const AlertRuleCreateRequest = z.object({
  name: meaning(z.string().min(1), { rule: 'alerts.rules.name-required', required: true }),
  project_id: z.string().optional(),
  metric: AlertMetric,
  operator: AlertOperator.optional(),
  threshold_value: ThresholdValue,
  window_duration: WindowDuration,
  enabled: z.boolean().optional(),
});
export type AlertRuleCreateRequest = z.infer<typeof AlertRuleCreateRequest>;

/** PATCH body: the same flat JSON as create with only the fields to change. */
export const AlertRuleUpdateRequest = AlertRuleCreateRequest.partial();
export type AlertRuleUpdateRequest = z.infer<typeof AlertRuleUpdateRequest>;

/**
 * An alert rule as listed. `state` is not in the field table (reference choice, optional here);
 * null `project_id` (account-wide), `last_evaluated_at` and `current_value` before evaluation are tolerated (not shown).
 */
export const AlertRule = z.object({
  id: AlertRuleId,
  name: z.string(),
  project_id: z.string().nullish(),
  metric: AlertMetric,
  operator: z.string(),
  threshold_value: z.number().int().min(0),
  window_duration: WindowDuration,
  enabled: z.boolean(),
  state: AlertState.optional(),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
  since: IsoDateTime,
  last_evaluated_at: IsoDateTime.nullable(),
  current_value: z.number().nullable(),
});
export type AlertRule = z.infer<typeof AlertRule>;

/** GET /v1/alert-rules query filters. */
export const AlertRulesListQuery = z.object({
  enabled: z.stringbool().optional(),
  metric: AlertMetric.optional(),
  project_id: z.string().optional(),
  state: AlertState.optional(),
});
export type AlertRulesListQuery = z.infer<typeof AlertRulesListQuery>;

/** GET /v1/alert-rules response: every matching rule, no pagination. */
export const AlertRulesListResponse = z.object({ data: z.array(AlertRule) });
export type AlertRulesListResponse = z.infer<typeof AlertRulesListResponse>;

/** The `alert` object of the alerts.triggered payload (`id` is read as the rule's id by the reference). */
export const Alert = z.object({
  id: z.string(),
  name: z.string(),
  project_id: z.string().nullish(),
  metric: AlertMetric,
  operator: z.string(),
  threshold_value: z.number().int().min(0),
  current_value: z.number(),
  previous_state: AlertState,
  triggered_at: IsoDateTime,
});
export type Alert = z.infer<typeof Alert>;

/** GET /v1/alerts response. Reference choice: the shape is not shown; the reference answers `{data: [alert]}`. */
export const AlertsListResponse = z.object({ data: z.array(Alert) });
export type AlertsListResponse = z.infer<typeof AlertsListResponse>;

/** The documented alert paths (wire.ts, without zod, for the scenarios). */
export { AlertsPaths } from './wire.js';
