// alerts-polling: a monitoring console's polling of the alerting interface (document 3): each iteration lists the
// account's alert rules (`GET /v1/alert-rules`, "Response `{data: [rule]}`") and its active alerts (`GET /v1/alerts`,
// whose response shape is not shown: only its status is judged), on an arrival-rate executor, so a slow target shows
// as latency and dropped iterations rather than as fewer polls. Read only: it creates nothing, so the account's limit
// of 10 alert rules is never reached and nothing is left behind.
import { check } from 'k6';
import http, { type Params } from 'k6/http';
import { Rate } from 'k6/metrics';
import type { Options } from 'k6/options';
import { AlertsHeaders, AlertsPaths } from '../src/contract/alerts/wire.js';
import { loadConfig, requestTimeout, secret } from '../src/load/vu/config.js';

const cfg = loadConfig();

const answered = new Rate('alerts_poll_answered');

export const options: Options = {
  scenarios: { alerts: cfg.shape },
  // The SLOs (scenarios/alerts-polling.defaults.ts, with the profile's `slos`): a breach fails the run through k6's exit code (99).
  thresholds: cfg.thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

/** The request parameters of each list, made once per VU on its first iteration (init code cannot read secrets lazily). */
let lists: { base: string; rules: Params; alerts: Params } | undefined;

function listsOf(): { base: string; rules: Params; alerts: Params } {
  const headers = { [AlertsHeaders.apiKey]: secret(cfg, 'agents_api_key') };
  const params = (op: string): Params => ({ headers, tags: { op, name: op }, timeout: requestTimeout(cfg, op) });
  return { base: (cfg.target.hosts.agents_url ?? '').replace(/\/$/, ''), rules: params('alerts.rules.list'), alerts: params('alerts.list') };
}

export default async function alertsPolling(): Promise<void> {
  lists ??= listsOf();
  const rules = await http.asyncRequest('GET', `${lists.base}${AlertsPaths.alertRules}`, null, lists.rules);
  const rulesListed = check(rules, {
    'alert rules listed': (r) => r.status === 200 && Array.isArray((r.json() as { data?: unknown } | null)?.data),
  });
  const alerts = await http.asyncRequest('GET', `${lists.base}${AlertsPaths.alerts}`, null, lists.alerts);
  const alertsListed = check(alerts, { 'active alerts listed': (r) => r.status === 200 });
  answered.add(rulesListed && alertsListed);
}
