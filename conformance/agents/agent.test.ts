import { AGENT_NAME_MAX, AGENT_NAME_MIN, AgentCreateResponse, AgentsPathsNotShown, DEFAULT_BRANCH } from '../../src/contract/agents/shapes.js';
import { rule } from '../../src/suite/case.js';

const keysOf = (v: unknown) => (v && typeof v === 'object' ? Object.keys(v).sort().join(', ') : typeof v);

rule('agents.agent.name-min-1', 'accepts a 1-character agent name and rejects an empty one', async ({ t, check }) => {
  check.success(await t.agents.createAgent({ name: 'a'.repeat(AGENT_NAME_MIN), description: 'shortest name' }), 'a 1-character name is accepted');
  check.rejected(await t.agents.createAgent({ name: '', description: 'empty name' }), 'an empty name is rejected');
});

rule('agents.agent.name-max-128', 'accepts a 128-character agent name and rejects a 129-character one', async ({ t, check }) => {
  check.success(await t.agents.createAgent({ name: 'm'.repeat(AGENT_NAME_MAX), description: 'longest name' }), 'a 128-character name is accepted');
  check.rejected(await t.agents.createAgent({ name: 'm'.repeat(AGENT_NAME_MAX + 1), description: 'one too long' }), 'a 129-character name is rejected');
});

rule('agents.agent.create-returns-agent-id', 'answers agent create with an agentId string', async ({ t, check }) => {
  const res = await t.agents.createAgent({ name: 'Front desk', description: 'answers the phone' });
  check.success(res, 'agent create succeeds');
  const { agentId } = check.schema(res, AgentCreateResponse.pick({ agentId: true }), 'agentId (string)');
  check.that(agentId.length > 0, 'a non-empty agentId', agentId);
});

rule('agents.agent.default-main-branch', 'gives a new agent the branch main, named in the response and usable in branch paths', async ({ t, check }) => {
  const res = await t.agents.createAgent({ name: 'Main branch check', description: 'default branch' });
  const { agentId } = check.schema(res, AgentCreateResponse.pick({ agentId: true }), 'agentId (string)');
  check.that(res.text.includes(`"${DEFAULT_BRANCH}"`), 'the create response names the default branch main', res.text.slice(0, 300));
  check.success(await t.agents.updateBehavior(agentId, DEFAULT_BRANCH, { behavior: 'Greet callers warmly.' }), 'branch main accepts a behavior update');
  check.success(await t.agents.createTopic(agentId, DEFAULT_BRANCH, { name: 'hours', content: 'Open 9 to 5.' }), 'branch main accepts a topic');
});

rule('agents.agent.description-required', 'records whether agent create needs a description', async ({ t, observe }) => {
  const res = await t.agents.createAgent({ name: 'No description' });
  observe('create without description', `${res.status} ${res.text.slice(0, 160)}`);
});

rule('agents.list.response-shape', 'records the shape of GET /v1/agents', async ({ t, observe }) => {
  const created = await t.agents.createAgent({ name: 'Listed agent', description: 'for the list' });
  const res = await t.agents.listAgents();
  observe('top-level fields', keysOf(res.json));
  observe('lists the agent just created', res.text.includes(String(created.json?.agentId)));
});

rule('agents.records.full-field-sets', 'records the fields of the agent, branch and topic records the target returns', async ({ t, observe }) => {
  const agent = await t.agents.createAgent({ name: 'Record fields', description: 'fields' });
  const agentId = String(agent.json?.agentId);
  observe('agent', keysOf(agent.json));
  const branch = await t.agents.createBranch(agentId, { name: 'fields' });
  observe('branch', keysOf(branch.json));
  const topic = await t.agents.createTopic(agentId, DEFAULT_BRANCH, { name: 'returns', content: 'Within 30 days.' });
  observe('topic', keysOf(topic.json));
});

rule('agents.paths.other-resources', 'records what the target answers on plausible paths the document only names', async ({ t, observe }) => {
  const agentId = String((await t.agents.createAgent({ name: 'Other resources', description: 'probe' })).json?.agentId);
  // The branch and config these paths would name: the default branch and the profile's real-time config page.
  const fill = (template: string) =>
    template.replace('{agentId}', encodeURIComponent(agentId)).replace('{branchId}', DEFAULT_BRANCH).replace('{config}', t.profile.names.realtime_config_page);
  for (const template of AgentsPathsNotShown.otherResources) observe(`GET ${template}`, (await t.agents.call('GET', fill(template))).status);
});

rule('agents.limits.rate-limits', 'records whether 20 quick list requests meet a rate limit', async ({ t, observe }) => {
  const statuses = new Map<number, number>();
  let headers: string[] = [];
  for (let i = 0; i < 20; i++) {
    const res = await t.agents.listAgents();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    headers = Object.keys(res.headers).filter((h) => /rate|retry/i.test(h));
  }
  observe('statuses', Object.fromEntries(statuses));
  observe('rate-limit headers', headers.join(', ') || 'none');
});
