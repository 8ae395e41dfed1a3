import { mintedAccount } from '../../src/clients/agents-control.js';
import { API_KEY_HEADER } from '../../src/contract/agents/shapes.js';
import { AlertKeyChecks } from '../../src/contract/alerts/audit.js';
import { AlertRule, AlertRulesListResponse } from '../../src/contract/alerts/shapes.js';
import { rule } from '../../src/suite/case.js';
import { perOperation } from '../../src/suite/per-operation.js';
import { invalidKey401, missingKey401 } from '../agents/keyed-operations.js';

rule('alerts.auth.x-api-key-header', 'answers GET /v1/alert-rules 2xx with a valid key in x-api-key', async ({ t, check }) => {
  const res = await t.agents.listRules();
  check.that(Object.keys(res.exchange.requestHeaders).includes(API_KEY_HEADER), 'the key sent in x-api-key', Object.keys(res.exchange.requestHeaders));
  check.success(res, 'a valid key in x-api-key is accepted');
});

perOperation(AlertKeyChecks, {
  'alerts.auth.missing-key-401': missingKey401('answers 401 to an alert request without x-api-key'),
  'alerts.auth.invalid-key-401': invalidKey401('answers 401 to an alert request with a key the operator did not issue'),
});

rule(
  'alerts.auth.account-scoped',
  "does not list one account's rule to another account's key",
  async ({ t, check }) => {
    const a = await mintedAccount(t.agents, t.control);
    const b = await mintedAccount(t.agents, t.control);
    const created = await a.client.createRule({ name: 'account A only', metric: 'api_errors', operator: '>=', threshold_value: 5, window_duration: '5m' });
    const id = check.schema(created, AlertRule.pick({ id: true }), 'the created rule').id;
    const mine = check.schema(await a.client.listRules(), AlertRulesListResponse, '{data: [rule]}').data;
    check.that(
      mine.some((r) => r.id === id),
      "the rule is listed to its own account's key",
      mine.map((r) => r.id),
    );
    const theirs = check.schema(await b.client.listRules(), AlertRulesListResponse, '{data: [rule]}').data;
    check.that(
      !theirs.some((r) => r.id === id),
      "the rule is not listed to another account's key",
      theirs.map((r) => r.id),
    );
  },
  { needs: ['control'] },
);
