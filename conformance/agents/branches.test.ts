import { AgentsControl } from '../../src/clients/agents-control.js';
import { AgentCreateResponse, BranchCreateResponse, DEFAULT_BRANCH } from '../../src/contract/agents/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';

async function newAgent({ t, check }: CaseApi, name: string): Promise<string> {
  const res = await t.agents.createAgent({ name, description: 'branch cases' });
  check.success(res, 'agent create succeeds');
  return check.schema(res, AgentCreateResponse.pick({ agentId: true }), 'agentId (string)').agentId;
}

async function newBranch({ t, check }: CaseApi, agentId: string, name: string): Promise<string> {
  const res = await t.agents.createBranch(agentId, { name });
  check.success(res, 'branch create succeeds');
  return check.schema(res, BranchCreateResponse.pick({ branchId: true }), 'branchId (string)').branchId;
}

rule('agents.branch.create', 'creates a branch whose id the branch paths accept', async (api) => {
  const agentId = await newAgent(api, 'Branch create');
  const branchId = await newBranch(api, agentId, 'spring-offers');
  api.check.success(
    await api.t.agents.updateBehavior(agentId, branchId, { behavior: 'Mention the spring offers.' }),
    'the new branch id works in a branch path',
  );
});

rule('agents.branch.scoping', 'edits behavior and topics under a branch, and deploys and configures at agent level', async (api) => {
  const { t, check } = api;
  const agentId = await newAgent(api, 'Branch scoping');
  const branchId = await newBranch(api, agentId, 'scoped');
  check.success(await t.agents.updateBehavior(agentId, branchId, { behavior: 'Only on the branch.' }), 'behavior is edited under a branch path');
  check.success(
    await t.agents.createTopic(agentId, branchId, { name: 'branch-only', content: 'Only on the branch.' }),
    'topics are created under a branch path',
  );
  check.success(await t.agents.publish(agentId, 'sandbox'), 'publish is an agent-level path');
  check.success(await t.agents.deployments(agentId, { environment: 'sandbox' }), 'the deployment list is an agent-level path');
  const branchScoped = await t.agents.call('GET', `/v1/agents/${agentId}/branches/${branchId}/deployments`, undefined, { query: { environment: 'sandbox' } });
  check.rejected(branchScoped, 'deployments are not served under a branch segment');
  if (t.capabilities.has('control')) {
    const state = await new AgentsControl(t.control).agent(agentId);
    const main = state.branches.find((b) => b.branchId === DEFAULT_BRANCH);
    const branch = state.branches.find((b) => b.branchId === branchId);
    check.equal([branch?.behavior, branch?.topics], ['Only on the branch.', ['branch-only']], 'the branch holds its behavior and topic');
    check.equal([main?.behavior, main?.topics], ['', []], 'main is untouched by edits on the branch');
  }
});

rule('agents.behavior.update', 'accepts a behavior update on branch main', async (api) => {
  const agentId = await newAgent(api, 'Behavior');
  api.check.success(await api.t.agents.updateBehavior(agentId, DEFAULT_BRANCH, { behavior: 'You are a helpful receptionist.' }), 'PATCH behavior succeeds');
});

rule('agents.kb.topic-create', 'accepts a knowledge-base topic with name and content', async (api) => {
  const agentId = await newAgent(api, 'Topics');
  const branchId = await newBranch(api, agentId, 'kb');
  api.check.success(
    await api.t.agents.createTopic(agentId, branchId, { name: 'parking', content: 'Free parking behind the building.' }),
    'topic create succeeds',
  );
});

rule('agents.merge.not-diverged-merged', 'merges a branch that changed while main did not, with no body', async (api) => {
  const { t, check } = api;
  const agentId = await newAgent(api, 'Merge');
  const branchId = await newBranch(api, agentId, 'tone');
  check.success(await t.agents.updateBehavior(agentId, branchId, { behavior: 'Be brief.' }), 'the branch is edited');
  const res = await t.agents.merge(agentId, branchId);
  check.that(res.exchange.requestBody === undefined, 'the merge is sent with no body', res.exchange.requestBody);
  check.success(res, 'the merge succeeds');
  if (t.capabilities.has('control')) {
    const main = (await new AgentsControl(t.control).agent(agentId)).branches.find((b) => b.branchId === DEFAULT_BRANCH);
    check.equal(main?.behavior, 'Be brief.', "main carries the branch's behavior after the merge");
  }
});

rule('agents.merge.diverged-409', 'answers 409 to the merge of a branch when both it and main changed', async (api) => {
  const { t, check } = api;
  const agentId = await newAgent(api, 'Diverged');
  const branchId = await newBranch(api, agentId, 'diverging');
  check.success(await t.agents.createTopic(agentId, branchId, { name: 'branch', content: 'branch side' }), 'the branch changes');
  check.success(await t.agents.createTopic(agentId, DEFAULT_BRANCH, { name: 'main', content: 'main side' }), 'main changes');
  check.status(await t.agents.merge(agentId, branchId), 409, 'the merge of the diverged branch answers 409');
});
