import type { AgentsCallOptions, AgentsClient } from '../../src/clients/agents.js';
import type { Response } from '../../src/clients/exchange.js';
import type { AgentOperation } from '../../src/contract/agents/audit.js';
import { API_KEY_HEADER } from '../../src/contract/agents/shapes.js';
import type { AlertOperation } from '../../src/contract/alerts/audit.js';
import type { PerOperationCase } from '../../src/suite/per-operation.js';

// Ids no target issued: a request without a valid key is refused before its resource is looked up.
const AGENT = 'agent-dialtone-000001';
const BRANCH = 'branch-dialtone-000001';
const DEPLOYMENT = 'deployment-dialtone-000001';

type Send = (c: AgentsClient, o: AgentsCallOptions, agent?: string) => Promise<Response<unknown>>;

/** How each documented operation of document 3 that a key guards is sent, with a well-formed body (on `agent`, else an id no target issued). */
export const SENDERS: Record<AgentOperation | AlertOperation, Send> = {
  'GET /v1/agents': (c, o) => c.listAgents(o),
  'POST /v1/agents': (c, o) => c.createAgent({ name: 'dialtone key check' }, o),
  'POST /v1/agents/{agentId}/branches': (c, o, agent = AGENT) => c.createBranch(agent, { name: 'dialtone' }, o),
  'POST /v1/agents/{agentId}/branches/{branchId}/merge': (c, o, agent = AGENT) => c.merge(agent, BRANCH, o),
  'PATCH /v1/agents/{agentId}/branches/{branchId}/behavior': (c, o, agent = AGENT) => c.updateBehavior(agent, BRANCH, { behavior: 'dialtone' }, o),
  'POST /v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics': (c, o, agent = AGENT) =>
    c.createTopic(agent, BRANCH, { name: 'dialtone', content: 'x' }, o),
  'POST /v1/agents/{agentId}/deployments/publish': (c, o, agent = AGENT) => c.publish(agent, 'sandbox', o),
  'POST /v1/agents/{agentId}/deployments/{deploymentId}/promote': (c, o, agent = AGENT) => c.promote(agent, DEPLOYMENT, o),
  'GET /v1/agents/{agentId}/deployments': (c, o, agent = AGENT) => c.deployments(agent, { environment: 'sandbox' }, o),
  'PATCH /v1/agents/{agentId}/real-time-configs/{config}/variables': (c, o, agent = AGENT) => c.updateVariables(agent, 'dialtone', { greeting: 'hi' }, o),
  'GET /v1/alert-rules': (c, o) => c.listRules({}, o),
  'POST /v1/alert-rules': (c, o) =>
    c.createRule({ name: 'dialtone key check', metric: 'api_errors', operator: '>=', threshold_value: 5, window_duration: '5m' }, o),
  'GET /v1/alerts': (c, o) => c.alerts(o),
};

/** A case body that sends `operation` with the x-api-key header set to `key` (undefined: left out) and expects 401. */
function answers401(sentence: string, key: string | undefined, how: string): PerOperationCase<AgentOperation | AlertOperation> {
  return {
    sentence,
    body: async ({ t, check }, operation) =>
      check.status(await SENDERS[operation](t.agents, { headers: { [API_KEY_HEADER]: key } }), 401, `${operation} ${how} answers 401`),
  };
}

/** The two key rules of the agents and alerts surfaces, as cases per operation. */
export const missingKey401 = (sentence: string) => answers401(sentence, undefined, 'without x-api-key');
export const invalidKey401 = (sentence: string) => answers401(sentence, 'dialtone-not-a-real-key', 'with a key the operator did not issue');
