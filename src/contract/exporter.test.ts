import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as agents from './agents/shapes.js';
import { AGENTS_ERROR_STATUSES, AgentsErrors } from './agents/shapes.js';
import * as audio from './audio/shapes.js';
import * as bridge from './bridge/shapes.js';
import { BRIDGE_ENDED_REFERENCE_STATUS } from './bridge/shapes.js';
import * as chat from './chat/shapes.js';
import { AgentsRegion, RuntimeRegion } from './common.js';
import * as concurrency from './concurrency/shapes.js';
import { CONCURRENCY_ERROR_STATUSES } from './concurrency/shapes.js';
import * as conversations from './conversations/shapes.js';
import { CONVERSATIONS_ERROR_STATUSES } from './conversations/shapes.js';
import { openApi } from './exporter.js';
import * as externalEvents from './external-events/shapes.js';
import { EXTERNAL_EVENTS_ERROR_STATUSES } from './external-events/shapes.js';
import * as messaging from './messaging/shapes.js';
import { AccessTokenErrors, MessagingHttpStatus, SessionErrors } from './messaging/shapes.js';
import * as outbound from './outbound/shapes.js';
import { OUTBOUND_STATUS_ERROR_STATUSES, OUTBOUND_TRIGGER_REFERENCE_STATUS } from './outbound/shapes.js';
import type { ErrorEntry } from './rule.js';
import * as voice from './voice/shapes.js';

/** A value of the exported JSON document, as JSON.parse gives it. */
type Json = ReturnType<typeof JSON.parse>;

const doc = openApi() as Json;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Every operation as `method path`, with its path and operation object; `refused` the paths a stated rule refuses. */
const all: { key: string; path: string; op: Json }[] = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, op]) => ({ key: `${method} ${path}`, path, op: op as Json })),
);
const ops = all.filter((o) => !o.op['x-dialtone-refused']);
const refused = all.filter((o) => o.op['x-dialtone-refused']);
const opAt = (key: string): Json => {
  const found = ops.find((o) => o.key === key);
  if (!found) throw new Error(`no operation ${key}`);
  return found.op;
};

/** The examples of a response, as [name, value] pairs. */
const examplesOf = (response: Json | undefined): [string, Json][] =>
  Object.entries((response?.content?.['application/json']?.examples ?? {}) as Json).map(([name, e]) => [name, (e as Json).value as Json]);
/** Whether an example body carries the text (as its `error_message`, `error` or `message`). */
const carries = (value: Json, text: string) => Object.values(value).includes(text);

/** The error responses of an operation (every key but the 2xx one). */
const errorKeys = (op: Json) => Object.keys(op.responses).filter((k) => !k.startsWith('2'));

/** The documented statuses of each operation, from the documents' own tables (document 3's limited rows left out where they do not apply). */
const doc3 = (without: number[]) =>
  Object.keys(AGENTS_ERROR_STATUSES)
    .map(Number)
    .filter((s) => !without.includes(s));
const AGENT_OPS = ops.filter((o) => o.path.startsWith('/v1/agents')).map((o) => o.key);
const DOCUMENTED_STATUSES: Record<string, number[]> = {
  'post /api/v1/access-token': Object.keys(MessagingHttpStatus).map(Number),
  'post /api/v1/sessions': Object.keys(MessagingHttpStatus).map(Number),
  'get /v3/{account_id}/{project_id}/conversations': Object.keys(CONVERSATIONS_ERROR_STATUSES).map(Number),
  'get /v2/{account_id}/{project_id}/conversations': Object.keys(CONVERSATIONS_ERROR_STATUSES).map(Number),
  'get /v1/{account_id}/{project_id}/conversations/concurrency': Object.keys(CONCURRENCY_ERROR_STATUSES).map(Number),
  'post /v1/external-events/webhook': Object.keys(EXTERNAL_EVENTS_ERROR_STATUSES).map(Number),
  'get /v1/outbound-calling/{call_sid}/status': Object.keys(OUTBOUND_STATUS_ERROR_STATUSES).map(Number),
  ...Object.fromEntries(AGENT_OPS.map((k) => [k, doc3([502])])),
  'post /v1/alert-rules': doc3([403]),
  'get /v1/alert-rules': doc3([403]),
  'get /v1/alerts': doc3([403]),
  'post /v1/webhook-endpoints': doc3([403, 502]),
};

/** The error groups whose texts (and statuses) document 1 and 3 give for an HTTP operation, and that operation. */
const DOCUMENTED_TEXTS: [Record<string, ErrorEntry>, string][] = [
  [AccessTokenErrors, 'post /api/v1/access-token'],
  [SessionErrors, 'post /api/v1/sessions'],
  [{ NAME_LENGTH: AgentsErrors.NAME_LENGTH }, 'post /v1/agents'],
  [{ THRESHOLD_VALUE: AgentsErrors.THRESHOLD_VALUE, METRIC_ENUM: AgentsErrors.METRIC_ENUM }, 'post /v1/alert-rules'],
];

/** Every exported error group of the shapes modules (an object of catalogue entries), by module and name. */
const MODULES: Record<string, Json> = { agents, audio, bridge, chat, concurrency, conversations, externalEvents, messaging, outbound, voice };
const isEntry = (v: unknown): v is ErrorEntry => typeof v === 'object' && v !== null && typeof (v as ErrorEntry).text === 'string' && 'documented' in v;
const groups = Object.entries(MODULES).flatMap(([module, exports]) =>
  Object.entries(exports)
    .filter(([, v]) => typeof v === 'object' && v !== null && Object.values(v).length > 0 && Object.values(v).every(isEntry))
    .map(([name, group]) => ({ name: `${module}.${name}`, entries: group as Record<string, ErrorEntry> })),
);
/** The HTTP error groups: entries with a status. The messaging socket handshake answers on no OpenAPI operation (AsyncAPI). */
const httpGroups = groups.filter((g) => g.name !== 'messaging.SocketHandshakeErrors' && Object.values(g.entries).every((e) => e.status !== undefined));
/** Entries the reference target answers on no documented operation (another method, operation or version, or the regionless host). */
const ON_NO_OPERATION = new Set([
  'chat.ChatErrors.UNKNOWN_OPERATION',
  'chat.ChatErrors.METHOD_NOT_ALLOWED',
  'conversations.ConversationsErrors.UNKNOWN_VERSION',
  'agents.AgentsErrors.REGION_REQUIRED',
]);

describe('the exported OpenAPI document', () => {
  it('has the 29 documented operations, the v2 conversations list included', () => {
    expect(ops).toHaveLength(29);
    expect(opAt('get /v2/{account_id}/{project_id}/conversations').responses['2XX']).toEqual(
      opAt('get /v3/{account_id}/{project_id}/conversations').responses['2XX'],
    );
  });

  it('writes every path as a template: no percent-encoded braces, parameters in plain braces', () => {
    for (const { path } of ops) {
      expect(path, path).not.toMatch(/%7B|%7D|%/i);
      expect(path.replace(/\{[A-Za-z_]\w*\}/g, ''), path).not.toMatch(/[{}]/);
    }
    expect(Object.keys(doc.paths)).toContain('/v1/agents/{agentId}/branches/{branchId}/merge');
  });

  it('declares every {param} of a path as a required path parameter, and no other', () => {
    for (const { key, path, op } of ops) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      const declared = (op.parameters as Json[]).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), key).toEqual(inPath);
      for (const p of declared) expect(p.required, `${key} ${p.name}`).toBe(true);
    }
    // The eight operations on one agent (the 8 of 29 that could never match before) name it in their path.
    const onAgent = ops.filter(({ op }) => (op.parameters as Json[]).some((p) => p.in === 'path' && p.name === 'agentId'));
    expect(onAgent).toHaveLength(8);
  });

  it('gives every operation a clean, unique id: the method, then the path in camel case', () => {
    const idsSeen = ops.map((o) => o.op.operationId as string);
    for (const id of idsSeen) {
      expect(id).toMatch(/^(get|post|put|patch|delete)[A-Z][A-Za-z0-9]*$/);
      expect(id).not.toMatch(/7[BD]/);
    }
    expect(new Set(idsSeen).size).toBe(idsSeen.length);
    expect(opAt('post /v1/agents/{agentId}/branches').operationId).toBe('postV1AgentsAgentIdBranches');
  });

  it('accepts the four body content types document 2 lists for the external events webhook', () => {
    const content = opAt('post /v1/external-events/webhook').requestBody?.content ?? {};
    expect(Object.keys(content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded', 'application/xml', 'text/plain']);
  });

  it('gives a success status only where the documents do, and 2XX with the reason elsewhere', () => {
    const documented: Record<string, string> = {
      'post /api/v1/access-token': '200',
      'post /api/v1/sessions': '200',
      'post /v1/external-events/webhook': '201',
    };
    for (const { key, op } of ops) {
      const success = Object.keys(op.responses).filter((k) => k.startsWith('2'));
      expect(success, key).toEqual([documented[key] ?? '2XX']);
      if (!documented[key]) expect(op.responses['2XX'].description, key).toMatch(/not shown in document \d; the reference target answers \d{3}/);
    }
    const trigger = opAt('post /v1/outbound-calling').responses;
    expect(trigger['2XX'].description).toContain(`answers ${OUTBOUND_TRIGGER_REFERENCE_STATUS}`);
    expect(trigger).not.toHaveProperty('200');
    expect(trigger).not.toHaveProperty('201');
    const bridgeEnded = opAt('post /internal/v1/agentic-dial/bridge-ended').responses;
    expect(bridgeEnded['2XX'].description).toContain(`answers ${BRIDGE_ENDED_REFERENCE_STATUS}`);
    expect(bridgeEnded['2XX']).not.toHaveProperty('content');
    expect(bridgeEnded).not.toHaveProperty('200');
    expect(bridgeEnded).not.toHaveProperty('204');
  });

  it('lists every documented error status of every operation, each with its error body schema', () => {
    for (const { key, op } of ops) {
      for (const status of DOCUMENTED_STATUSES[key] ?? []) {
        const response = op.responses[String(status)];
        expect(response, `${key} ${status}`).toBeDefined();
        const ref = response.content?.['application/json']?.schema?.$ref as string;
        expect(ref, `${key} ${status}`).toMatch(/^#\/components\/schemas\//);
        expect(doc.components.schemas[ref.split('/').at(-1) as string], ref).toBeDefined();
      }
      // No status of its own: every explicit error status is a documented one.
      const explicit = errorKeys(op).filter((k) => /^\d+$/.test(k));
      expect(explicit.map(Number).sort(), key).toEqual([...(DOCUMENTED_STATUSES[key] ?? [])].sort());
    }
    expect(examplesOf(opAt('post /api/v1/access-token').responses['500']).some(([, v]) => carries(v, 'Failed to create access token'))).toBe(true);
    expect(Object.keys(opAt('get /v1/{account_id}/{project_id}/conversations/concurrency').responses)).toEqual(expect.arrayContaining(['500', '501']));
    expect(opAt('post /v1/alert-rules').responses['502']).toBeDefined();
  });

  it('carries every documented error text as an example of its status on its operation', () => {
    for (const [group, key] of DOCUMENTED_TEXTS) {
      for (const [name, e] of Object.entries(group)) {
        const examples = examplesOf(opAt(key).responses[String(e.status)]);
        expect(
          examples.some(([n, v]) => n === name && carries(v, e.text)),
          `${key} ${e.status} ${name}`,
        ).toBe(true);
      }
    }
  });

  it('knows every documented HTTP error text of the catalogue (a new one needs its operation above)', () => {
    const listed = new Set(DOCUMENTED_TEXTS.flatMap(([group]) => Object.values(group)));
    const documented = httpGroups.flatMap((g) =>
      Object.entries(g.entries)
        .filter(([, e]) => e.documented)
        .map(([n, e]) => ({ id: `${g.name}.${n}`, e })),
    );
    expect(documented.length).toBeGreaterThan(0);
    expect(documented.filter(({ e }) => !listed.has(e)).map(({ id }) => id)).toEqual([]);
  });

  it('places every HTTP catalogue entry on an operation, under its status or its range', () => {
    expect(httpGroups.map((g) => g.name)).toEqual(expect.arrayContaining(['chat.ChatErrors', 'agents.AgentsErrors', 'concurrency.ConcurrencyErrors']));
    for (const g of httpGroups) {
      for (const [name, e] of Object.entries(g.entries)) {
        const id = `${g.name}.${name}`;
        if (ON_NO_OPERATION.has(id)) continue;
        const status = e.status as number;
        const found = ops.some(({ op }) =>
          [String(status), `${Math.floor(status / 100)}XX`].some((k) => examplesOf(op.responses[k]).some(([n, v]) => n === name && carries(v, e.text))),
        );
        expect(found, id).toBe(true);
      }
    }
  });

  it('gives every example a body its schema accepts', () => {
    for (const { key, op } of ops) {
      for (const status of errorKeys(op)) {
        const media = op.responses[status].content?.['application/json'];
        if (!media) continue;
        const schema = z.fromJSONSchema(doc.components.schemas[(media.schema.$ref as string).split('/').at(-1) as string]);
        for (const [name, value] of examplesOf(op.responses[status])) expect(schema.safeParse(value).success, `${key} ${status} ${name}`).toBe(true);
      }
    }
  });

  it('keeps 4XX and 5XX only where the documents leave statuses open, and says so', () => {
    for (const { key, op } of ops) {
      for (const range of errorKeys(op).filter((k) => k.endsWith('XX'))) expect(op.responses[range].description, `${key} ${range}`).toMatch(/not shown/);
    }
    const closed = [
      'get /v1/{account_id}/{project_id}/conversations/concurrency',
      'post /api/v1/access-token',
      'post /api/v1/sessions',
      ...AGENT_OPS,
      'get /v1/alerts',
    ];
    for (const key of closed)
      expect(
        errorKeys(opAt(key)).filter((k) => k.endsWith('XX')),
        key,
      ).toEqual([]);
    // The reference target's 415 for an unsupported content type is not a documented status of the webhook.
    const webhook = opAt('post /v1/external-events/webhook').responses;
    expect(webhook).not.toHaveProperty('415');
    expect(examplesOf(webhook['4XX']).map(([n]) => n)).toEqual(['UNSUPPORTED_CONTENT_TYPE']);
    expect(Object.keys(opAt('put /{version}/{account_id}/{project_id}/chat/close').responses).sort()).toEqual(['2XX', '4XX', '5XX']);
  });

  it('refuses, with 4XX and the rule quoted, only the paths a stated rule makes no operation, and never a documented one', () => {
    expect(refused.map((o) => o.key).sort()).toEqual([
      'get /v1/agents/{agentId}/branches/{branchId}/deployments',
      'get /{version}/agents',
      'post /{version}/agents',
      'post /{version}/{account_id}/{project_id}/chat/{operation}',
      'put /{version}/{account_id}/{project_id}/chat/{operation}',
    ]);
    for (const { key, path, op } of refused) {
      expect(Object.keys(op.responses), key).toEqual(['4XX']);
      expect(op.description, key).toMatch(/^Document [13].*: ".+"/);
      expect(op.operationId, key).toMatch(/^(get|post|put)Refused[A-Z]/);
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect((op.parameters as Json[]).map((p) => p.name).sort(), key).toEqual(inPath);
    }
    // The parameters leave out the documented values, so a documented request can only be the documented operation.
    const param = (key: string, name: string) => refused.find((o) => o.key === key)?.op.parameters.find((p: Json) => p.name === name)?.schema;
    expect(param('post /{version}/{account_id}/{project_id}/chat/{operation}', 'operation')).toEqual({
      type: 'string',
      not: { enum: chat.ChatOperation.options },
    });
    expect(param('get /{version}/agents', 'version')).toEqual({ type: 'string', not: { const: 'v1' } });
  });

  it('names the hosts as servers with their documented regions as variables', () => {
    const servers = doc.servers as Json[];
    expect(servers).toHaveLength(4);
    for (const s of servers) {
      const inUrl = [...(s.url as string).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(s.variables).sort(), s.url).toEqual(inUrl);
      for (const v of Object.values(s.variables as Record<string, Json>)) if (v.enum) expect(v.enum).toContain(v.default);
    }
    const enums = servers.map((s) => (Object.values(s.variables as Record<string, Json>).find((v) => v.enum)?.enum as string[] | undefined) ?? []);
    expect(enums).toEqual([RuntimeRegion.options, RuntimeRegion.options, [], AgentsRegion.options]);
    const urls = servers.map((s) => s.url);
    for (const item of Object.values(doc.paths as Record<string, Json>)) expect(urls).toContain(item.servers[0].url);
    expect(doc.paths['/v1/agents'].servers[0].url).toMatch(/\{region\}/);
  });
});

describe('the conversations list in the exported contract', () => {
  const schema = (version: 'v1' | 'v3') =>
    z.fromJSONSchema(opAt(`get /${version}/{account_id}/{project_id}/conversations`).responses['2XX'].content['application/json'].schema);
  const whitelisted = { id: 'c1', started_at: '2026-09-01 10:00:00', account_id: 'acme', project_id: 'support' };
  const fullV1 = {
    ...whitelisted,
    variant_id: null,
    variant_name: null,
    environment: 'live',
    channel: 'VOICE-SIP',
    from_number: null,
    to_number: '+447700900123',
    in_progress: false,
    num_turns: 0,
    total_duration: 12.5,
    polyai_duration: 12.5,
    handoff: false,
    handoff_reason: null,
    handoff_destination: null,
    num_silences: 0,
    num_ood: 0,
    metrics: {},
    state: {},
    turns: [],
  };
  const descriptions = { conversations: {} };

  it('accepts a v1 record of a whitelisting project (document 2, rule 8) as well as a complete one', () => {
    expect(schema('v1').safeParse({ conversations: [whitelisted], descriptions }).success).toBe(true);
    expect(schema('v1').safeParse({ conversations: [{ id: 'c1' }], descriptions }).success).toBe(true);
    expect(schema('v1').safeParse({ conversations: [fullV1], descriptions }).success).toBe(true);
    expect(schema('v1').safeParse({ conversations: [fullV1], descriptions, cursor: 'x' }).success).toBe(false);
  });

  it('still requires every documented field of a v3 record', () => {
    const v3 = {
      ...fullV1,
      started_at: '2026-09-01T10:00:00.000Z',
      variant_id: '',
      variant_name: '',
      from_number: '',
      handoff_reason: '',
      handoff_destination: '',
    };
    expect(schema('v3').safeParse({ conversations: [v3], cursor: null }).success).toBe(true);
    const { variant_id: _, ...withoutVariant } = v3;
    expect(schema('v3').safeParse({ conversations: [withoutVariant], cursor: null }).success).toBe(false);
    expect(schema('v3').safeParse({ conversations: [whitelisted], cursor: null }).success).toBe(false);
  });
});
