import { z } from 'zod';
import { AgentsPaths } from './agents/shapes.js';
import { ChatOperation } from './chat/shapes.js';
import { AgentsRegion, RuntimeRegion } from './common.js';
import { type RuleId, Rules } from './index.js';
import { MessagingPaths, TypedClientEvent, TypedServerEvent, WsQuery } from './messaging/shapes.js';
import { type Doc, type ErrorBody, type ErrorClass, type HostKey, OPS, type Op, template, tenant } from './operations.js';
import { AnswerMessage, CloseMessage, ErrorMessage, IceCandidateMessage, OfferMessage, VoicePaths } from './voice/shapes.js';
import { AlertResolvedPayload, AlertTriggeredPayload } from './webhooks/shapes.js';

// The contract, exported for other tools: OpenAPI 3.1 for the HTTP surfaces and AsyncAPI 3 for the two sockets,
// built from the same zod schemas the target and the suite use (zod's own JSON Schema export, `z.toJSONSchema`), and
// from the error catalogue: every status the documents give an operation, with its body and texts. Where the documents
// are silent on a status, the operation says so with a range (`2XX`, `4XX`, `5XX`) and names what the reference target
// answers; it never gives a status of its own as if documented.

type Json = Record<string, unknown>;

/** A zod schema as JSON Schema (what the wire carries, so the input side), without the `$schema` line. */
function schemaOf(s: z.ZodType, target: 'draft-2020-12' | 'draft-7' = 'draft-2020-12'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { target, io: 'input', unrepresentable: 'any' }) as Json;
  return rest;
}

/** Query parameters from the fields of a zod object. */
function queryOf(s: z.ZodObject): Json[] {
  return Object.entries(s.shape).map(([name, field]) => ({
    name,
    in: 'query',
    required: !(field as z.ZodType).safeParse(undefined).success,
    schema: schemaOf(field as z.ZodType),
  }));
}

/**
 * A request a stated rule refuses: a path that is not an operation because a document says what the operations are.
 * The documents give no status for it, so the contract says `4XX` and quotes the rule; a validator in front of a target
 * then matches such a request (the suite sends it on purpose) instead of finding no route. Paths the documents merely do
 * not show (attributes, rollback, a single alert rule…) are not here: a platform may serve them.
 */
interface Refusal {
  readonly doc: Doc;
  readonly host: HostKey;
  readonly methods: readonly Op['method'][];
  readonly path: string;
  /** Path parameters that are not plain strings: the values the rule leaves out. */
  readonly params?: Readonly<Record<string, Json>>;
  /** The document's sentence that makes the path no operation. */
  readonly rule: string;
}

const REFUSALS: readonly Refusal[] = [
  {
    doc: 1,
    host: 'base_url',
    methods: ['post', 'put'],
    path: `/{version}${tenant}/chat/{operation}`,
    params: { operation: { type: 'string', not: { enum: [...ChatOperation.options] } } },
    rule: 'Document 1, chat path rule 2: "The chat operation segment is one of `create`, `respond`, `close`."',
  },
  {
    doc: 3,
    host: 'agents_url',
    methods: ['get', 'post'],
    path: '/{version}/agents',
    params: { version: { type: 'string', not: { const: AgentsPaths.agents.split('/')[1] } } },
    rule: 'Document 3, Versioning: "Paths carry the `/v1` prefix. These APIs have no further version selection."',
  },
  {
    doc: 3,
    host: 'agents_url',
    methods: ['get'],
    path: `${template(AgentsPaths.branches, 'agentId')}/{branchId}/deployments`,
    rule: 'Document 3: "Everything except deployments, telephony and real-time configs is scoped to a branch." Deployments have no branch segment.',
  },
];

/** A refused path's operation: its parameters and `4XX`, the rule quoted. */
function refusal(r: Refusal, method: Op['method']): Json {
  return {
    summary: 'Not an operation: refused.',
    description: r.rule,
    operationId: `${method}Refused${operationId({ method, path: r.path } as Op).slice(method.length)}`,
    'x-dialtone-refused': true,
    parameters: pathParams(r.path).map((p) => ({ ...p, schema: r.params?.[p.name as string] ?? p.schema })),
    // Whatever JSON it carries: the request is refused for its path.
    ...(method === 'get' ? {} : { requestBody: { required: false, content: { 'application/json': {} } } }),
    responses: { '4XX': { description: `Refused. The status and body are not shown in document ${r.doc}. ${r.rule}` } },
  };
}

/** Security schemes: the header or bearer token each operation carries (values never appear here). */
const SECURITY: Record<string, Json[]> = {
  chat: [{ chatApiKey: [], chatToken: [] }],
  connectorToken: [{ connectorToken: [] }],
  accessToken: [{ bearer: [] }],
  voiceAuthToken: [{ bearer: [] }],
  conversationsKey: [{ apiKey: [] }],
  apiKey: [{ apiKey: [] }],
  serviceAuthToken: [{ serviceAuthToken: [] }],
};

const SCHEMES: Json = {
  chatApiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
  chatToken: { type: 'apiKey', in: 'header', name: 'X-TOKEN' },
  connectorToken: { type: 'apiKey', in: 'header', name: 'X-Token' },
  bearer: { type: 'http', scheme: 'bearer' },
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
  serviceAuthToken: { type: 'apiKey', in: 'header', name: 'X-Service-Auth-Token' },
};

/** A region variable of a host: the documented regions, the first as default. */
const regions = (options: readonly string[], description: string): Json => ({ enum: [...options], default: options[0], description });

/**
 * The domain of every host. The documents name each host only by its placeholder and regions; the name layout around
 * the region (`runtime.{region}.…`, `{region}.agents.…`) is dialtone's, as in its profile examples.
 */
const DOMAIN: Json = {
  default: 'example.com',
  description: "The platform's domain. The documents give each host as a placeholder with its regions; the layout of the name is dialtone's.",
};

/** The four hosts of the documents as server templates, with their documented regions as variables. */
const HOSTS: Record<HostKey, { readonly host: string; readonly description: string; readonly variables: Json }> = {
  base_url: {
    host: 'runtime.{region}.{domain}',
    description: '{base_url}: the regional runtime host (documents 1 and 2).',
    variables: { region: regions(RuntimeRegion.options, 'The runtime region (documents 1 and 2).'), domain: DOMAIN },
  },
  messaging_url: {
    host: 'messaging.{cluster}.{domain}',
    description: '{messaging_url}: the per-cluster messaging host (document 1). There is no region-agnostic host; the cluster must match the project.',
    variables: { cluster: regions(RuntimeRegion.options, 'The messaging cluster (document 1).'), domain: DOMAIN },
  },
  webrtc_url: {
    host: 'webrtc.{domain}',
    description: '{webrtc_url}: the browser voice gateway host (document 1); the document names no region.',
    variables: { domain: DOMAIN },
  },
  agents_url: {
    host: '{region}.agents.{domain}',
    description: '{agents_url}: the regional agents host (document 3). The host without a region is invalid and returns an error.',
    variables: { region: regions(AgentsRegion.options, 'The agents region (document 3).'), domain: DOMAIN },
  },
};

/** One host as an OpenAPI server object. */
const serverOf = (key: HostKey): Json => ({ url: `https://${HOSTS[key].host}`, description: HOSTS[key].description, variables: HOSTS[key].variables });

const pathParams = (path: string): Json[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));

/** The operation id: method and path in camel case (`postV1AgentsAgentIdBranches`). */
const operationId = (op: Op): string =>
  `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`;

/** The success response: the documented status, or `2XX` saying what the documents leave open and what the reference answers. */
function success(op: Op): Record<string, Json> {
  const { ok } = op;
  const content = ok.contentType ?? 'application/json';
  const body = ok.schema ? { content: { [content]: { schema: schemaOf(ok.schema) } } } : ok.contentType ? { content: { [content]: {} } } : {};
  if ('status' in ok) return { [String(ok.status)]: { description: `Success (document ${op.doc}).`, ...body } };
  const none = ok.schema || ok.contentType ? '' : ', no body';
  return {
    '2XX': { description: `Success. The status code is not shown in document ${op.doc}; the reference target answers ${ok.reference}${none}.`, ...body },
  };
}

/** The class of a status (`4XX`, `5XX`). */
const classOf = (status: number): ErrorClass => `${Math.floor(status / 100)}XX` as ErrorClass;

/**
 * The error responses of an operation: each documented status with its meaning, body and the catalogue's texts as
 * examples; then `4XX` and `5XX` where the documents leave statuses open or the reference target answers a status
 * the documents do not give.
 */
function errorResponses(op: Op): Record<string, Json> {
  const { body, statuses = {}, entries, open, headers = {} } = op.errors;
  const named = Object.entries(entries).map(([name, e]) => {
    if (e.status === undefined) throw new Error(`${op.method} ${op.path}: error ${name} has no status`);
    return { name, status: e.status, entry: e };
  });
  const documented = Object.keys(statuses)
    .map(Number)
    .sort((a, b) => a - b);
  for (const n of named) {
    if (n.entry.documented && !documented.includes(n.status))
      throw new Error(`${op.method} ${op.path}: ${n.name} is documented with ${n.status}, not among the operation's statuses`);
  }
  const bodyNote = body.documented ? '' : ` Body: the reference target's; document ${op.doc} does not show it.`;
  const content = (list: typeof named): Json => {
    const examples = Object.fromEntries(
      list.map((n) => [
        n.name,
        {
          summary: `${n.status}, ${n.entry.documented ? 'the documented text' : "the reference target's text (the documents give none)"}`,
          value: body.schema.parse(body.of(n.entry.text)),
        },
      ]),
    );
    return { 'application/json': { schema: { $ref: `#/components/schemas/${body.name}` }, ...(list.length ? { examples } : {}) } };
  };
  const out: Record<string, Json> = {};
  for (const status of documented) {
    const header = headers[status];
    out[String(status)] = {
      description: `${statuses[status]}${bodyNote}`,
      ...(header
        ? { headers: Object.fromEntries(Object.entries(header).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
        : {}),
      content: content(named.filter((n) => n.status === status)),
    };
  }
  const rest = named.filter((n) => !documented.includes(n.status));
  const classes = new Set<ErrorClass>([...(open?.classes ?? []), ...rest.map((n) => classOf(n.status))]);
  for (const cls of ['4XX', '5XX'] as const) {
    if (!classes.has(cls)) continue;
    const list = rest.filter((n) => classOf(n.status) === cls);
    const why = open?.classes.includes(cls) ? open.why : `Document ${op.doc} gives no status for these cases.`;
    const answered = [...new Set(list.map((n) => n.status))].sort((a, b) => a - b);
    out[cls] = {
      description: `Other statuses: not shown. ${why}${answered.length ? ` The reference target answers ${answered.join(', ')}.` : ''}${bodyNote}`,
      content: content(list),
    };
  }
  return out;
}

function operation(op: Op): Json {
  const bodies = op.bodies ?? (op.body ? { 'application/json': op.body } : undefined);
  return {
    summary: op.summary,
    operationId: operationId(op),
    security: SECURITY[op.security],
    parameters: [...pathParams(op.path), ...(op.query ? queryOf(op.query) : [])],
    ...(bodies
      ? { requestBody: { required: false, content: Object.fromEntries(Object.entries(bodies).map(([type, s]) => [type, { schema: schemaOf(s) }])) } }
      : {}),
    responses: { ...success(op), ...errorResponses(op) },
  };
}

/**
 * OpenAPI 3.1 of every documented HTTP operation: the four hosts as servers (their regions as variables), each path
 * with its own host as its server, and the alert deliveries as webhooks.
 *
 * @example
 * const doc = openApi(); doc.openapi // '3.1.0'
 */
export function openApi(): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPS) {
    const entry = paths[op.path] ?? { servers: [serverOf(op.host)] };
    entry[op.method] = operation(op);
    paths[op.path] = entry;
  }
  for (const r of REFUSALS) {
    const entry = paths[r.path] ?? { servers: [serverOf(r.host)] };
    for (const method of r.methods) entry[method] = refusal(r, method);
    paths[r.path] = entry;
  }
  const delivery = (s: z.ZodType, summary: string) => ({
    post: { summary, requestBody: { content: { 'application/json': { schema: schemaOf(s) } } }, responses: { '200': { description: 'received' } } },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Conversational-AI platform (documents 1-3), HTTP surfaces', version: '1.0.0', description: 'Generated by dialtone from src/contract.' },
    servers: (Object.keys(HOSTS) as HostKey[]).map(serverOf),
    paths,
    webhooks: {
      'alerts.triggered': delivery(AlertTriggeredPayload, 'An alert rule moved into alert.'),
      'alerts.resolved': delivery(AlertResolvedPayload, 'An alert rule moved back to ok.'),
    },
    components: { schemas: errorBodies(), securitySchemes: SCHEMES },
  };
}

/** A route the reference target serves where the documents do not show its path, with the rule that says so. */
export interface NotShownRoute {
  readonly host: string;
  /** `GET`, `PATCH`, … */
  readonly method: string;
  /** The path as the target routes it: `{name}` or fastify's `:name` parameters. */
  readonly path: string;
  readonly rule: RuleId;
}

/**
 * The reference target's contract: the documented one (unchanged) and the paths the reference target serves where the
 * documents are silent, each marked `x-dialtone-not-shown` with the document's sentence quoted and only a `default`
 * response, so it invents no status, body or parameter rule. A validator in front of the reference target then matches
 * every request the suite sends; the published contract stays the documents' alone.
 *
 * @example
 * const doc = referenceTargetOpenApi([{ host: 'agents_url', method: 'DELETE', path: '/v1/alert-rules/:ruleId', rule: 'alerts.rules.single-rule-paths' }]);
 * doc.paths['/v1/alert-rules/{ruleId}'].delete['x-dialtone-not-shown'] // 'Paths for reading, updating or deleting a single alert rule are not shown.'
 */
export function referenceTargetOpenApi(routes: readonly NotShownRoute[]): Json {
  const doc = openApi();
  const paths = doc.paths as Record<string, Json>;
  const templated = (path: string) => path.replace(/:(\w+)/g, '{$1}');
  // Two spellings of one template (`{id}` and `{ruleId}`) are one path to a validator.
  const bare = (path: string) => path.replace(/\{\w+\}/g, '{}');
  const byShape = new Map(Object.keys(paths).map((p) => [bare(p), p]));
  for (const r of routes) {
    if (!(r.host in HOSTS)) throw new Error(`${r.method} ${r.path}: the reference target's host ${r.host} has no server in the contract`);
    const rule = Rules[r.rule];
    const method = r.method.toLowerCase() as Op['method'] | 'delete';
    const path = byShape.get(bare(templated(r.path))) ?? templated(r.path);
    const entry = paths[path] ?? { servers: [serverOf(r.host as HostKey)] };
    if (entry[method]) throw new Error(`${r.method} ${path} is in the documented contract, and the reference target marks it not shown (${r.rule})`);
    entry[method] = {
      summary: 'Not shown in the documents: served by the reference target.',
      description: `Document ${rule.doc}, ${rule.section}: "${rule.statement}" The reference target serves this path; what it answers is its own choice, not the documents'.`,
      operationId: `${method}NotShown${operationId({ method, path } as Op).slice(method.length)}`,
      'x-dialtone-not-shown': rule.statement,
      parameters: pathParams(path),
      // Whatever JSON the suite sends there: the body is not shown either.
      ...(method === 'get' || method === 'delete'
        ? {}
        : { requestBody: { required: false, description: `Not shown in document ${rule.doc}.`, content: { 'application/json': {} } } }),
      responses: { default: { description: `Not shown in document ${rule.doc}.` } },
    };
    paths[path] = entry;
  }
  return {
    ...doc,
    info: {
      ...(doc.info as Json),
      title: "The reference target's contract: documents 1-3 and the paths it serves where they are silent",
      description:
        "Generated by dialtone from src/contract and the reference target's route table. Not the platform's contract (openapi.json): every operation " +
        'marked x-dialtone-not-shown is a path the documents do not show.',
    },
  };
}

/** The error bodies the operations refer to, by name; a name stands for one schema. */
function errorBodies(): Record<string, Json> {
  const bodies = new Map<string, ErrorBody>();
  for (const { errors } of OPS) {
    const seen = bodies.get(errors.body.name);
    if (seen && seen.schema !== errors.body.schema) throw new Error(`two error bodies are named ${errors.body.name}`);
    bodies.set(errors.body.name, errors.body);
  }
  return Object.fromEntries(
    [...bodies.values()].map((b) => [
      b.name,
      {
        ...schemaOf(b.schema),
        description: b.documented ? 'The documented error body.' : "The reference target's error body (the documents do not show one).",
      },
    ]),
  );
}

/** One AsyncAPI 3 document for a socket: its server, channel, the messages each way, and the operations. */
function asyncApi(o: {
  title: string;
  host: HostKey;
  address: string;
  query?: z.ZodObject;
  send: Record<string, z.ZodType>;
  receive: Record<string, z.ZodType>;
}): Json {
  const messages: Json = {};
  const refs = (names: string[]) => names.map((n) => ({ $ref: `#/channels/socket/messages/${n}` }));
  for (const [name, s] of [...Object.entries(o.send), ...Object.entries(o.receive)]) messages[name] = { name, payload: schemaOf(s, 'draft-7') };
  const channelMessages = Object.fromEntries(Object.keys(messages).map((n) => [n, { $ref: `#/components/messages/${n}` }]));
  return {
    asyncapi: '3.0.0',
    info: { title: o.title, version: '1.0.0', description: 'Generated by dialtone from src/contract.' },
    servers: { gateway: { host: HOSTS[o.host].host, protocol: 'wss', description: HOSTS[o.host].description, variables: HOSTS[o.host].variables } },
    channels: {
      socket: {
        address: o.address,
        messages: channelMessages,
        ...(o.query ? { bindings: { ws: { query: schemaOf(o.query, 'draft-7') } } } : {}),
      },
    },
    operations: {
      send: { action: 'send', channel: { $ref: '#/channels/socket' }, messages: refs(Object.keys(o.send)) },
      receive: { action: 'receive', channel: { $ref: '#/channels/socket' }, messages: refs(Object.keys(o.receive)) },
    },
    components: { messages },
  };
}

/**
 * AsyncAPI 3 of the two sockets: the Messaging WebSocket and the voice gateway's signaling socket.
 *
 * @example
 * asyncApis().messaging.asyncapi // '3.0.0'
 */
export function asyncApis(): { messaging: Json; voice: Json } {
  return {
    messaging: asyncApi({
      title: 'Messaging WebSocket (document 1)',
      host: 'messaging_url',
      address: MessagingPaths.ws,
      query: WsQuery,
      send: { ClientEvent: TypedClientEvent },
      receive: { ServerEvent: TypedServerEvent },
    }),
    voice: asyncApi({
      title: 'Voice gateway signaling (document 1)',
      host: 'webrtc_url',
      address: VoicePaths.signal,
      send: { Offer: OfferMessage, IceCandidate: IceCandidateMessage, Close: CloseMessage },
      receive: { Answer: AnswerMessage, Error: ErrorMessage, ServerIceCandidate: IceCandidateMessage, ServerClose: CloseMessage },
    }),
  };
}

/** The contract files by name, as `dialtone contract` writes them. */
export function contractFiles(): Record<string, string> {
  const { messaging, voice } = asyncApis();
  const out = (v: Json) => `${JSON.stringify(v, null, 2)}\n`;
  return { 'openapi.json': out(openApi()), 'asyncapi-messaging.json': out(messaging), 'asyncapi-voice.json': out(voice) };
}

/** The top-level keys of a request schema (an object, or the union of each member's keys). */
function keysOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
  const props = (j: Json): string[] => [
    ...Object.keys((j.properties as Json | undefined) ?? {}),
    ...((j.anyOf ?? j.oneOf ?? []) as Json[]).flatMap(props),
    ...((j.allOf ?? []) as Json[]).flatMap(props),
  ];
  return [...new Set(props(json))];
}

/**
 * Every documented request field of every HTTP operation (`METHOD /path`), from its body and query schemas: the rows
 * `dialtone rules --audit` must place (a case that shows the field's effect, or why it cannot be observed).
 *
 * @example
 * requestFields().find((o) => o.operation === 'POST /{version}/{account_id}/{project_id}/chat/create')?.fields // ['integration_attributes', …]
 */
export function requestFields(): { operation: string; fields: string[] }[] {
  return OPS.map((op) => ({
    operation: `${op.method.toUpperCase()} ${op.path}`,
    fields: [...new Set([...keysOf(op.body), ...Object.values(op.bodies ?? {}).flatMap(keysOf), ...keysOf(op.query)])],
  })).filter((o) => o.fields.length > 0);
}
