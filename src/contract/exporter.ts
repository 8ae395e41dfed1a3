import { z } from 'zod';
import {
  AgentCreateRequest,
  AgentCreateResponse,
  AgentsPaths,
  BehaviorUpdateRequest,
  BranchCreateRequest,
  BranchCreateResponse,
  Deployment,
  DeploymentsListQuery,
  DeploymentsListResponse,
  KnowledgeBaseTopicCreateRequest,
  PublishRequest,
  RealTimeConfigVariablesUpdate,
} from './agents/shapes.js';
import { AlertRule, AlertRuleCreateRequest, AlertRulesListQuery, AlertRulesListResponse, AlertsListResponse, AlertsPaths } from './alerts/shapes.js';
import { AUDIO_CONTENT_TYPE, AudioQuery } from './audio/shapes.js';
import { BridgeEndedRequest } from './bridge/shapes.js';
import { ChatCloseRequest, ChatCloseResponse, ChatCreateRequest, ChatCreateResponse, ChatRespondRequest, ChatRespondResponse } from './chat/shapes.js';
import { ConcurrencyQueryShape, ConcurrencyResponse } from './concurrency/shapes.js';
import { ConversationsListQueryShape, ConversationsListResponse, ConversationsListResponseV1 } from './conversations/shapes.js';
import { ExternalEventsQuery, ExternalEventsQueuedResponse } from './external-events/shapes.js';
import {
  AccessTokenRequest,
  AccessTokenResponse,
  MessagingPaths,
  SessionRequest,
  SessionResponse,
  TypedClientEvent,
  TypedServerEvent,
  WsQuery,
} from './messaging/shapes.js';
import { OutboundStatusResponse, OutboundTriggerRequest, OutboundTriggerResponse } from './outbound/shapes.js';
import { AnswerMessage, CloseMessage, ErrorMessage, IceCandidateMessage, IceServersResponse, OfferMessage, VoicePaths } from './voice/shapes.js';
import { AlertResolvedPayload, AlertTriggeredPayload, WebhookEndpointCreateRequest, WebhookEndpointCreateResponse, WebhooksPaths } from './webhooks/shapes.js';

// The contract, exported for other tools: OpenAPI 3.1 for the HTTP surfaces and AsyncAPI 3 for the two sockets,
// built from the same zod schemas the target and the suite use (zod's own JSON Schema export, `z.toJSONSchema`).

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

/** One HTTP operation of the documents. */
interface Op {
  readonly host: 'base_url' | 'messaging_url' | 'webrtc_url' | 'agents_url';
  readonly method: 'get' | 'post' | 'put' | 'patch';
  readonly path: string;
  readonly summary: string;
  readonly security: string;
  readonly body?: z.ZodType;
  readonly query?: z.ZodObject;
  readonly ok: { readonly status: number; readonly schema?: z.ZodType; readonly contentType?: string };
}

const tenant = '/{account_id}/{project_id}';

/** Every documented HTTP operation, its host, security scheme, body, query and success answer. */
const OPS: readonly Op[] = [
  {
    host: 'base_url',
    method: 'post',
    path: `/{version}${tenant}/chat/create`,
    summary: 'Start a chat conversation.',
    security: 'chat',
    body: ChatCreateRequest,
    ok: { status: 200, schema: ChatCreateResponse },
  },
  {
    host: 'base_url',
    method: 'post',
    path: `/{version}${tenant}/chat/respond`,
    summary: 'Send a message, get the agent reply.',
    security: 'chat',
    body: ChatRespondRequest,
    ok: { status: 200, schema: ChatRespondResponse },
  },
  {
    host: 'base_url',
    method: 'put',
    path: `/{version}${tenant}/chat/close`,
    summary: 'Close a conversation.',
    security: 'chat',
    body: ChatCloseRequest,
    ok: { status: 200, schema: ChatCloseResponse },
  },
  {
    host: 'messaging_url',
    method: 'post',
    path: MessagingPaths.accessToken,
    summary: 'Exchange a connector token for a JWT.',
    security: 'connectorToken',
    body: AccessTokenRequest,
    ok: { status: 200, schema: AccessTokenResponse },
  },
  {
    host: 'messaging_url',
    method: 'post',
    path: MessagingPaths.sessions,
    summary: 'Create a session.',
    security: 'accessToken',
    body: SessionRequest,
    ok: { status: 200, schema: SessionResponse },
  },
  {
    host: 'webrtc_url',
    method: 'get',
    path: VoicePaths.iceServers,
    summary: 'Fetch STUN/TURN configuration.',
    security: 'voiceAuthToken',
    ok: { status: 200, schema: IceServersResponse },
  },
  {
    host: 'base_url',
    method: 'get',
    path: `/v3${tenant}/conversations`,
    summary: 'List conversation records (v3).',
    security: 'conversationsKey',
    query: ConversationsListQueryShape,
    ok: { status: 200, schema: ConversationsListResponse },
  },
  {
    host: 'base_url',
    method: 'get',
    path: `/v1${tenant}/conversations`,
    summary: 'List conversation records (v1).',
    security: 'conversationsKey',
    query: ConversationsListQueryShape,
    ok: { status: 200, schema: ConversationsListResponseV1 },
  },
  {
    host: 'base_url',
    method: 'get',
    path: `/v1${tenant}/conversations/concurrency`,
    summary: 'Concurrency series in 5-minute windows.',
    security: 'conversationsKey',
    query: ConcurrencyQueryShape,
    ok: { status: 200, schema: ConcurrencyResponse },
  },
  {
    host: 'base_url',
    method: 'get',
    path: `/v3${tenant}/conversations/{conversation_id}/audio`,
    summary: 'Conversation audio as WAV.',
    security: 'conversationsKey',
    query: AudioQuery,
    ok: { status: 200, contentType: AUDIO_CONTENT_TYPE },
  },
  {
    host: 'base_url',
    method: 'post',
    path: '/v1/external-events/webhook',
    summary: 'Send an external event.',
    security: 'apiKey',
    query: ExternalEventsQuery,
    ok: { status: 201, schema: ExternalEventsQueuedResponse },
  },
  {
    host: 'base_url',
    method: 'post',
    path: '/v1/outbound-calling',
    summary: 'Trigger an outbound call.',
    security: 'serviceAuthToken',
    body: OutboundTriggerRequest,
    ok: { status: 200, schema: OutboundTriggerResponse },
  },
  {
    host: 'base_url',
    method: 'get',
    path: '/v1/outbound-calling/{call_sid}/status',
    summary: 'Poll an outbound call status.',
    security: 'serviceAuthToken',
    ok: { status: 200, schema: OutboundStatusResponse },
  },
  {
    host: 'base_url',
    method: 'post',
    path: '/internal/v1/agentic-dial/bridge-ended',
    summary: 'Notify that a bridged call ended.',
    security: 'apiKey',
    body: BridgeEndedRequest,
    ok: { status: 200 },
  },
  { host: 'agents_url', method: 'get', path: AgentsPaths.agents, summary: 'List agents.', security: 'apiKey', ok: { status: 200 } },
  {
    host: 'agents_url',
    method: 'post',
    path: AgentsPaths.agents,
    summary: 'Create an agent.',
    security: 'apiKey',
    body: AgentCreateRequest,
    ok: { status: 201, schema: AgentCreateResponse },
  },
  {
    host: 'agents_url',
    method: 'post',
    path: AgentsPaths.branches('{agentId}'),
    summary: 'Create a branch.',
    security: 'apiKey',
    body: BranchCreateRequest,
    ok: { status: 201, schema: BranchCreateResponse },
  },
  {
    host: 'agents_url',
    method: 'post',
    path: AgentsPaths.merge('{agentId}', '{branchId}'),
    summary: 'Merge a branch.',
    security: 'apiKey',
    ok: { status: 200 },
  },
  {
    host: 'agents_url',
    method: 'patch',
    path: AgentsPaths.behavior('{agentId}', '{branchId}'),
    summary: 'Update branch behavior.',
    security: 'apiKey',
    body: BehaviorUpdateRequest,
    ok: { status: 200 },
  },
  {
    host: 'agents_url',
    method: 'post',
    path: AgentsPaths.topics('{agentId}', '{branchId}'),
    summary: 'Create a knowledge base topic.',
    security: 'apiKey',
    body: KnowledgeBaseTopicCreateRequest,
    ok: { status: 201 },
  },
  {
    host: 'agents_url',
    method: 'post',
    path: AgentsPaths.publish('{agentId}'),
    summary: 'Publish to sandbox.',
    security: 'apiKey',
    body: PublishRequest,
    ok: { status: 201, schema: Deployment },
  },
  {
    host: 'agents_url',
    method: 'post',
    path: AgentsPaths.promote('{agentId}', '{deploymentId}'),
    summary: 'Promote a deployment.',
    security: 'apiKey',
    ok: { status: 201, schema: Deployment },
  },
  {
    host: 'agents_url',
    method: 'get',
    path: AgentsPaths.deployments('{agentId}'),
    summary: 'List deployments, newest first.',
    security: 'apiKey',
    query: DeploymentsListQuery,
    ok: { status: 200, schema: DeploymentsListResponse },
  },
  {
    host: 'agents_url',
    method: 'patch',
    path: AgentsPaths.realTimeConfigVariables('{agentId}', '{config}'),
    summary: 'Update real-time config variables.',
    security: 'apiKey',
    body: RealTimeConfigVariablesUpdate,
    ok: { status: 200 },
  },
  {
    host: 'agents_url',
    method: 'post',
    path: AlertsPaths.alertRules,
    summary: 'Create an alert rule.',
    security: 'apiKey',
    body: AlertRuleCreateRequest,
    ok: { status: 201, schema: AlertRule },
  },
  {
    host: 'agents_url',
    method: 'get',
    path: AlertsPaths.alertRules,
    summary: 'List alert rules.',
    security: 'apiKey',
    query: AlertRulesListQuery,
    ok: { status: 200, schema: AlertRulesListResponse },
  },
  {
    host: 'agents_url',
    method: 'get',
    path: AlertsPaths.alerts,
    summary: 'List active alerts.',
    security: 'apiKey',
    ok: { status: 200, schema: AlertsListResponse },
  },
  {
    host: 'agents_url',
    method: 'post',
    path: WebhooksPaths.endpoints,
    summary: 'Create a webhook endpoint.',
    security: 'apiKey',
    body: WebhookEndpointCreateRequest,
    ok: { status: 201, schema: WebhookEndpointCreateResponse },
  },
];

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

const pathParams = (path: string): Json[] =>
  [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));

function operation(op: Op): Json {
  const content = op.ok.contentType ?? 'application/json';
  const ok = op.ok.schema ? { content: { [content]: { schema: schemaOf(op.ok.schema) } } } : op.ok.contentType ? { content: { [content]: {} } } : {};
  return {
    summary: op.summary,
    operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    security: SECURITY[op.security],
    parameters: [...pathParams(op.path), ...(op.query ? queryOf(op.query) : [])],
    ...(op.body ? { requestBody: { required: false, content: { 'application/json': { schema: schemaOf(op.body) } } } } : {}),
    responses: { [String(op.ok.status)]: { description: 'success', ...ok }, '4XX': { description: 'rejected (statuses and bodies per the error catalogue)' } },
  };
}

/**
 * OpenAPI 3.1 of every documented HTTP operation, each path with its profile host as the server (`{base_url}` …), and
 * the alert deliveries as webhooks.
 *
 * @example
 * const doc = openApi(); doc.openapi // '3.1.0'
 */
export function openApi(): Json {
  const paths: Record<string, Json> = {};
  for (const op of OPS) {
    const entry = paths[op.path] ?? {
      servers: [{ url: `{${op.host}}`, variables: { [op.host]: { default: `https://${op.host.replace('_url', '')}.example.com` } } }],
    };
    entry[op.method] = operation(op);
    paths[op.path] = entry;
  }
  const delivery = (s: z.ZodType, summary: string) => ({
    post: { summary, requestBody: { content: { 'application/json': { schema: schemaOf(s) } } }, responses: { '200': { description: 'received' } } },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Conversational-AI platform (documents 1-3), HTTP surfaces', version: '1.0.0', description: 'Generated by dialtone from src/contract.' },
    paths,
    webhooks: {
      'alerts.triggered': delivery(AlertTriggeredPayload, 'An alert rule moved into alert.'),
      'alerts.resolved': delivery(AlertResolvedPayload, 'An alert rule moved back to ok.'),
    },
    components: { securitySchemes: SCHEMES },
  };
}

/** One AsyncAPI 3 document for a socket: its server, channel, the messages each way, and the operations. */
function asyncApi(o: {
  title: string;
  host: string;
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
    servers: { gateway: { host: o.host, protocol: 'wss' } },
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
      host: 'messaging.example.com',
      address: MessagingPaths.ws,
      query: WsQuery,
      send: { ClientEvent: TypedClientEvent },
      receive: { ServerEvent: TypedServerEvent },
    }),
    voice: asyncApi({
      title: 'Voice gateway signaling (document 1)',
      host: 'webrtc.example.com',
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
