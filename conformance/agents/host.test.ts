import { AgentsControl } from '../../src/clients/agents-control.js';
import { AgentKeyChecks, AgentPermissionChecks } from '../../src/contract/agents/audit.js';
import { AgentCreateResponse, AgentsErrors, API_KEY_HEADER, ApiError } from '../../src/contract/agents/shapes.js';
import { AgentsRegion } from '../../src/contract/common.js';
import type { CaseApi } from '../../src/suite/case.js';
import { rule } from '../../src/suite/case.js';
import { perOperation } from '../../src/suite/per-operation.js';
import { invalidKey401, issuedIds, missingKey401, SENDERS } from './keyed-operations.js';

/** Creates an agent with the profile's key and returns its id. */
async function newAgent({ t, check }: CaseApi): Promise<string> {
  const res = await t.agents.createAgent({ name: 'dialtone host case', description: 'made by the conformance suite' });
  check.success(res, 'agent create succeeds');
  return check.schema(res, AgentCreateResponse.pick({ agentId: true }), 'agentId (string)').agentId;
}

/** The same id with its last character changed: well-formed, but naming nothing. */
const otherId = (id: string) => `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;

/** Whether a documented example message is the body's message or one of its errors' messages. */
const carries = (body: unknown, text: string) => {
  const parsed = ApiError.safeParse(body);
  return parsed.success && (parsed.data.message === text || parsed.data.errors.some((e) => e.message === text));
};

rule('agents.host.region-required', 'serves the API on the regional host and answers an error on the host without a region', async ({ t, check }) => {
  const regional = await t.agents.listAgents();
  check.success(regional, 'GET /v1/agents on the regional host succeeds');
  check.that(
    AgentsRegion.safeParse(t.agents.region).success,
    'the regional host serves one of us, uk, eu',
    t.agents.region ?? 'no region in the profile or the host name',
  );
  const regionless = t.agents.regionlessUrl;
  check.that(
    regionless !== undefined,
    'a host without a region to call',
    'the profile names no hosts.agents_regionless_url and agents_url has no region label',
  );
  const res = await t.agents.listAgents({ baseUrl: regionless });
  check.that(res.status >= 400, 'the host without a region returns an error', `${res.status} ${res.text.slice(0, 200)}`);
});

rule('agents.host.region-error-shape', 'records the status and body the host without a region answers', async ({ t, observe }) => {
  const res = await t.agents.listAgents({ baseUrl: t.agents.regionlessUrl });
  observe('host without a region', `${res.status} ${res.text.slice(0, 200)}`);
});

rule('agents.path.v1-prefix', 'serves agents under /v1/agents and no other version prefix', async ({ t, check, observe }) => {
  const res = await t.agents.listAgents();
  check.success(res, 'GET /v1/agents succeeds');
  check.that(new URL(res.exchange.url).pathname.startsWith('/v1/agents'), 'the path starts with /v1/agents', res.exchange.url);
  const v2 = await t.agents.call('GET', '/v2/agents');
  check.rejected(v2, 'no other version (/v2/agents) is served');
  observe('/v2/agents', v2.status);
});

rule('agents.auth.x-api-key-header', 'answers GET /v1/agents 2xx with a valid key in x-api-key', async ({ t, check }) => {
  const res = await t.agents.listAgents();
  check.that(Object.keys(res.exchange.requestHeaders).includes(API_KEY_HEADER), 'the key sent in x-api-key', Object.keys(res.exchange.requestHeaders));
  check.success(res, 'a valid key in x-api-key is accepted');
});

perOperation(AgentKeyChecks, {
  'agents.auth.missing-key-401': missingKey401('answers 401 to an agent request without x-api-key'),
  'agents.auth.invalid-key-401': invalidKey401('answers 401 to an agent request with a key the operator did not issue'),
});

perOperation(AgentPermissionChecks, {
  'agents.auth.permission-403': {
    sentence: "answers 403 when a valid key of another workspace acts on this workspace's agent",
    body: async (api, operation) => {
      const { t, check } = api;
      const other = t.loaded.secrets.agents_other_workspace_key;
      check.that(other !== undefined, 'a second key, of another workspace', 'the profile names no credentials.agents_other_workspace_key');
      const foreign = t.agents.withKey(other as string);
      check.success(await foreign.listAgents(), 'the other key is itself valid (GET /v1/agents succeeds)');
      check.status(await SENDERS[operation](foreign, {}, await issuedIds(t)), 403, `${operation} with the other workspace key answers 403`);
    },
  },
});

rule('agents.errors.400-validation', 'answers 400 to a body whose fields have the wrong types', async (api) => {
  const { t, check } = api;
  check.status(await t.agents.createAgent({ name: 42 }), 400, 'agent create with a numeric name answers 400');
  const agentId = await newAgent(api);
  check.status(await t.agents.updateBehavior(agentId, 'main', { behavior: 7 }), 400, 'behavior update with a numeric behavior answers 400');
});

rule('agents.errors.404-not-found', 'answers 404 for an agent, branch or deployment that does not exist', async (api) => {
  const { t, check } = api;
  const agentId = await newAgent(api);
  check.status(await t.agents.createBranch(otherId(agentId), { name: 'nowhere' }), 404, 'a branch create on an unknown agent answers 404');
  const branch = await t.agents.createBranch(agentId, { name: 'real' });
  const branchId = String(branch.json?.branchId ?? 'br_000000000000');
  check.status(await t.agents.merge(agentId, otherId(branchId)), 404, 'a merge of an unknown branch answers 404');
  const published = await t.agents.publish(agentId, 'sandbox');
  const deploymentId = String(published.json?.id ?? 'dep_0000000000000000');
  check.status(await t.agents.promote(agentId, otherId(deploymentId)), 404, 'a promote of an unknown deployment answers 404');
});

rule('agents.errors.409-conflict', 'answers 409 with an error body to the merge of a diverged branch', async (api) => {
  const { t, check } = api;
  const agentId = await newAgent(api);
  const branchId = String((await t.agents.createBranch(agentId, { name: 'feature' })).json?.branchId);
  check.success(await t.agents.updateBehavior(agentId, branchId, { behavior: 'branch edit' }), 'the branch is edited');
  check.success(await t.agents.updateBehavior(agentId, 'main', { behavior: 'main edit' }), 'main is edited');
  const res = await t.agents.merge(agentId, branchId);
  check.status(res, 409, 'the merge of a diverged branch answers 409');
  check.schema(res, ApiError, 'the error body {message, errors}');
});

rule('agents.errors.422-malformed-id', 'answers 422 to a malformed agent id and to variables that break the config schema', async (api) => {
  const { t, check, observe } = api;
  check.status(await t.agents.deployments('not a valid id!', { environment: 'sandbox' }), 422, 'a malformed agentId answers 422');
  if (!t.capabilities.has('control')) {
    observe('schema validation error', 'not checked: defining a config schema needs the control surface');
    return;
  }
  const agentId = await newAgent(api);
  const page = t.profile.names.realtime_config_page;
  await new AgentsControl(t.control).defineConfig(agentId, page, { type: 'object', properties: { max_turns: { type: 'integer', maximum: 100 } } });
  check.status(await t.agents.updateVariables(agentId, page, { max_turns: 500 }), 422, 'variables that break the page schema answer 422');
});

rule(
  'agents.errors.500-internal',
  'answers 500 with an error body when an internal error happens',
  async (api) => {
    const { t, check } = api;
    const agentId = await newAgent(api);
    const dc = new AgentsControl(t.control);
    await dc.agentFault(agentId, true);
    try {
      const res = await t.agents.deployments(agentId, { environment: 'sandbox' });
      check.status(res, 500, 'a request hitting an internal error answers 500');
      check.schema(res, ApiError, 'the error body {message, errors}');
    } finally {
      await dc.agentFault(agentId, false);
    }
    check.success(await t.agents.deployments(agentId, { environment: 'sandbox' }), 'the agent answers again once the fault is gone');
  },
  { needs: ['control'] },
);

rule('agents.errors.body-shape', 'answers 401, 400 and 404 with {message, errors: [{field, message}]}', async (api) => {
  const { t, check } = api;
  const responses = [
    await t.agents.listAgents({ headers: { [API_KEY_HEADER]: undefined } }),
    await t.agents.createAgent({ name: '' }),
    await t.agents.deployments(otherId(await newAgent(api)), { environment: 'sandbox' }),
  ];
  for (const res of responses) {
    check.rejected(res, 'an error answer');
    check.schema(res, ApiError, `the ${res.status} body is {message (string), errors (array of {field, message})}`);
  }
});

rule('agents.errors.name-length-message', 'rejects names of 0 and 200 characters with the documented message', async ({ t, check }) => {
  const text = AgentsErrors.NAME_LENGTH.text;
  for (const name of ['', 'n'.repeat(200)]) {
    const res = await t.agents.createAgent({ name, description: 'length check' });
    check.that(res.status === 400 || res.status === 422, `a ${name.length}-character name is rejected with 400 or 422`, res.status);
    check.that(carries(res.json, text), `"${text}" in message or an errors entry`, res.text.slice(0, 300));
  }
});
