import { AgentCreateResponse } from '../../src/contract/agents/shapes.js';
import { deriveRequestCases } from '../../src/suite/derived/cases.js';

// Cases derived from the contract (src/contract/operations.ts): each documented bound of a request field, checked at its
// edges, in other scripts and forms for a length in characters. Only how to send a valid request is written here.

deriveRequestCases('agents', {
  'POST /v1/agents': (api, change) => api.t.agents.createAgent({ name: 'dialtone derived', description: 'derived check', ...change.body }),
  'GET /v1/agents/{agentId}/deployments': async (api, change) => {
    const created = await api.t.agents.createAgent({ name: 'dialtone derived', description: 'deployments to list' });
    const { agentId } = api.check.schema(created, AgentCreateResponse.pick({ agentId: true }), 'an agent to list the deployments of');
    return api.t.agents.deployments(agentId, { environment: 'sandbox', ...change.query });
  },
});
