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
  ChatRespondRequest,
  ChatRespondResponse,
  ErrorMessageBody,
} from './chat/shapes.js';
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
import type { RuleId } from './index.js';
import { ALERT_RULES_LIST, CONCURRENCY_SERIES, CONVERSATIONS_LIST, DEPLOYMENTS_LIST, type ListFacts } from './lists.js';
import {
  AccessTokenErrors,
  AccessTokenRequest,
  AccessTokenResponse,
  JSON_CONTENT_TYPE,
  MessagingHttpErrorBody,
  MessagingHttpStatus,
  MessagingPaths,
  RateLimitErrors,
  RETRY_AFTER_HEADER,
  SessionErrors,
  SessionRequest,
  SessionResponse,
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
import { IceServersErrors, IceServersResponse, VoicePaths } from './voice/shapes.js';
import { WebhookEndpointCreateRequest, WebhookEndpointCreateResponse, WebhooksPaths } from './webhooks/shapes.js';

// The documented HTTP operations, one row each: host, method, path, body, query, success answer and errors. The
// OpenAPI exporter and the suite's derived checks read this table, so a new operation or field gets both.

type Json = Record<string, unknown>;

/**
 * A path template from a path builder of `src/contract`: the builders encode their arguments (`{` becomes `%7B`), so
 * the placeholders are turned back.
 *
 * @example
 * template(AgentsPaths.branches, 'agentId') // '/v1/agents/{agentId}/branches'
 */
export function template<A extends string[]>(build: (...args: A) => string, ...names: A): string {
  return build(...(names.map((n) => `{${n}}`) as A)).replace(/%7B(\w+)%7D/gi, '{$1}');
}

/** The entries of an error group with the given names, under those names. */
export function pick<T extends Record<string, ErrorEntry>, K extends keyof T & string>(group: T, ...keys: K[]): Record<K, ErrorEntry> {
  return Object.fromEntries(keys.map((k) => [k, group[k]])) as unknown as Record<K, ErrorEntry>;
}

export type HostKey = 'base_url' | 'messaging_url' | 'webrtc_url' | 'agents_url';
export type Doc = 1 | 2 | 3;
export type ErrorClass = '4XX' | '5XX';

/** The body an error comes in: its schema, whether the documents show it, and how it carries an entry's text. */
export interface ErrorBody {
  /** Its name under `components.schemas`. */
  readonly name: string;
  readonly schema: z.ZodType;
  /** False: the documents do not show the body; the schema is the reference target's. */
  readonly documented: boolean;
  /** The body carrying a text, as the reference target sends it (checked against `schema` when exported). */
  readonly of: (text: string) => Json;
}

/** The errors of one operation. */
export interface Errors {
  readonly body: ErrorBody;
  /** The statuses the documents give the operation, each with its documented meaning. */
  readonly statuses?: Readonly<Record<number, string>>;
  /** The catalogue entries the reference target answers on this operation, by their catalogue names. */
  readonly entries: Readonly<Record<string, ErrorEntry>>;
  /** Status classes the documents leave open for this operation, and where they say so. */
  readonly open?: { readonly classes: readonly ErrorClass[]; readonly why: string };
  /** Documented response headers of a status, name to meaning. */
  readonly headers?: Readonly<Record<number, Readonly<Record<string, string>>>>;
  /** The rule that states the error body, where a document shows it: a derived check of an error answer fails this rule. */
  readonly bodyRule?: RuleId;
  /** The rule that states the documented response headers (`headers`): a derived check of their format fails this rule. */
  readonly headersRule?: RuleId;
}

/** The success answer: the documented status, or, where the documents show none, what the reference target answers. */
export type Success = ({ readonly status: number } | { readonly reference: number }) & { readonly schema?: z.ZodType; readonly contentType?: string };

/** One HTTP operation of the documents. */
export interface Op {
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
  /**
   * The success answer as the documents state it, and the rule that says so. The suite checks every success answer of
   * the operation it sees against it (derived checks): a part whose shape names a rule of its own (`meaning`) fails that
   * rule, the rest this one. `schema` is `ok.schema` unless that holds the reference target's own choices.
   */
  readonly shape?: { readonly rule: RuleId; readonly schema?: z.ZodType };
  /**
   * Request headers the documents require, by name: the documented value, the rule that requires it and the status a
   * request without it (or with another value) gets. The suite derives a refused request from each.
   */
  readonly requires?: Readonly<Record<string, { readonly value: string; readonly rule: RuleId; readonly status: number }>>;
  /**
   * The statuses the documents give a request whose field breaks a documented bound (a length, a minimum): the suite
   * derives such requests from the body's fields that name their rule (`meaning`).
   */
  readonly invalid?: readonly number[];
  /** For a list: what its filters keep, its order and its cap, checked on every answer the suite sees (derived checks). */
  readonly list?: ListFacts;
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
  headersRule: 'messaging.limits.rate-limit-http',
});

/** The key and tenancy errors every records API answers (401 missing or invalid key, 403 other project, 404 unknown tenant). */
const recordsAuth = <T extends Record<'MISSING_KEY' | 'INVALID_KEY' | 'FORBIDDEN' | 'NOT_FOUND', ErrorEntry>>(group: T) =>
  pick(group, 'MISSING_KEY', 'INVALID_KEY', 'FORBIDDEN', 'NOT_FOUND');

type Doc3Part = 'agent interface' | 'alerts' | 'webhooks';

/** Document 3 gives a validation error 400 ("in body or parameters") and 422 ("schema validation error"): either. */
const DOC3_INVALID = [400, 422] as const;

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
    bodyRule: 'agents.errors.body-shape',
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

export const tenant = '/{account_id}/{project_id}';

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
  shape: { rule: version === 'v3' ? 'conversations.record.fields' : 'conversations.v2.same-schema' },
  list: CONVERSATIONS_LIST,
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
export const OPS: readonly Op[] = [
  {
    doc: 1,
    host: 'base_url',
    method: 'post',
    path: `/{version}${tenant}/chat/create`,
    summary: 'Start a chat conversation.',
    security: 'chat',
    body: ChatCreateRequest,
    ok: { reference: 200, schema: ChatCreateResponse },
    shape: { rule: 'chat.create.response-fields' },
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
    shape: { rule: 'chat.respond.response-fields' },
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
    shape: { rule: 'chat.close.success-true' },
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
    requires: { 'Content-Type': { value: JSON_CONTENT_TYPE, rule: 'messaging.access-token.content-type-required', status: 400 } },
    ok: { status: 200, schema: AccessTokenResponse },
    shape: { rule: 'messaging.access-token.response-fields' },
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
    requires: { 'Content-Type': { value: JSON_CONTENT_TYPE, rule: 'messaging.session.content-type-required', status: 400 } },
    ok: { status: 200, schema: SessionResponse },
    shape: { rule: 'messaging.session.success' },
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
    shape: { rule: 'voice.ice-servers.usable-directly' },
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
    shape: { rule: 'conversations.v1.descriptions' },
    list: CONVERSATIONS_LIST,
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
    shape: { rule: 'concurrency.response.fields' },
    list: CONCURRENCY_SERIES,
    errors: {
      body: errorMessage('ConcurrencyErrorBody', ConcurrencyErrorBody, true),
      bodyRule: 'concurrency.errors.error-message-body',
      statuses: CONCURRENCY_ERROR_STATUSES,
      entries: ConcurrencyErrors,
    },
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
      bodyRule: 'external-events.errors.error-message-body',
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
    shape: { rule: 'outbound.trigger.call-sid-prefix' },
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
      bodyRule: 'bridge.errors.error-message-body',
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
    invalid: DOC3_INVALID,
    ok: { reference: 201, schema: AgentCreateResponse },
    shape: { rule: 'agents.agent.create-returns-agent-id', schema: AgentCreateResponse.pick({ agentId: true }) },
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
    shape: { rule: 'agents.deployments.record-fields' },
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
    shape: { rule: 'agents.deployments.record-fields' },
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
    shape: { rule: 'agents.deployments.list-shape' },
    list: DEPLOYMENTS_LIST,
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
    invalid: DOC3_INVALID,
    ok: { reference: 201, schema: AlertRule },
    shape: { rule: 'alerts.rules.id-ar-prefix', schema: AlertRule.pick({ id: true }) },
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
    shape: { rule: 'alerts.rules.list-fields' },
    list: ALERT_RULES_LIST,
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
    shape: { rule: 'webhooks.endpoint.signing-secret-once', schema: WebhookEndpointCreateResponse.pick({ signing_secret: true }) },
    errors: doc3Errors('webhooks', pick(AgentsErrors, 'VALIDATION', 'WEBHOOK_ENDPOINT_LIMIT')),
  },
];
