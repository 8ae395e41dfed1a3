import { z } from 'zod';
import { AgentsRegion, ClientEnv } from '../common.js';
import { meaning } from '../meaning.js';
import { defineErrors } from '../rule.js';

/** Regions of the agents host (`{agents_url}`): us, uk, eu; a host without one is invalid. */
export const AgentsHostRegion = AgentsRegion;
export type AgentsHostRegion = z.infer<typeof AgentsHostRegion>;

/** Deployment environments, in promotion order: sandbox (testing), pre-release (staging), live (production). */
export const DeploymentEnvironment = ClientEnv;
export type DeploymentEnvironment = z.infer<typeof DeploymentEnvironment>;

/** The promotion order of deployment environments (document 3, States and transitions). */
export const PROMOTION_ORDER = ['sandbox', 'pre-release', 'live'] as const satisfies readonly DeploymentEnvironment[];

/** The environment a promote moves a deployment to; undefined for live (promoting live is not shown). */
export function nextEnvironment(env: DeploymentEnvironment): DeploymentEnvironment | undefined {
  const i = PROMOTION_ORDER.indexOf(env);
  return PROMOTION_ORDER[i + 1];
}

/** The default branch every agent has. */
export const DEFAULT_BRANCH = 'main' as const;

/** Agent name length bounds (document 3, Limits). */
export const AGENT_NAME_MIN = 1;
export const AGENT_NAME_MAX = 128;

/** The documented status meanings of document 3's Errors table, verbatim. */
export const AGENTS_ERROR_STATUSES = {
  400: 'Validation error in body or parameters.',
  401: 'Missing or invalid API key.',
  403: 'Key lacks permission for the workspace or resource (agent interface).',
  404: 'Resource not found.',
  409: 'Conflict, such as merging a diverged branch; or a resource limit reached (alert rules, webhook endpoints).',
  422: 'Malformed ID or schema validation error.',
  500: 'Internal error.',
  502: 'Monitoring backend sync failure (alerts).',
} as const;
export type AgentsErrorStatus = keyof typeof AGENTS_ERROR_STATUSES;

/** The part of document 3 a row of its Errors table is limited to, as its parenthesis says; every other row applies to every endpoint. */
export const AGENTS_ERROR_STATUS_SCOPE: Partial<Record<AgentsErrorStatus, 'agent interface' | 'alerts'>> = {
  403: 'agent interface',
  502: 'alerts',
};

/**
 * Error catalogue of document 3 (agents, alerts, webhooks). Statuses and meanings are documented; the
 * wire texts of status entries are the reference target's wording (`documented: false`). The three
 * example messages are given by the document as prose examples; their exact strings are pinned here
 * verbatim (`documented: true`), and their status (400) is the reference target's choice (400 or 422).
 */
export const AgentsErrors = defineErrors({
  VALIDATION: { status: 400, text: 'Validation error in body or parameters', documented: false },
  /** Status not shown for a host without region; the reference target sends 400. */
  REGION_REQUIRED: { status: 400, text: 'The agents host must name a region: us, uk or eu', documented: false },
  ENVIRONMENT_REQUIRED: { status: 400, text: 'environment is required: sandbox, pre-release or live', documented: false },
  UNAUTHENTICATED: { status: 401, text: 'Missing or invalid API key', documented: false },
  FORBIDDEN: { status: 403, text: 'Key lacks permission for the workspace or resource', documented: false },
  NOT_FOUND: { status: 404, text: 'Resource not found', documented: false },
  BRANCH_DIVERGED: { status: 409, text: 'Branch has diverged and cannot be merged', documented: false },
  /** Promoting a live deployment is not shown; the reference target answers 409. */
  ALREADY_LIVE: { status: 409, text: 'Deployment is already live', documented: false },
  /** Merging main into itself is not shown; the reference target answers 400. */
  MERGE_MAIN: { status: 400, text: 'The main branch cannot be merged into itself', documented: false },
  ALERT_RULE_LIMIT: { status: 409, text: 'Alert rule limit reached: 10 per account', documented: false },
  WEBHOOK_ENDPOINT_LIMIT: { status: 409, text: 'Webhook endpoint limit reached', documented: false },
  UNPROCESSABLE: { status: 422, text: 'Malformed ID or schema validation error', documented: false },
  INTERNAL: { status: 500, text: 'Internal error', documented: false },
  MONITORING_SYNC: { status: 502, text: 'Monitoring backend sync failure', documented: false },
  /** Documented as an example message (prose); pinned verbatim. */
  NAME_LENGTH: { status: 400, text: 'name must be between 1 and 128 characters', documented: true },
  /** Documented as an example message (prose); pinned verbatim. */
  THRESHOLD_VALUE: { status: 400, text: 'threshold_value must be a non-negative integer', documented: true },
  /** Documented as an example message (prose); pinned verbatim. */
  METRIC_ENUM: { status: 400, text: 'metric must be one of the six metric values', documented: true },
});

/** One entry of an error body's `errors` array. */
export const ApiErrorItem = z.object({
  field: z.string(),
  message: z.string(),
});
export type ApiErrorItem = z.infer<typeof ApiErrorItem>;

/** Error body of document 3: `{message, errors: [{field, message}]}`. */
export const ApiError = z.object({
  message: z.string(),
  errors: z.array(ApiErrorItem),
});
export type ApiError = z.infer<typeof ApiError>;

/** Agent name: 1 to 128 characters; violations carry the pinned example message. */
export const AgentName = meaning(
  z.string({ error: AgentsErrors.NAME_LENGTH.text }).min(AGENT_NAME_MIN, AgentsErrors.NAME_LENGTH.text).max(AGENT_NAME_MAX, AgentsErrors.NAME_LENGTH.text),
  { rule: 'agents.agent.name-max-128', length: 'characters' },
);

/** POST /v1/agents body; whether `description` is required is not shown (the reference accepts it absent). */
export const AgentCreateRequest = z.object({
  name: AgentName,
  description: z.string().optional(),
});
export type AgentCreateRequest = z.infer<typeof AgentCreateRequest>;

/**
 * POST /v1/agents response. Reference choice: the document only says it includes `agentId` and a
 * default `main` branch; the field names besides `agentId` are the reference target's.
 */
export const AgentCreateResponse = z.object({
  agentId: z.string(),
  name: z.string(),
  description: z.string().optional(),
  defaultBranch: z.literal(DEFAULT_BRANCH),
});
export type AgentCreateResponse = z.infer<typeof AgentCreateResponse>;

/** POST /v1/agents/{agentId}/branches body. */
export const BranchCreateRequest = z.object({ name: z.string() });
export type BranchCreateRequest = z.infer<typeof BranchCreateRequest>;

/** Branch create response. Reference choice: not shown by the document. */
export const BranchCreateResponse = z.object({
  branchId: z.string(),
  name: z.string(),
});
export type BranchCreateResponse = z.infer<typeof BranchCreateResponse>;

/** PATCH .../branches/{branchId}/behavior body: the system prompt and interaction rules. */
export const BehaviorUpdateRequest = z.object({ behavior: z.string() });
export type BehaviorUpdateRequest = z.infer<typeof BehaviorUpdateRequest>;

/** POST .../branches/{branchId}/knowledge-base/topics body. */
export const KnowledgeBaseTopicCreateRequest = z.object({
  name: z.string(),
  content: z.string(),
});
export type KnowledgeBaseTopicCreateRequest = z.infer<typeof KnowledgeBaseTopicCreateRequest>;

/** POST /v1/agents/{agentId}/deployments/publish body. */
export const PublishRequest = z.object({ environment: DeploymentEnvironment });
export type PublishRequest = z.infer<typeof PublishRequest>;

/** A deployment record: every field a string except `metadata` (object). */
export const Deployment = z.object({
  id: z.string(),
  accountId: z.string(),
  agentId: z.string(),
  environment: z.string(),
  artifactVersion: z.string(),
  version: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  metadata: z.record(z.string(), z.unknown()),
});
export type Deployment = z.infer<typeof Deployment>;

/**
 * GET /v1/agents/{agentId}/deployments query: `environment` required, `limit` caps the count.
 * The default and bounds of `limit` are not shown; the reference requires an integer >= 1 and returns all when absent.
 */
export const DeploymentsListQuery = z.object({
  // A schema of its own (the same values), so its meaning stays off the publish request's environment.
  environment: meaning(z.enum(DeploymentEnvironment.options), { rule: 'agents.deployments.environment-required', required: { statuses: [400] } }),
  limit: z.coerce.number().int().min(1).optional(),
});
export type DeploymentsListQuery = z.infer<typeof DeploymentsListQuery>;

/** Deployments list response, newest first. */
export const DeploymentsListResponse = z.object({ deployments: z.array(Deployment) });
export type DeploymentsListResponse = z.infer<typeof DeploymentsListResponse>;

/** PATCH /v1/agents/{agentId}/real-time-configs/{config}/variables body; takes effect with no publish. */
export const RealTimeConfigVariablesUpdate = z.object({
  variables: z.record(z.string(), z.unknown()),
});
export type RealTimeConfigVariablesUpdate = z.infer<typeof RealTimeConfigVariablesUpdate>;

const seg = (s: string): string => encodeURIComponent(s);

/** The documented agent paths (all under `/v1/agents` on the regional `{agents_url}`). */
export const AgentsPaths = {
  agents: '/v1/agents',
  branches: (agentId: string) => `/v1/agents/${seg(agentId)}/branches`,
  merge: (agentId: string, branchId: string) => `/v1/agents/${seg(agentId)}/branches/${seg(branchId)}/merge`,
  behavior: (agentId: string, branchId: string) => `/v1/agents/${seg(agentId)}/branches/${seg(branchId)}/behavior`,
  topics: (agentId: string, branchId: string) => `/v1/agents/${seg(agentId)}/branches/${seg(branchId)}/knowledge-base/topics`,
  publish: (agentId: string) => `/v1/agents/${seg(agentId)}/deployments/publish`,
  promote: (agentId: string, deploymentId: string) => `/v1/agents/${seg(agentId)}/deployments/${seg(deploymentId)}/promote`,
  deployments: (agentId: string) => `/v1/agents/${seg(agentId)}/deployments`,
  realTimeConfigVariables: (agentId: string, config: string) => `/v1/agents/${seg(agentId)}/real-time-configs/${seg(config)}/variables`,
} as const;

/**
 * Paths document 3 only names, as the suite spells them when it asks what a target answers there: not operations of the
 * contract ("Paths for attributes, variants, voice, telephony connectors, phone numbers and real-time config schema
 * definition are not shown"; "Rollback is named only: its path, body and effect are not shown"). The reference target
 * declines them with its not-found answer, and its own contract lists them as not shown.
 */
export const AgentsPathsNotShown = {
  /** GET each: `agents.paths.other-resources`. */
  otherResources: [
    '/v1/agents/{agentId}/branches/{branchId}/attributes',
    '/v1/agents/{agentId}/branches/{branchId}/variants',
    '/v1/agents/{agentId}/voice',
    '/v1/agents/{agentId}/telephony/connectors',
    '/v1/agents/{agentId}/telephony/phone-numbers',
    '/v1/agents/{agentId}/real-time-configs/{config}/schema',
  ],
  /** POST: `agents.deployments.rollback`. */
  rollback: '/v1/agents/{agentId}/deployments/{deploymentId}/rollback',
} as const;

/** The API key header of every document 3 endpoint. */
export const API_KEY_HEADER = 'x-api-key' as const;
