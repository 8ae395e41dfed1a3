import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AgentsErrors } from '../../contract/agents/shapes.js';
import {
  ALERT_RULE_ID_PREFIX,
  AlertMetric,
  AlertOperator,
  AlertRulesListQuery,
  AlertsPaths,
  MAX_ALERT_RULES_PER_ACCOUNT,
  ThresholdValue,
  WindowDuration,
} from '../../contract/alerts/shapes.js';
import { issuesToErrors, sendApiError } from '../agent-interface/errors.js';
import { ownerOf } from '../agent-interface/shared-state.js';
import type { TargetContext } from '../context.js';
import { notShown } from '../not-shown.js';
import type { Monitor } from './monitor.js';
import { alertView } from './payloads.js';
import { type RuleFields, ruleView, type StoredRule } from './rule-store.js';

/** Create body: the spec's fields with the reference's messages where the document gives none. */
const RuleCreate = z.object({
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  project_id: z.string({ error: 'project_id must be a string' }).nullish(),
  metric: AlertMetric,
  operator: z.enum(AlertOperator.options, { error: 'operator must be >=' }).optional(),
  threshold_value: ThresholdValue,
  window_duration: z.enum(WindowDuration.options, { error: 'window_duration must be one of 5m, 10m, 60m' }),
  enabled: z.boolean({ error: 'enabled must be a boolean' }).optional(),
});
const RuleUpdate = RuleCreate.partial();

/** A defect's: threshold_value held in a signed 32-bit column, so larger valid values are refused as invalid. */
const INT32_MAX = 2 ** 31 - 1;
const int32Threshold = <S extends z.ZodType<{ threshold_value?: number }>>(schema: S) =>
  schema.refine((b) => b.threshold_value === undefined || b.threshold_value <= INT32_MAX, {
    path: ['threshold_value'],
    message: AgentsErrors.THRESHOLD_VALUE.text,
  });

/**
 * A defect's round trip to the monitoring backend between counting an account's rules and storing the new one. Long
 * enough that a burst of creates sent together all count before any stores, as on a platform whose backend is remote.
 */
/** How long the replica a defect counts rules from lags the backend: a burst arrives well within it, on a busy machine too. */
const BACKEND_REPLICA_LAG_MS = 1_000;

/** Fields a create leaves out take these values (the document does not give defaults). */
const DEFAULTS = { project_id: null, operator: '>=', enabled: true, window_duration: '5m' } as const satisfies Partial<RuleFields>;

const RULE_ID = new RegExp(`^${ALERT_RULE_ID_PREFIX}[0-9a-f]{16}$`);

type Req = FastifyRequest<{ Params: { ruleId?: string }; Querystring: Record<string, string | undefined> }>;
type Handler = (req: Req, reply: FastifyReply, rule: StoredRule) => unknown;

function parse<S extends z.ZodType>(schema: S, value: unknown, reply: FastifyReply, prefix?: string): z.infer<S> | undefined {
  const r = schema.safeParse(value ?? {});
  if (r.success) return r.data;
  sendApiError(reply, AgentsErrors.VALIDATION, issuesToErrors(r.error, prefix));
  return undefined;
}

/**
 * Registers alert rules and active alerts (paths relative to /v1). Every request first "syncs with
 * the monitoring backend": while the control surface makes that fail for the account, it answers 502.
 */
export function registerAlertRoutes(scope: FastifyInstance, ctx: TargetContext, monitor: Monitor): void {
  const nowIso = () => new Date(ctx.clock.now()).toISOString();
  const relative = (path: string) => path.replace(/^\/v1/, '');

  /** Wraps a handler with the backend sync and, for `:ruleId` paths, the rule lookup (422 malformed, 404 unknown). */
  const monitored =
    (handler: Handler) =>
    async (req: Req, reply: FastifyReply): Promise<unknown> => {
      const owner = ownerOf(req);
      if (monitor.syncFailures.has(owner.accountId)) {
        const entry = ctx.defects.has('alerts-sync-failure-500') ? AgentsErrors.INTERNAL : AgentsErrors.MONITORING_SYNC;
        return sendApiError(reply, entry);
      }
      const id = req.params.ruleId;
      // Paths without :ruleId never read the rule argument.
      if (id === undefined) return handler(req, reply, undefined as unknown as StoredRule);
      if (!RULE_ID.test(id))
        return sendApiError(reply, AgentsErrors.UNPROCESSABLE, [{ field: 'id', message: `malformed alert rule id (${ALERT_RULE_ID_PREFIX}…)` }]);
      const rule = monitor.rules.get(owner.accountId, id);
      if (!rule) return sendApiError(reply, AgentsErrors.NOT_FOUND, [{ field: 'id', message: 'no such alert rule' }]);
      return handler(req, reply, rule);
    };

  // A defect's: the enabled filter reads what each rule was created with.
  const enabledAtCreate = new Map<string, boolean>();
  const enabledOf = (r: StoredRule) => (ctx.defects.has('alerts-enabled-filter-at-create') ? (enabledAtCreate.get(r.id) ?? r.enabled) : r.enabled);

  const int32 = ctx.defects.has('alerts-threshold-int32');
  const createBody = int32 ? int32Threshold(RuleCreate) : RuleCreate;
  const updateBody = int32 ? int32Threshold(RuleUpdate) : RuleUpdate;

  // Counting the account's rules and storing the new one happen in one synchronous step, so a burst of creates cannot
  // pass the limit together; one defect counts from a replica of the monitoring backend that lags.
  const replicated = new Map<string, { count: number; at: number }>();
  const replica = (accountId: string): number => {
    const now = performance.now();
    const last = replicated.get(accountId);
    if (last && now - last.at < BACKEND_REPLICA_LAG_MS) return last.count;
    const count = monitor.rules.forAccount(accountId).length;
    replicated.set(accountId, { count, at: now });
    return count;
  };
  const create: Handler = async (req, reply) => {
    const owner = ownerOf(req);
    const body = parse(createBody, req.body, reply);
    if (!body) return reply;
    const limit = MAX_ALERT_RULES_PER_ACCOUNT + (ctx.defects.has('alerts-eleventh-rule-accepted') ? 1 : 0);
    const held = ctx.defects.has('alerts-rule-limit-races') ? replica(owner.accountId) : monitor.rules.forAccount(owner.accountId).length;
    if (held >= limit) {
      return sendApiError(reply, AgentsErrors.ALERT_RULE_LIMIT, [{ field: 'body', message: `at most ${MAX_ALERT_RULES_PER_ACCOUNT} alert rules per account` }]);
    }
    const rule = monitor.rules.create(owner.accountId, { ...DEFAULTS, ...body, project_id: body.project_id ?? null } as RuleFields, nowIso());
    if (ctx.defects.has('alerts-enabled-filter-at-create')) enabledAtCreate.set(rule.id, rule.enabled);
    return reply.code(201).send(ruleView(rule));
  };

  const list: Handler = (req, reply) => {
    const q = parse(AlertRulesListQuery, req.query, reply, 'query');
    if (!q) return reply;
    const ignoreState = ctx.defects.has('alerts-state-filter-ignored');
    const staleAlert = ctx.defects.has('alerts-state-filter-stale');
    const data = monitor.rules
      .forAccount(ownerOf(req).accountId)
      .filter(
        (r) =>
          (q.enabled === undefined || enabledOf(r) === q.enabled) &&
          (q.metric === undefined || r.metric === q.metric) &&
          (q.project_id === undefined || r.project_id === q.project_id) &&
          (q.state === undefined || ignoreState || r.state === q.state || (staleAlert && q.state === 'alert' && r.firing !== undefined)),
      )
      .map(ruleView);
    return { data };
  };

  const update: Handler = (req, reply, rule) => {
    const body = parse(updateBody, req.body, reply);
    if (!body) return reply;
    // The defect treats PATCH as a replacement: fields not sent fall back to the create defaults.
    const base = ctx.defects.has('alerts-patch-replaces') ? DEFAULTS : {};
    Object.assign(rule, base, Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)));
    rule.updated_at = nowIso();
    return ruleView(rule);
  };

  const active: Handler = (req) => ({
    data: monitor.rules
      .forAccount(ownerOf(req).accountId)
      .filter((r) => (r.state === 'alert' || ctx.defects.has('alerts-resolved-alert-still-listed')) && r.firing)
      .map((r) => alertView(r, r.firing as NonNullable<StoredRule['firing']>)),
  });

  const rules = relative(AlertsPaths.alertRules);
  // "Paths for reading, updating or deleting a single alert rule are not shown": these three are the reference's.
  const single = notShown('alerts.rules.single-rule-paths');
  const routes: readonly { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; handler: Handler; config?: typeof single.config }[] = [
    { method: 'POST', url: rules, handler: create },
    { method: 'GET', url: rules, handler: list },
    { method: 'GET', url: `${rules}/:ruleId`, handler: (_req, _reply, rule) => ruleView(rule), ...single },
    { method: 'PATCH', url: `${rules}/:ruleId`, handler: update, ...single },
    {
      ...single,
      method: 'DELETE',
      url: `${rules}/:ruleId`,
      handler: (_req, reply, rule) => {
        monitor.rules.delete(rule);
        return reply.code(204).send();
      },
    },
    { method: 'GET', url: relative(AlertsPaths.alerts), handler: active },
  ];
  for (const r of routes) scope.route({ method: r.method, url: r.url, config: r.config, handler: monitored(r.handler) });
}
