import type { AgentsCallOptions, AgentsClient } from '../../src/clients/agents.js';
import type { Response } from '../../src/clients/exchange.js';
import { unmutated } from '../../src/clients/mutation.js';
import type { AgentOperation } from '../../src/contract/agents/audit.js';
import { AgentCreateResponse, API_KEY_HEADER, DEFAULT_BRANCH, DeploymentsListResponse } from '../../src/contract/agents/shapes.js';
import type { AlertOperation } from '../../src/contract/alerts/audit.js';
import type { CaseApi } from '../../src/suite/case.js';
import type { PerOperationCase } from '../../src/suite/per-operation.js';

/** An agent, its default branch and a deployment the target issued, for the operations that act on one. */
export interface Issued {
  readonly agent: string;
  readonly branch: string;
  readonly deployment: string;
}

let issued: Promise<Issued> | undefined;

/**
 * The resources a key check acts on, made once per file with the profile's valid key and outside any mutation: the
 * documents do not say whether a missing resource or a bad key is refused first, so each case breaks the key rule
 * only, on resources that exist.
 */
export function issuedIds(t: CaseApi['t']): Promise<Issued> {
  issued ??= unmutated(async () => {
    const created = await t.agents.createAgent({ name: 'dialtone key checks', description: 'resources the key cases act on' });
    const agent = AgentCreateResponse.safeParse(created.json).data?.agentId;
    if (!agent) throw new Error(`POST /v1/agents answered ${created.status}: no agent for the key checks to act on`);
    await t.agents.publish(agent, 'sandbox');
    const listed = await t.agents.deployments(agent, { environment: 'sandbox' });
    const deployment = DeploymentsListResponse.safeParse(listed.json).data?.deployments[0]?.id;
    if (!deployment) throw new Error(`GET /v1/agents/${agent}/deployments answered ${listed.status} with no sandbox deployment to promote`);
    return { agent, branch: DEFAULT_BRANCH, deployment };
  });
  return issued;
}

/** For the operations that act on no agent. */
const NO_IDS: Issued = { agent: '', branch: '', deployment: '' };

type Send = (c: AgentsClient, o: AgentsCallOptions, ids: Issued) => Promise<Response<unknown>>;

/** How each documented operation of document 3 that a key guards is sent, with a well-formed body, on issued resources. */
export const SENDERS: Record<AgentOperation | AlertOperation, Send> = {
  'GET /v1/agents': (c, o) => c.listAgents(o),
  'POST /v1/agents': (c, o) => c.createAgent({ name: 'dialtone key check' }, o),
  'POST /v1/agents/{agentId}/branches': (c, o, { agent }) => c.createBranch(agent, { name: 'dialtone' }, o),
  'POST /v1/agents/{agentId}/branches/{branchId}/merge': (c, o, { agent, branch }) => c.merge(agent, branch, o),
  'PATCH /v1/agents/{agentId}/branches/{branchId}/behavior': (c, o, { agent, branch }) => c.updateBehavior(agent, branch, { behavior: 'dialtone' }, o),
  'POST /v1/agents/{agentId}/branches/{branchId}/knowledge-base/topics': (c, o, { agent, branch }) =>
    c.createTopic(agent, branch, { name: 'dialtone', content: 'x' }, o),
  'POST /v1/agents/{agentId}/deployments/publish': (c, o, { agent }) => c.publish(agent, 'sandbox', o),
  'POST /v1/agents/{agentId}/deployments/{deploymentId}/promote': (c, o, { agent, deployment }) => c.promote(agent, deployment, o),
  'GET /v1/agents/{agentId}/deployments': (c, o, { agent }) => c.deployments(agent, { environment: 'sandbox' }, o),
  'PATCH /v1/agents/{agentId}/real-time-configs/{config}/variables': (c, o, { agent }) => c.updateVariables(agent, 'dialtone', { greeting: 'hi' }, o),
  'GET /v1/alert-rules': (c, o) => c.listRules({}, o),
  'POST /v1/alert-rules': (c, o) =>
    c.createRule({ name: 'dialtone key check', metric: 'api_errors', operator: '>=', threshold_value: 5, window_duration: '5m' }, o),
  'GET /v1/alerts': (c, o) => c.alerts(o),
};

/** A case body that sends `operation` with the x-api-key header set to `key` (undefined: left out) and expects 401. */
function answers401(sentence: string, key: string | undefined, how: string): PerOperationCase<AgentOperation | AlertOperation> {
  return {
    sentence,
    body: async ({ t, check }, operation) => {
      const ids = operation.includes('{agentId}') ? await issuedIds(t) : NO_IDS;
      check.status(await SENDERS[operation](t.agents, { headers: { [API_KEY_HEADER]: key } }, ids), 401, `${operation} ${how} answers 401`);
    },
  };
}

/** The two key rules of the agents and alerts surfaces, as cases per operation. */
export const missingKey401 = (sentence: string) => answers401(sentence, undefined, 'without x-api-key');
export const invalidKey401 = (sentence: string) => answers401(sentence, 'dialtone-not-a-real-key', 'with a key the operator did not issue');
