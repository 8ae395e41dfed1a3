import { AgentOperations, AgentScopedOperations } from '../../contract/agents/audit.js';
import { onEachOperation, type Proofs } from './spec.js';

/** How each documented agents rule is broken from outside (found by scripts/find-mutations.ts, proven by every self-test). */
export const agentsProofs: Proofs = {
  'agents.host.region-required': { mutation: { on: { method: 'GET', path: '/v1/agents', nth: 1 }, how: 'status-class' } },
  'agents.path.v1-prefix': { mutation: { on: { method: 'GET', path: '/v2/agents', nth: 0 }, how: 'status-class' } },
  'agents.auth.x-api-key-header': { mutation: { on: { method: 'GET', path: '/v1/agents', nth: 0 }, how: 'status-class' } },
  'agents.auth.missing-key-401': {
    mutation: { on: { method: 'GET', path: '/v1/agents', nth: 0 }, how: 'status-near' },
    operations: onEachOperation(AgentOperations.slice(1), 'status-near'),
  },
  'agents.auth.invalid-key-401': {
    mutation: { on: { method: 'GET', path: '/v1/agents', nth: 0 }, how: 'status-near' },
    operations: onEachOperation(AgentOperations.slice(1), 'status-near'),
  },
  'agents.auth.permission-403': {
    mutation: { on: { method: 'POST', path: '/v1/agents/*/branches', nth: 0 }, how: 'status-near' },
    operations: onEachOperation(AgentScopedOperations.slice(1), 'status-near'),
  },
  'agents.errors.400-validation': { mutation: { on: { method: 'PATCH', path: '/v1/agents/*/branches/main/behavior', nth: 0 }, how: 'status-near' } },
  'agents.errors.404-not-found': { mutation: { on: { method: 'POST', path: '/v1/agents/*/deployments/*/promote', nth: 0 }, how: 'status-near' } },
  'agents.errors.409-conflict': { mutation: { on: { method: 'POST', path: '/v1/agents/*/branches/*/merge', nth: 0 }, how: 'status-near' } },
  'agents.errors.422-malformed-id': {
    mutation: { on: { method: 'PATCH', path: '/v1/agents/*/real-time-configs/site/variables', nth: 0 }, how: 'status-near' },
  },
  'agents.errors.500-internal': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 0 }, how: 'status-near' } },
  'agents.errors.body-shape': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 0 }, how: 'empty' } },
  'agents.errors.name-length-message': { mutation: { on: { method: 'POST', path: '/v1/agents', nth: 1 }, how: 'values' } },
  'agents.agent.name-min-1': { mutation: { on: { method: 'POST', path: '/v1/agents', nth: 1 }, how: 'status-class' } },
  'agents.agent.name-max-128': { mutation: { on: { method: 'POST', path: '/v1/agents', nth: 1 }, how: 'status-class' } },
  'agents.agent.create-returns-agent-id': { mutation: { on: { method: 'POST', path: '/v1/agents', nth: 0 }, how: 'empty' } },
  'agents.agent.default-main-branch': { mutation: { on: { method: 'POST', path: '/v1/agents', nth: 0 }, how: 'empty' } },
  'agents.branch.create': { mutation: { on: { method: 'POST', path: '/v1/agents/*/branches', nth: 0 }, how: 'empty' } },
  'agents.branch.scoping': { mutation: { on: { method: 'POST', path: '/v1/agents/*/branches', nth: 0 }, how: 'empty' } },
  'agents.behavior.update': { mutation: { on: { method: 'POST', path: '/v1/agents', nth: 0 }, how: 'empty' } },
  'agents.kb.topic-create': { mutation: { on: { method: 'POST', path: '/v1/agents/*/branches', nth: 0 }, how: 'empty' } },
  'agents.merge.not-diverged-merged': { mutation: { on: { method: 'POST', path: '/v1/agents/*/branches/*/merge', nth: 0 }, how: 'status-class' } },
  'agents.merge.diverged-409': { mutation: { on: { method: 'POST', path: '/v1/agents/*/branches/*/merge', nth: 0 }, how: 'status-class' } },
  'agents.deployments.publish-sandbox': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 1 }, how: 'status-class' } },
  'agents.deployments.environment-enum': { mutation: { on: { method: 'POST', path: '/v1/agents', nth: 0 }, how: 'values' } },
  'agents.deployments.promote-sandbox-to-pre-release': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 0 }, how: 'status-class' } },
  'agents.deployments.promote-pre-release-to-live': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 1 }, how: 'status-class' } },
  'agents.deployments.record-fields': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 0 }, how: 'empty' } },
  'agents.deployments.list-shape': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 0 }, how: 'empty' } },
  'agents.deployments.newest-first': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 0 }, how: 'empty' } },
  'agents.deployments.environment-required': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 0 }, how: 'status-near' } },
  'agents.deployments.environment-filter': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 2 }, how: 'empty' } },
  'agents.deployments.limit-caps-count': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 0 }, how: 'drop-item' } },
  'agents.realtime.variables-update': { mutation: { on: { method: 'POST', path: '/v1/agents', nth: 0 }, how: 'empty' } },
  'agents.realtime.immediate-no-publish': { mutation: { on: { method: 'GET', path: '/v1/agents/*/deployments', nth: 5 }, how: 'status-class' } },
};
