import { z } from 'zod';
import {
  AGENTS_ERROR_STATUS_SCOPE,
  AGENTS_ERROR_STATUSES,
  AgentCreateRequest,
  AgentCreateResponse,
  type AgentsErrorStatus,
  AgentsErrors,
  AgentsPaths,
  ApiError,
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
import { AUDIO_CONTENT_TYPE, AudioErrors, AudioQuery } from './audio/shapes.js';
import { BRIDGE_ENDED_REFERENCE_STATUS, BridgeEndedRequest, BridgeErrorBody, BridgeErrors } from './bridge/shapes.js';
import {
  ChatCloseRequest,
  ChatCloseResponse,
  ChatCreateRequest,
  ChatCreateResponse,
  ChatErrors,
  ChatOperation,
  ChatRespondRequest,
  ChatRespondResponse,
  ErrorMessageBody,
} from './chat/shapes.js';
import { AgentsRegion, RuntimeRegion } from './common.js';
import { CONCURRENCY_ERROR_STATUSES, ConcurrencyErrorBody, ConcurrencyErrors, ConcurrencyQueryShape, ConcurrencyResponse } from './concurrency/shapes.js';
import {
  CONVERSATIONS_ERROR_STATUSES,
  ConversationsErrors,
  ConversationsListQueryShape,
  ConversationsListResponse,
  ConversationsListResponseV1AnyProject,
} from './conversations/shapes.js';
import {
  EXTERNAL_EVENTS_ERROR_STATUSES,
  EXTERNAL_EVENTS_SUCCESS_STATUS,
  ExternalEventsErrorBody,
  ExternalEventsErrors,
  ExternalEventsPayload,
  ExternalEventsQuery,
  ExternalEventsQueuedResponse,
} from './external-events/shapes.js';
import { type RuleId, Rules } from './index.js';
import {
  AccessTokenErrors,
  AccessTokenRequest,
  AccessTokenResponse,
  MessagingHttpErrorBody,
  MessagingHttpStatus,
  MessagingPaths,
  RateLimitErrors,
  RETRY_AFTER_HEADER,
  SessionErrors,
  SessionRequest,
  SessionResponse,
  TypedClientEvent,
  TypedServerEvent,
  WsQuery,
} from './messaging/shapes.js';
import {
  OUTBOUND_STATUS_ERROR_STATUSES,
  OUTBOUND_TRIGGER_REFERENCE_STATUS,
  OutboundErrorBody,
  OutboundErrors,
  OutboundStatusResponse,
  OutboundTriggerRequest,
  OutboundTriggerResponse,
} from './outbound/shapes.js';
import type { ErrorEntry } from './rule.js';
import {
  AnswerMessage,
  CloseMessage,
  ErrorMessage,
  IceCandidateMessage,
  IceServersErrors,
  IceServersResponse,
  OfferMessage,
  VoicePaths,
} from './voice/shapes.js';
import { AlertResolvedPayload, AlertTriggeredPayload, WebhookEndpointCreateRequest, WebhookEndpointCreateResponse, WebhooksPaths } from './webhooks/shapes.js';

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
 * A path template from a path builder of `src/contract`: the builders encode their arguments (`{` becomes `%7B`), so
 * the placeholders are turned back.
 *
 * @example
 * template(AgentsPaths.branches, 'agentId') // '/v1/agents/{agentId}/branches'
 */
function template<A extends string[]>(build: (...args: A) => string, ...names: A): string {
  return build(...(names.map((n) => `{${n}}`) as A)).replace(/%7B(\w+)%7D/gi, '{$1}');
}

/** The entries of an error group with the given names, under those names. */
function pick<T extends Record<string, ErrorEntry>, K extends keyof T & string>(group: T, ...keys: K[]): Record<K, ErrorEntry> {
  return Object.fromEntries(keys.map((k) => [k, group[k]])) as unknown as Record<K, ErrorEntry>;
}

type HostKey = 'base_url' | 'messaging_url' | 'webrtc_url' | 'agents_url';
type Doc = 1 | 2 | 3;
type ErrorClass = '4XX' | '5XX';

/** The body an error comes in: its schema, whether the documents show it, and how it carries an entry's text. */
interface ErrorBody {
  /** Its name under `components.schemas`. */
  readonly name: string;
  readonly schema: z.ZodType;
  /** False: the documents do not show the body; the schema is the reference target's. */
  readonly documented: boolean;
  /** The body carrying a text, as the reference target sends it (checked against `schema` when exported). */
  readonly of: (text: string) => Json;
}

/** The errors of one operation. */
interface Errors {
  readonly body: ErrorBody;
  /** The statuses the documents give the operation, each with its documented meaning. */
  readonly statuses?: Readonly<Record<number, string>>;
  /** The catalogue entries the reference target answers on this operation, by their catalogue names. */
  readonly entries: Readonly<Record<string, ErrorEntry>>;
  /** Status classes the documents leave open for this operation, and where they say so. */
  readonly open?: { readonly classes: readonly ErrorClass[]; readonly why: string };
  /** Documented response headers of a status, name to meaning. */
  readonly headers?: Readonly<Record<number, Readonly<Record<string, string>>>>;
}

/** The success answer: the documented status, or, where the documents show none, what the reference target answers. */
type Success = ({ readonly status: number } | { readonly reference: number }) & { readonly schema?: z.ZodType; readonly contentType?: string };

/** One HTTP operation of the documents. */
interface Op {
  readonly doc: Doc;
  readonly host: HostKey;
  readonly method: 'get' | 'post' | 'put' | 'patch';
  readonly path: string;
  readonly summary: string;
  readonly security: string;
  /** A JSON request body. */
  readonly body?: z.ZodType;
  /** Request bodies by content type, where the documents list more than JSON. */
  readonly bodies?: Readonly<Record<string, z.ZodType>>;
  readonly query?: z.ZodObject;
  readonly ok: Success;
  readonly errors: Errors;
}

/** `{error_message}`, the body of the runtime host. Documented for concurrency, external events and bridge-ended. */
const errorMessage = (name: string, schema: z.ZodType, documented: boolean): ErrorBody => ({
  name,
  schema,
  documented,
  of: (text) => ({ error_message: text }),
});
/** Chat, conversations, audio, ice-servers: no body shown; the reference target sends the runtime host's `{error_message}`. */
const RUNTIME_BODY = errorMessage('ErrorMessageBody', ErrorMessageBody, false);
/** Messaging HTTP errors: the texts are documented, the body is not; the reference target sends `{error}`. */
const MESSAGING_BODY: ErrorBody = { name: 'MessagingHttpErrorBody', schema: MessagingHttpErrorBody, documented: false, of: (text) => ({ error: text }) };
/** Document 3: `{message, errors: [{field, message}]}`. */
const AGENTS_BODY: ErrorBody = { name: 'ApiError', schema: ApiError, documented: true, of: (text) => ({ message: text, errors: [] }) };

const BOTH: readonly ErrorClass[] = ['4XX', '5XX'];

/** Chat errors: document 1 shows no status and no body. */
const chatErrors = (entries: Record<string, ErrorEntry> = {}): Errors => ({
  body: RUNTIME_BODY,
  entries: {
    ...pick(ChatErrors, 'MISSING_CREDENTIALS', 'INVALID_CREDENTIALS', 'UNKNOWN_VERSION', 'UNKNOWN_TENANT', 'MALFORMED_JSON', 'INVALID_FIELD'),
    ...entries,
  },
  open: { classes: BOTH, why: 'Document 1: "Error bodies and status codes of the Chat API: not shown."' },
});

/** The two messaging handshake endpoints: document 1's status table for messaging endpoints, the rate limit with Retry-After. */
const messagingErrors = (entries: Record<string, ErrorEntry>): Errors => ({
  body: MESSAGING_BODY,
  statuses: MessagingHttpStatus,
  entries: { ...entries, ...RateLimitErrors },
  headers: { 429: { [RETRY_AFTER_HEADER]: MessagingHttpStatus[429] } },
});

/** The key and tenancy errors every records API answers (401 missing or invalid key, 403 other project, 404 unknown tenant). */
const recordsAuth = <T extends Record<'MISSING_KEY' | 'INVALID_KEY' | 'FORBIDDEN' | 'NOT_FOUND', ErrorEntry>>(group: T) =>
  pick(group, 'MISSING_KEY', 'INVALID_KEY', 'FORBIDDEN', 'NOT_FOUND');

type Doc3Part = 'agent interface' | 'alerts' | 'webhooks';

/** Document 3's one Errors table, the rows limited to another part left out; every endpoint may answer 401, 404 and 500. */
function doc3Errors(part: Doc3Part, entries: Record<string, ErrorEntry>): Errors {
  const statuses = Object.fromEntries(
    Object.entries(AGENTS_ERROR_STATUSES).filter(([status]) => {
      const scope = AGENTS_ERROR_STATUS_SCOPE[Number(status) as AgentsErrorStatus];
      return scope === undefined || scope === part;
    }),
  );
  return {
    body: AGENTS_BODY,
    statuses,
    entries: {
      ...pick(AgentsErrors, 'UNAUTHENTICATED', 'NOT_FOUND', 'INTERNAL'),
      ...(part === 'agent interface' ? pick(AgentsErrors, 'FORBIDDEN') : {}),
      ...(part === 'alerts' ? pick(AgentsErrors, 'MONITORING_SYNC') : {}),
      ...entries,
    },
  };
}
const agentErrors = (entries: Record<string, ErrorEntry> = {}) => doc3Errors('agent interface', entries);
/** Agent operations on an agent (or its branch, deployment, config): a malformed id is 422. */
const agentIdErrors = (entries: Record<string, ErrorEntry> = {}) => agentErrors({ ...pick(AgentsErrors, 'UNPROCESSABLE'), ...entries });

/**
 * The deployments list query as document 3 gives it: "The default and the bounds of the deployments list limit are not
 * shown", so `limit` is a count with no bound here (the reference target's `>= 1` stays in the target's schema).
 */
const DEPLOYMENTS_LIST_QUERY = DeploymentsListQuery.extend({ limit: z.coerce.number().int().optional() });

const tenant = '/{account_id}/{project_id}';

/** The v3 list and v2, which document 2 gives the same schema (cursor included, so the same malformed-cursor 400). */
const conversationsList = (version: 'v2' | 'v3', summary: string): Op => ({
  doc: 2,
  host: 'base_url',
  method: 'get',
  path: `/${version}${tenant}/conversations`,
  summary,
  security: 'conversationsKey',
  query: ConversationsListQueryShape,
  ok: { reference: 200, schema: ConversationsListResponse },
  errors: {
    body: RUNTIME_BODY,
    statuses: CONVERSATIONS_ERROR_STATUSES,
    entries: {
      ...pick(ConversationsErrors, 'MALFORMED_CURSOR', 'CURSOR_FILTERS_CHANGED', 'INVALID_PARAMETER', 'LIMIT_OUT_OF_RANGE'),
      ...recordsAuth(ConversationsErrors),
    },
    open: {
      classes: BOTH,
      why:
        'Document 2: "Status codes for other parameter violations on the conversations list (for example both query_type and sample): not shown." It gives ' +
        'the list no key or server error.',
    },
  },
});

/** Every documented HTTP operation, its host, security scheme, body, query, success answer and errors. */
const OPS: readonly Op[] = [
  {
    doc: 1,
    host: 'base_url',
    method: 'post',
    path: `/{version}${tenant}/chat/create`,
    summary: 'Start a chat conversation.',
    security: 'chat',
    body: ChatCreateRequest,
    ok: { reference: 200, schema: ChatCreateResponse },
    errors: chatErrors(),
  },
  {
    doc: 1,
    host: 'base_url',
    method: 'post',
    path: `/{version}${tenant}/chat/respond`,
    summary: 'Send a message, get the agent reply.',
    security: 'chat',
    body: ChatRespondRequest,
    ok: { reference: 200, schema: ChatRespondResponse },
    errors: chatErrors(pick(ChatErrors, 'CONVERSATION_ID_REQUIRED', 'VARIANT_ONLY_ON_CREATE', 'CONVERSATION_NOT_FOUND', 'CONVERSATION_CLOSED')),
  },
  {
    doc: 1,
    host: 'base_url',
    method: 'put',
    path: `/{version}${tenant}/chat/close`,
    summary: 'Close a conversation.',
    security: 'chat',
    body: ChatCloseRequest,
    ok: { reference: 200, schema: ChatCloseResponse },
    errors: chatErrors(pick(ChatErrors, 'CONVERSATION_ID_REQUIRED', 'CONVERSATION_NOT_FOUND')),
  },
  {
    doc: 1,
    host: 'messaging_url',
    method: 'post',
    path: MessagingPaths.accessToken,
    summary: 'Exchange a connector token for a JWT.',
    security: 'connectorToken',
    body: AccessTokenRequest,
    ok: { status: 200, schema: AccessTokenResponse },
    errors: messagingErrors({ ...AccessTokenErrors, ...pick(SessionErrors, 'PARSE_ERROR') }),
  },
  {
    doc: 1,
    host: 'messaging_url',
    method: 'post',
    path: MessagingPaths.sessions,
    summary: 'Create a session.',
    security: 'accessToken',
    body: SessionRequest,
    ok: { status: 200, schema: SessionResponse },
    errors: messagingErrors(SessionErrors),
  },
  {
    doc: 1,
    host: 'webrtc_url',
    method: 'get',
    path: VoicePaths.iceServers,
    summary: 'Fetch STUN/TURN configuration.',
    security: 'voiceAuthToken',
    ok: { reference: 200, schema: IceServersResponse },
    errors: { body: RUNTIME_BODY, entries: IceServersErrors, open: { classes: BOTH, why: 'Document 1 gives the ice-servers endpoint no error.' } },
  },
  conversationsList('v3', 'List conversation records (v3).'),
  // Document 2: "served at /v3/…, and at /v2/... and /v1/... for the older releases"; "The v2 list response has the same schema as v3."
  conversationsList('v2', 'List conversation records (v2, the same schema as v3).'),
  {
    doc: 2,
    host: 'base_url',
    method: 'get',
    path: `/v1${tenant}/conversations`,
    summary: 'List conversation records (v1).',
    security: 'conversationsKey',
    query: ConversationsListQueryShape,
    ok: { reference: 200, schema: ConversationsListResponseV1AnyProject },
    errors: {
      body: RUNTIME_BODY,
      entries: { ...pick(ConversationsErrors, 'INVALID_PARAMETER', 'LIMIT_OUT_OF_RANGE'), ...recordsAuth(ConversationsErrors) },
      open: {
        classes: BOTH,
        why: "Document 2 gives the v1 list no error status (the list's one documented error, a malformed cursor, is v3's and v2's: v1 has no cursor).",
      },
    },
  },
  {
    doc: 2,
    host: 'base_url',
    method: 'get',
    path: `/v1${tenant}/conversations/concurrency`,
    summary: 'Concurrency series in 5-minute windows.',
    security: 'conversationsKey',
    query: ConcurrencyQueryShape,
    ok: { reference: 200, schema: ConcurrencyResponse },
    errors: { body: errorMessage('ConcurrencyErrorBody', ConcurrencyErrorBody, true), statuses: CONCURRENCY_ERROR_STATUSES, entries: ConcurrencyErrors },
  },
  {
    doc: 2,
    host: 'base_url',
    method: 'get',
    path: `/v3${tenant}/conversations/{conversation_id}/audio`,
    summary: 'Conversation audio as WAV.',
    security: 'conversationsKey',
    query: AudioQuery,
    ok: { reference: 200, contentType: AUDIO_CONTENT_TYPE },
    errors: { body: RUNTIME_BODY, entries: AudioErrors, open: { classes: BOTH, why: 'Document 2 gives the audio endpoint no error status or body.' } },
  },
  {
    doc: 2,
    host: 'base_url',
    method: 'post',
    path: '/v1/external-events/webhook',
    summary: 'Send an external event.',
    security: 'apiKey',
    query: ExternalEventsQuery,
    bodies: ExternalEventsPayload,
    ok: { status: EXTERNAL_EVENTS_SUCCESS_STATUS, schema: ExternalEventsQueuedResponse },
    errors: {
      body: errorMessage('ExternalEventsErrorBody', ExternalEventsErrorBody, true),
      statuses: EXTERNAL_EVENTS_ERROR_STATUSES,
      entries: ExternalEventsErrors,
    },
  },
  {
    doc: 2,
    host: 'base_url',
    method: 'post',
    path: '/v1/outbound-calling',
    summary: 'Trigger an outbound call.',
    security: 'serviceAuthToken',
    body: OutboundTriggerRequest,
    ok: { reference: OUTBOUND_TRIGGER_REFERENCE_STATUS, schema: OutboundTriggerResponse },
    errors: {
      body: errorMessage('OutboundErrorBody', OutboundErrorBody, false),
      entries: pick(OutboundErrors, 'INVALID_DESTINATION', 'INVALID_BODY', 'MISSING_TOKEN', 'INVALID_TOKEN'),
      open: { classes: BOTH, why: 'Document 2: "Error codes of outbound calling other than 404: not shown."' },
    },
  },
  {
    doc: 2,
    host: 'base_url',
    method: 'get',
    path: '/v1/outbound-calling/{call_sid}/status',
    summary: 'Poll an outbound call status.',
    security: 'serviceAuthToken',
    ok: { reference: 200, schema: OutboundStatusResponse },
    errors: {
      body: errorMessage('OutboundErrorBody', OutboundErrorBody, false),
      statuses: OUTBOUND_STATUS_ERROR_STATUSES,
      entries: pick(OutboundErrors, 'UNKNOWN_CALL', 'STATUS_EXPIRED', 'MISSING_TOKEN', 'INVALID_TOKEN'),
      open: { classes: BOTH, why: 'Document 2: "Error codes of outbound calling other than 404: not shown."' },
    },
  },
  {
    doc: 2,
    host: 'base_url',
    method: 'post',
    path: '/internal/v1/agentic-dial/bridge-ended',
    summary: 'Notify that a bridged call ended.',
    security: 'apiKey',
    body: BridgeEndedRequest,
    ok: { reference: BRIDGE_ENDED_REFERENCE_STATUS },
    errors: {
      body: errorMessage('BridgeErrorBody', BridgeErrorBody, true),
      entries: BridgeErrors,
      open: { classes: BOTH, why: 'Document 2 gives the bridge-ended error body (`error_message`) but no status.' },
    },
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'get',
    path: AgentsPaths.agents,
    summary: 'List agents.',
    security: 'apiKey',
    ok: { reference: 200 },
    errors: agentErrors(),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'post',
    path: AgentsPaths.agents,
    summary: 'Create an agent.',
    security: 'apiKey',
    body: AgentCreateRequest,
    ok: { reference: 201, schema: AgentCreateResponse },
    errors: agentErrors(pick(AgentsErrors, 'VALIDATION', 'NAME_LENGTH')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'post',
    path: template(AgentsPaths.branches, 'agentId'),
    summary: 'Create a branch.',
    security: 'apiKey',
    body: BranchCreateRequest,
    ok: { reference: 201, schema: BranchCreateResponse },
    errors: agentIdErrors(pick(AgentsErrors, 'VALIDATION')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'post',
    path: template(AgentsPaths.merge, 'agentId', 'branchId'),
    summary: 'Merge a branch.',
    security: 'apiKey',
    ok: { reference: 200 },
    errors: agentIdErrors(pick(AgentsErrors, 'MERGE_MAIN', 'BRANCH_DIVERGED')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'patch',
    path: template(AgentsPaths.behavior, 'agentId', 'branchId'),
    summary: 'Update branch behavior.',
    security: 'apiKey',
    body: BehaviorUpdateRequest,
    ok: { reference: 200 },
    errors: agentIdErrors(pick(AgentsErrors, 'VALIDATION')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'post',
    path: template(AgentsPaths.topics, 'agentId', 'branchId'),
    summary: 'Create a knowledge base topic.',
    security: 'apiKey',
    body: KnowledgeBaseTopicCreateRequest,
    ok: { reference: 201 },
    errors: agentIdErrors(pick(AgentsErrors, 'VALIDATION')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'post',
    path: template(AgentsPaths.publish, 'agentId'),
    summary: 'Publish to sandbox.',
    security: 'apiKey',
    body: PublishRequest,
    ok: { reference: 201, schema: Deployment },
    errors: agentIdErrors(pick(AgentsErrors, 'VALIDATION')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'post',
    path: template(AgentsPaths.promote, 'agentId', 'deploymentId'),
    summary: 'Promote a deployment.',
    security: 'apiKey',
    ok: { reference: 201, schema: Deployment },
    errors: agentIdErrors(pick(AgentsErrors, 'ALREADY_LIVE')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'get',
    path: template(AgentsPaths.deployments, 'agentId'),
    summary: 'List deployments, newest first.',
    security: 'apiKey',
    query: DEPLOYMENTS_LIST_QUERY,
    ok: { reference: 200, schema: DeploymentsListResponse },
    errors: agentIdErrors(pick(AgentsErrors, 'VALIDATION', 'ENVIRONMENT_REQUIRED')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'patch',
    path: template(AgentsPaths.realTimeConfigVariables, 'agentId', 'config'),
    summary: 'Update real-time config variables.',
    security: 'apiKey',
    body: RealTimeConfigVariablesUpdate,
    ok: { reference: 200 },
    errors: agentIdErrors(pick(AgentsErrors, 'VALIDATION')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'post',
    path: AlertsPaths.alertRules,
    summary: 'Create an alert rule.',
    security: 'apiKey',
    body: AlertRuleCreateRequest,
    ok: { reference: 201, schema: AlertRule },
    errors: doc3Errors('alerts', pick(AgentsErrors, 'VALIDATION', 'THRESHOLD_VALUE', 'METRIC_ENUM', 'ALERT_RULE_LIMIT')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'get',
    path: AlertsPaths.alertRules,
    summary: 'List alert rules.',
    security: 'apiKey',
    query: AlertRulesListQuery,
    ok: { reference: 200, schema: AlertRulesListResponse },
    errors: doc3Errors('alerts', pick(AgentsErrors, 'VALIDATION', 'METRIC_ENUM')),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'get',
    path: AlertsPaths.alerts,
    summary: 'List active alerts.',
    security: 'apiKey',
    ok: { reference: 200, schema: AlertsListResponse },
    errors: doc3Errors('alerts', {}),
  },
  {
    doc: 3,
    host: 'agents_url',
    method: 'post',
    path: WebhooksPaths.endpoints,
    summary: 'Create a webhook endpoint.',
    security: 'apiKey',
    body: WebhookEndpointCreateRequest,
    ok: { reference: 201, schema: WebhookEndpointCreateResponse },
    errors: doc3Errors('webhooks', pick(AgentsErrors, 'VALIDATION', 'WEBHOOK_ENDPOINT_LIMIT')),
  },
];

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
