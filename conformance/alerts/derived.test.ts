import type { AgentsClient } from '../../src/clients/agents.js';
import { caseAccount } from '../../src/clients/agents-control.js';
import { AlertRulesListResponse } from '../../src/contract/alerts/shapes.js';
import { ALERT_RULES_PER_ACCOUNT } from '../../src/contract/limits.js';
import type { CaseApi } from '../../src/suite/case.js';
import { burstCase } from '../../src/suite/derived/bursts.js';
import { deriveRequestCases } from '../../src/suite/derived/cases.js';

// Cases derived from the contract (src/contract/operations.ts, limits.ts): each documented bound of a request field at
// its edges, and the rules-per-account limit under a burst. Only how to send a valid request is written here.

/** A valid create body. */
const body = (o: Record<string, unknown> = {}) => ({
  name: 'dialtone derived',
  metric: 'api_errors',
  operator: '>=',
  threshold_value: 10,
  window_duration: '5m',
  ...o,
});

/** The case's account, minted once per case on the reference target so the limit is the case's own. */
const accounts = new WeakMap<CaseApi, Promise<AgentsClient>>();
function account(api: CaseApi): Promise<AgentsClient> {
  let client = accounts.get(api);
  if (!client) {
    client = caseAccount(api.t.agents, api.t.capabilities.has('control') ? api.t.control : undefined).then((a) => a.client);
    accounts.set(api, client);
  }
  return client;
}

deriveRequestCases('alerts', {
  'POST /v1/alert-rules': async (api, change) => (await account(api)).createRule(body(change.body)),
});

let n = 0;
burstCase<AgentsClient>(ALERT_RULES_PER_ACCOUNT, {
  setup: account,
  held: async (api, client) => api.check.schema(await client.listRules(), AlertRulesListResponse, '{data: [rule]}').data.length,
  take: async (_api, client) => ({ status: (await client.createRule(body({ name: `dialtone burst ${++n}` }))).status }),
});
