import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROOT } from '../src/cli/root.js';
import { REFERENCE_HISTORY, TYPICAL_V1_WHITELIST } from '../src/contract/conversations/shapes.js';
import { contractFiles, referenceTargetOpenApi } from '../src/contract/exporter.js';
import { Rules } from '../src/contract/index.js';
import { REFERENCE_TARGET_OPENAPI, referenceTargetContract } from '../src/reference-target/contract.js';
import { type RunningTarget, startTarget } from '../src/reference-target/server.js';

const files = contractFiles();

describe('the exported contract', () => {
  it('is what docs/contract holds (regenerate with: npx dialtone contract)', async () => {
    for (const [name, text] of Object.entries({ ...files, [REFERENCE_TARGET_OPENAPI]: await referenceTargetContract() }))
      expect(readFileSync(`${ROOT}docs/contract/${name}`, 'utf8'), name).toBe(text);
  });

  it('is valid OpenAPI 3.1 for the HTTP surfaces, with every documented operation', async () => {
    const doc = JSON.parse(files['openapi.json'] as string);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths)).toContain('/api/v1/ice-servers');
    expect(doc.paths['/{version}/{account_id}/{project_id}/chat/close'].put.requestBody.content['application/json'].schema.required).toEqual([
      'conversation_id',
    ]);
  });

  it('rejects a broken OpenAPI document, so the validation can fail', async () => {
    const doc = JSON.parse(files['openapi.json'] as string);
    doc.paths['/api/v1/ice-servers'].get.responses = 'none';
    expect((await new Validator().validate(doc)).valid).toBe(false);
  });

  it('is valid AsyncAPI 3 for both sockets, and a broken one is not', async () => {
    const parser = new Parser();
    for (const name of ['asyncapi-messaging.json', 'asyncapi-voice.json']) {
      const { diagnostics } = await parser.parse(files[name] as string);
      expect(
        diagnostics.filter((d) => d.severity === 0).map((d) => d.message),
        name,
      ).toEqual([]);
    }
    const broken = JSON.parse(files['asyncapi-voice.json'] as string);
    broken.operations.send.action = 'publish';
    const { diagnostics } = await parser.parse(JSON.stringify(broken));
    expect(diagnostics.filter((d) => d.severity === 0).length).toBeGreaterThan(0);
  });
});

describe("the reference target's contract", () => {
  const published = JSON.parse(files['openapi.json'] as string);
  const operations = (doc: { paths: Record<string, Record<string, unknown>> }) =>
    Object.entries(doc.paths).flatMap(([path, entry]) =>
      Object.entries(entry)
        .filter(([method]) => method !== 'servers')
        .map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op: op as Record<string, unknown> })),
    );

  it('is valid OpenAPI 3.1: the published contract unchanged, and only operations marked not shown besides', async () => {
    const doc = JSON.parse(await referenceTargetContract());
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    const before = new Map(operations(published).map((o) => [o.at, o.op]));
    const added = operations(doc).filter((o) => !before.has(o.at));
    for (const o of operations(doc).filter((x) => before.has(x.at))) expect(o.op, o.at).toEqual(before.get(o.at));
    expect(added.map((o) => o.at).sort()).toEqual(
      [
        'GET /v1/agents/{agentId}/branches/{branchId}/attributes',
        'GET /v1/agents/{agentId}/branches/{branchId}/variants',
        'GET /v1/agents/{agentId}/voice',
        'GET /v1/agents/{agentId}/telephony/connectors',
        'GET /v1/agents/{agentId}/telephony/phone-numbers',
        'GET /v1/agents/{agentId}/real-time-configs/{config}/schema',
        'POST /v1/agents/{agentId}/deployments/{deploymentId}/rollback',
        'GET /v1/alert-rules/{ruleId}',
        'PATCH /v1/alert-rules/{ruleId}',
        'DELETE /v1/alert-rules/{ruleId}',
        'GET /v1/webhook-endpoints',
        'PATCH /v1/webhook-endpoints/{endpointId}',
        'DELETE /v1/webhook-endpoints/{endpointId}',
        'POST /v1/webhook-endpoints/{endpointId}/rotate-signing-secret',
      ].sort(),
    );
    const statements = new Set(Object.values(Rules).map((r) => r.statement));
    for (const { at, op } of added) {
      expect(statements.has(op['x-dialtone-not-shown'] as string), at).toBe(true);
      expect(Object.keys(op.responses as object), at).toEqual(['default']);
      // A body, where one may be sent, of any JSON: the documents show none.
      for (const media of Object.values((op.requestBody as { content?: Record<string, object> } | undefined)?.content ?? {})) expect(media, at).toEqual({});
    }
    expect(operations(published).filter((o) => 'x-dialtone-not-shown' in o.op)).toEqual([]);
  });

  it('refuses a route marked not shown that the documents give, or one on a host the contract has no server for', () => {
    expect(() =>
      referenceTargetOpenApi([{ host: 'agents_url', method: 'POST', path: '/v1/webhook-endpoints', rule: 'webhooks.endpoint.other-paths' }]),
    ).toThrow('POST /v1/webhook-endpoints is in the documented contract, and the reference target marks it not shown (webhooks.endpoint.other-paths)');
    expect(() =>
      referenceTargetOpenApi([{ host: 'agents_url', method: 'GET', path: '/v1/agents/:id/deployments', rule: 'agents.deployments.rollback' }]),
    ).toThrow('is in the documented contract');
    expect(() => referenceTargetOpenApi([{ host: 'control', method: 'GET', path: '/clock', rule: 'agents.deployments.rollback' }])).toThrow(
      "the reference target's host control has no server in the contract",
    );
  });
});

describe('the reference target against the exported conversations list', () => {
  const doc = JSON.parse(files['openapi.json'] as string);
  const listSchema = (version: 'v1' | 'v3') =>
    z.fromJSONSchema(doc.paths[`/${version}/{account_id}/{project_id}/conversations`].get.responses['2XX'].content['application/json'].schema);
  const week = { start_time: REFERENCE_HISTORY.start_time, end_time: new Date(Date.parse(REFERENCE_HISTORY.start_time) + 7 * 86_400_000).toISOString() };
  let target: RunningTarget;
  beforeAll(async () => {
    target = await startTarget();
  });
  afterAll(() => target?.close());

  const list = async (version: string, tenant: { account: string; project: string; key: string }, query: Record<string, string> = {}) => {
    const url = `${target.profile.hosts.base_url}/${version}/${tenant.account}/${tenant.project}/conversations?${new URLSearchParams({ ...week, limit: '20', ...query })}`;
    const res = await fetch(url, { headers: { 'x-api-key': tenant.key } });
    expect(res.status).toBe(200);
    return (await res.json()) as { conversations: Record<string, unknown>[] };
  };

  it('answers records the contract accepts, v1 of a whitelisting project (only the configured fields) included', async () => {
    const reference = { account: target.profile.account_id, project: target.profile.project_id, key: target.loaded.secrets.conversations_api_key as string };
    const queries: Record<string, string>[] = [{}, { include_latency: 'true' }, { query_type: 'transcript', query: 'booking' }, { sample: 'random' }];
    for (const query of queries) {
      for (const version of ['v1', 'v3'] as const) {
        const body = await list(version, reference, query);
        expect(body.conversations.length, `${version} ${JSON.stringify(query)}`).toBeGreaterThan(0);
        expect(listSchema(version).safeParse(body).error?.issues.slice(0, 3) ?? [], `${version} ${JSON.stringify(query)}`).toEqual([]);
      }
    }
    const control = target.profile.control as { url: string };
    const res = await fetch(`${control.url}/records/projects`, {
      method: 'POST',
      headers: { 'x-dialtone-control': target.loaded.secrets.control_token as string, 'content-type': 'application/json' },
      body: JSON.stringify({ enable_whitelist: true, whitelist_fields: [...TYPICAL_V1_WHITELIST] }),
    });
    const minted = (await res.json()) as { account_id: string; project_id: string; api_key: string };
    const whitelisting = { account: minted.account_id, project: minted.project_id, key: minted.api_key };
    const v1 = await list('v1', whitelisting);
    expect(Object.keys(v1.conversations[0] ?? {}).sort()).toEqual([...TYPICAL_V1_WHITELIST].sort());
    expect(listSchema('v1').safeParse(v1).error?.issues.slice(0, 3) ?? []).toEqual([]);
    expect(
      listSchema('v3')
        .safeParse(await list('v3', whitelisting))
        .error?.issues.slice(0, 3) ?? [],
    ).toEqual([]);
  });
});
