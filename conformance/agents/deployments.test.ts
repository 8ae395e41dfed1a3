import { AgentsControl } from '../../src/clients/agents-control.js';
import { AgentCreateResponse, AgentsPathsNotShown, Deployment, DeploymentEnvironment, DeploymentsListResponse } from '../../src/contract/agents/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';

async function newAgent({ t, check }: CaseApi, name: string): Promise<string> {
  const res = await t.agents.createAgent({ name, description: 'deployment cases' });
  check.success(res, 'agent create succeeds');
  return check.schema(res, AgentCreateResponse.pick({ agentId: true }), 'agentId (string)').agentId;
}

/** Lists one environment's deployments and parses the documented shape. */
async function listed({ t, check }: CaseApi, agentId: string, environment: string, limit?: number): Promise<Deployment[]> {
  const res = await t.agents.deployments(agentId, { environment, ...(limit !== undefined ? { limit } : {}) });
  check.success(res, `the ${environment} list succeeds`);
  return check.schema(res, DeploymentsListResponse, '{deployments: [deployment]}').deployments;
}

/** Publishes to sandbox and returns the record when the response is one (the response shape is not shown). */
async function published({ t, check }: CaseApi, agentId: string): Promise<Deployment | undefined> {
  const res = await t.agents.publish(agentId, 'sandbox');
  check.success(res, 'publish to sandbox succeeds');
  const parsed = Deployment.safeParse(res.json);
  // The body is not shown, but a deployment record in it must report the environment it was published to.
  if (parsed.success) check.equal(parsed.data.environment, 'sandbox', 'a publish response that is a deployment record reports environment sandbox');
  return parsed.success ? parsed.data : undefined;
}

/** Promotes a deployment and finds it in the next environment's list: the same id, or the same artifactVersion. */
async function promoted(api: CaseApi, agentId: string, from: Deployment, to: string): Promise<Deployment | undefined> {
  const res = await api.t.agents.promote(agentId, from.id);
  api.check.that(res.exchange.requestBody === undefined, 'promote is sent with no body', res.exchange.requestBody);
  api.check.success(res, `promote to ${to} succeeds`);
  // The body is not shown (agents.deployments.response-shapes), but one that is a deployment record must not
  // contradict the transition: it names the promoted deployment's environment, which is now `to`.
  const record = Deployment.safeParse(res.json);
  if (record.success) api.check.equal(record.data.environment, to, `a promote response that is a deployment record reports environment ${to}`);
  return (await listed(api, agentId, to)).find((d) => d.id === from.id || d.artifactVersion === from.artifactVersion);
}

/** Three sandbox deployments, oldest first, identified by the publish responses or else by the list. */
async function threePublished(api: CaseApi, agentId: string): Promise<string[]> {
  const ids: (string | undefined)[] = [];
  for (let i = 0; i < 3; i++) ids.push((await published(api, agentId))?.id);
  if (ids.every((id) => id !== undefined)) return ids as string[];
  return (await listed(api, agentId, 'sandbox')).map((d) => d.id).reverse();
}

rule('agents.deployments.publish-sandbox', 'publishes to sandbox and lists the new deployment under sandbox', async (api) => {
  const agentId = await newAgent(api, 'Publish');
  const before = await listed(api, agentId, 'sandbox');
  const record = await published(api, agentId);
  const after = await listed(api, agentId, 'sandbox');
  api.check.equal(after.length, before.length + 1, 'one more deployment under sandbox');
  if (record)
    api.check.that(
      after.some((d) => d.id === record.id),
      'the published deployment is listed',
      after.map((d) => d.id),
    );
});

rule('agents.deployments.environment-enum', 'accepts sandbox, pre-release and live as publish environments and rejects staging', async (api) => {
  const agentId = await newAgent(api, 'Environments');
  for (const env of DeploymentEnvironment.options) api.check.success(await api.t.agents.publish(agentId, env), `environment ${env} is accepted`);
  api.check.rejected(await api.t.agents.publish(agentId, 'staging'), 'environment staging is rejected');
});

rule('agents.deployments.publish-other-environments', 'records what publishing straight to pre-release or live does', async (api) => {
  const agentId = await newAgent(api, 'Direct publish');
  for (const env of ['pre-release', 'live']) {
    const res = await api.t.agents.publish(agentId, env);
    const listedThere = (await api.t.agents.deployments(agentId, { environment: env })).json?.deployments;
    api.observe(`publish to ${env}`, `${res.status}; listed under ${env}: ${Array.isArray(listedThere) ? listedThere.length : 'n/a'}`);
  }
});

rule('agents.deployments.promote-sandbox-to-pre-release', 'promotes a sandbox deployment into pre-release', async (api) => {
  const agentId = await newAgent(api, 'Promote once');
  const record = await published(api, agentId);
  const from = record ?? (await listed(api, agentId, 'sandbox'))[0];
  api.check.that(from !== undefined, 'a sandbox deployment to promote', 'none listed');
  const there = await promoted(api, agentId, from as Deployment, 'pre-release');
  api.check.that(there !== undefined, 'the promoted deployment is listed under pre-release', 'not listed');
  api.check.equal(there?.environment, 'pre-release', 'environment pre-release');
});

rule('agents.deployments.promote-pre-release-to-live', 'promotes the pre-release deployment on into live', async (api) => {
  const agentId = await newAgent(api, 'Promote twice');
  const from = (await published(api, agentId)) ?? (await listed(api, agentId, 'sandbox'))[0];
  const pre = await promoted(api, agentId, from as Deployment, 'pre-release');
  api.check.that(pre !== undefined, 'a pre-release deployment to promote', 'not listed');
  const live = await promoted(api, agentId, pre as Deployment, 'live');
  api.check.that(live !== undefined, 'the promoted deployment is listed under live', 'not listed');
  api.check.equal(live?.environment, 'live', 'environment live');
});

rule('agents.deployments.promote-live', 'records what promoting a live deployment answers', async (api) => {
  const agentId = await newAgent(api, 'Promote live');
  await api.t.agents.publish(agentId, 'live');
  const live = (await api.t.agents.deployments(agentId, { environment: 'live' })).json?.deployments as Deployment[] | undefined;
  const res = await api.t.agents.promote(agentId, live?.[0]?.id ?? 'dep_0000000000000000');
  api.observe('promote of a live deployment', `${res.status} ${res.text.slice(0, 160)}`);
});

rule('agents.deployments.response-shapes', 'records the bodies of publish and promote', async (api) => {
  const agentId = await newAgent(api, 'Shapes');
  const pub = await api.t.agents.publish(agentId, 'sandbox');
  api.observe('publish', `${pub.status} ${pub.text.slice(0, 200)}`);
  const prom = await api.t.agents.promote(agentId, String(pub.json?.id));
  api.observe('promote', `${prom.status} ${prom.text.slice(0, 200)}`);
});

rule('agents.deployments.rollback', 'records what a rollback request answers', async (api) => {
  const agentId = await newAgent(api, 'Rollback');
  const pub = await api.t.agents.publish(agentId, 'sandbox');
  const path = AgentsPathsNotShown.rollback
    .replace('{agentId}', encodeURIComponent(agentId))
    .replace('{deploymentId}', encodeURIComponent(String(pub.json?.id)));
  const res = await api.t.agents.call('POST', path);
  api.observe('POST …/deployments/{deploymentId}/rollback', `${res.status} ${res.text.slice(0, 160)}`);
});

rule('agents.deployments.record-fields', 'lists deployment records with every documented field and type', async (api) => {
  const agentId = await newAgent(api, 'Record');
  await published(api, agentId);
  const [first] = await listed(api, agentId, 'sandbox');
  api.check.that(first !== undefined, 'a listed deployment', 'none');
  api.check.equal(first?.agentId, agentId, "the record's agentId is the agent's");
  api.check.equal(first?.environment, 'sandbox', "the record's environment is sandbox");
});

rule('agents.deployments.list-shape', 'answers the deployment list as {deployments: [...]}', async (api) => {
  const agentId = await newAgent(api, 'List shape');
  await listed(api, agentId, 'sandbox');
});

rule('agents.deployments.newest-first', 'lists the most recently created deployment first', async (api) => {
  const agentId = await newAgent(api, 'Newest first');
  const ids = await threePublished(api, agentId);
  const order = (await listed(api, agentId, 'sandbox')).map((d) => d.id);
  api.check.equal(order, [...ids].reverse(), 'newest first: the reverse of the publish order');
});

rule('agents.deployments.environment-required', 'rejects the deployment list without environment with 400', async (api) => {
  const agentId = await newAgent(api, 'No environment');
  await published(api, agentId);
  api.check.status(await api.t.agents.deployments(agentId, {}), 400, 'the list without environment answers 400');
});

rule('agents.deployments.environment-filter', 'lists only the deployments of the requested environment', async (api) => {
  const agentId = await newAgent(api, 'Filter');
  const first = await published(api, agentId);
  await published(api, agentId);
  await promoted(api, agentId, first ?? ((await listed(api, agentId, 'sandbox'))[0] as Deployment), 'pre-release');
  for (const env of ['sandbox', 'pre-release']) {
    const rows = await listed(api, agentId, env);
    api.check.that(rows.length > 0, `deployments under ${env}`, rows.length);
    api.check.that(
      rows.every((d) => d.environment === env),
      `only ${env} deployments`,
      rows.map((d) => d.environment),
    );
  }
});

rule('agents.deployments.limit-caps-count', 'returns at most limit deployments, the newest ones', async (api) => {
  const agentId = await newAgent(api, 'Limit');
  const ids = await threePublished(api, agentId);
  const rows = await listed(api, agentId, 'sandbox', 2);
  api.check.equal(rows.length, 2, 'limit 2 returns 2 of 3');
  api.check.equal(rows.map((d) => d.id).sort(), ids.slice(1).sort(), 'the two newest deployments');
});

rule('agents.deployments.limit-default', 'records how many deployments come back without limit, and what limit 0 answers', async (api) => {
  const agentId = await newAgent(api, 'Limit default');
  for (let i = 0; i < 3; i++) await api.t.agents.publish(agentId, 'sandbox');
  const all = await api.t.agents.deployments(agentId, { environment: 'sandbox' });
  api.observe('without limit, of 3', Array.isArray(all.json?.deployments) ? all.json.deployments.length : all.status);
  api.observe('limit=0', (await api.t.agents.deployments(agentId, { environment: 'sandbox', limit: 0 })).status);
});

const PAGE = { type: 'object', properties: { greeting: { type: 'string', maxLength: 80 }, max_turns: { type: 'integer', minimum: 1, maximum: 100 } } };

rule(
  'agents.realtime.variables-update',
  'accepts {variables: object} on a real-time config page',
  async (api) => {
    const agentId = await newAgent(api, 'Realtime');
    const page = api.t.profile.names.realtime_config_page;
    await new AgentsControl(api.t.control).defineConfig(agentId, page, PAGE);
    api.check.success(await api.t.agents.updateVariables(agentId, page, { greeting: 'Welcome to North branch', max_turns: 12 }), 'PATCH variables succeeds');
  },
  { needs: ['control'] },
);

rule(
  'agents.realtime.immediate-no-publish',
  'puts real-time variables in effect at once, with no publish and no new deployment',
  async (api) => {
    const { t, check } = api;
    const agentId = await newAgent(api, 'Realtime effect');
    const dc = new AgentsControl(t.control);
    const page = t.profile.names.realtime_config_page;
    await dc.defineConfig(agentId, page, PAGE);
    await published(api, agentId);
    const counts = async () => Promise.all(DeploymentEnvironment.options.map(async (env) => (await listed(api, agentId, env)).length));
    const before = await counts();
    const variables = { greeting: 'Closed for the holiday', max_turns: 3 };
    check.success(await t.agents.updateVariables(agentId, page, variables), 'PATCH variables succeeds');
    check.equal((await dc.agent(agentId)).configs[page]?.variables, variables, 'the variables are in effect at once, with no publish');
    check.equal(await counts(), before, 'no deployment record is created');
  },
  { needs: ['control'] },
);
