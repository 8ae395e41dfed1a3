import {
  type AgentCreateRequest,
  AgentsPaths,
  API_KEY_HEADER,
  type BranchCreateRequest,
  type DeploymentEnvironment,
  type KnowledgeBaseTopicCreateRequest,
} from '../contract/agents/shapes.js';
import { type AlertRuleCreateRequest, type AlertRuleUpdateRequest, AlertsPaths } from '../contract/alerts/shapes.js';
import { AgentsRegion } from '../contract/common.js';
import { type WebhookEndpointCreateRequest, WebhooksPaths } from '../contract/webhooks/shapes.js';
import type { LoadedProfile } from '../profile/load.js';
import { type Exchange, logUnanswered, type Response, request, trustFor } from './exchange.js';

/** Overrides for one call, so cases can send what a well-behaved client would not. */
export interface AgentsCallOptions {
  /** Replace headers; a header set to undefined is left out (for example the API key). */
  readonly headers?: Record<string, string | undefined>;
  readonly query?: Record<string, string | number | boolean | undefined>;
  /** Send this raw string as the body instead of JSON. */
  readonly rawBody?: string;
  /** Another host of the family, for example the one without a region. */
  readonly baseUrl?: string;
}

/** A JSON object body as the cases read it; fields are checked with the spec's schemas. */
type Json = Record<string, unknown>;

const REDACTED = '[redacted]';

/** Replaces every concealed value in a text (values shorter than 8 characters are never concealed). */
function conceal(text: string, secrets: ReadonlySet<string>): string {
  let out = text;
  for (const s of secrets) if (s.length >= 8) out = out.split(s).join(REDACTED);
  return out;
}

/**
 * Typed client of document 3 (agents, alert rules, alerts, webhook endpoints) on `{agents_url}`.
 * Every call lands in the case's wire log; keys minted for a case and signing secrets the target
 * returns are concealed there (the profile's own secrets are redacted by the report as always).
 *
 * @example
 * const agents = new AgentsClient(loaded, log);
 * const created = await agents.createAgent({ name: 'Support', description: 'front desk' });
 * await agents.publish(created.json!.agentId as string, 'sandbox');
 */
/** What cases create on an account and delete again: the profile's `cleanup` names the delete path of each. */
export type CreatedKind = 'alert_rule' | 'webhook_endpoint';
const CREATES: Record<string, CreatedKind> = { [AlertsPaths.alertRules]: 'alert_rule', [WebhooksPaths.endpoints]: 'webhook_endpoint' };

export class AgentsClient {
  /** Alert rules and webhook endpoints this client created: a case deletes them when it ends (see cleanUp). */
  readonly created: { kind: CreatedKind; id: string }[] = [];

  /** Records a created rule or endpoint, so a real account is left as it was found. */
  #remember(method: string, path: string, o: AgentsCallOptions, res: Response<unknown>): void {
    const kind = method === 'POST' && !o.baseUrl ? CREATES[path] : undefined;
    const id = (res.json as { id?: unknown } | undefined)?.id;
    if (kind && res.status >= 200 && res.status < 300 && typeof id === 'string') this.created.push({ kind, id });
  }

  /**
   * Deletes what this client created, through the profile's `cleanup` paths (the documents show none). Returns what it
   * could not delete: kinds without a path, and deletes that failed with something other than 404 (already gone).
   */
  async cleanUp(): Promise<{ kind: CreatedKind; id: string }[]> {
    const paths = this.loaded.profile.cleanup ?? {};
    const left: { kind: CreatedKind; id: string }[] = [];
    for (const item of this.created.splice(0)) {
      const template = paths[item.kind];
      if (!template) {
        left.push(item);
        continue;
      }
      const res = await this.call('DELETE', template.replace('{id}', encodeURIComponent(item.id))).catch(() => undefined);
      if (!res || (res.status >= 300 && res.status !== 404)) left.push(item);
    }
    return left;
  }

  readonly #secrets: Set<string>;
  constructor(
    private readonly loaded: LoadedProfile,
    /** The wire log this client appends to; shared by all clients of one case. */
    readonly log: Exchange[] = [],
    private readonly apiKey: string | undefined = loaded.secrets.agents_api_key,
    secrets: Set<string> = new Set(),
  ) {
    this.#secrets = secrets;
  }

  /** The same client with another API key (a minted account's, or a second credential); the key is concealed. */
  withKey(key: string): AgentsClient {
    this.#secrets.add(key);
    return new AgentsClient(this.loaded, this.log, key, this.#secrets);
  }

  /** Keeps a value out of the wire log from now on. */
  conceal(secret: string): void {
    this.#secrets.add(secret);
  }

  /** The regional host of the family. */
  get baseUrl(): string {
    const url = this.loaded.profile.hosts.agents_url;
    if (!url) throw new Error('the profile names no hosts.agents_url');
    return url.replace(/\/$/, '');
  }

  /** The region the regional host serves: the profile's agents_region, else the host name's first label when it is one. */
  get region(): string | undefined {
    return this.loaded.profile.agents_region ?? AgentsRegion.options.find((r) => new URL(this.baseUrl).hostname.startsWith(`${r}.`));
  }

  /** The family host without a region: the profile's, else the regional host name without its region label. */
  get regionlessUrl(): string | undefined {
    const given = this.loaded.profile.hosts.agents_regionless_url;
    if (given) return given;
    const url = new URL(this.baseUrl);
    const region = AgentsRegion.options.find((r) => url.hostname.startsWith(`${r}.`));
    if (!region) return undefined;
    url.hostname = url.hostname.slice(region.length + 1);
    return url.toString().replace(/\/$/, '');
  }

  async call<T = Json>(method: string, path: string, body?: unknown, options: AgentsCallOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = {};
    const all = {
      ...(body !== undefined || options.rawBody !== undefined ? { 'Content-Type': 'application/json' } : {}),
      [API_KEY_HEADER]: this.apiKey,
      ...options.headers,
    };
    for (const [k, v] of Object.entries(all)) if (v !== undefined) headers[k] = v;
    const query = Object.entries(options.query ?? {}).filter((e): e is [string, string | number | boolean] => e[1] !== undefined);
    const qs = query.length ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
    const url = `${(options.baseUrl ?? this.baseUrl).replace(/\/$/, '')}${path}${qs}`;
    const res = await request<T>({ method, url, headers, body: options.rawBody ?? body, trust: trustFor(this.loaded) }).catch(
      logUnanswered(this.log, (ex) => this.#concealed(ex)),
    );
    this.#remember(method, path, options, res);
    const secret = (res.json as Json | undefined)?.signing_secret;
    if (typeof secret === 'string') this.#secrets.add(secret);
    this.log.push(this.#concealed(res.exchange));
    return res;
  }

  #concealed(ex: Exchange): Exchange {
    const c = (s: string) => conceal(s, this.#secrets);
    return {
      ...ex,
      url: c(ex.url),
      requestHeaders: Object.fromEntries(Object.entries(ex.requestHeaders).map(([k, v]) => [k, c(v)])),
      requestBody: ex.requestBody === undefined ? undefined : c(ex.requestBody),
      responseBody: c(ex.responseBody),
    };
  }

  // Agents (document 3, Endpoints).
  listAgents(options?: AgentsCallOptions) {
    return this.call('GET', AgentsPaths.agents, undefined, options);
  }
  createAgent(body: AgentCreateRequest | Json, options?: AgentsCallOptions) {
    return this.call('POST', AgentsPaths.agents, body, options);
  }
  createBranch(agentId: string, body: BranchCreateRequest | Json, options?: AgentsCallOptions) {
    return this.call('POST', AgentsPaths.branches(agentId), body, options);
  }
  merge(agentId: string, branchId: string, options?: AgentsCallOptions) {
    return this.call('POST', AgentsPaths.merge(agentId, branchId), undefined, options);
  }
  updateBehavior(agentId: string, branchId: string, body: { behavior: unknown }, options?: AgentsCallOptions) {
    return this.call('PATCH', AgentsPaths.behavior(agentId, branchId), body, options);
  }
  createTopic(agentId: string, branchId: string, body: KnowledgeBaseTopicCreateRequest | Json, options?: AgentsCallOptions) {
    return this.call('POST', AgentsPaths.topics(agentId, branchId), body, options);
  }
  publish(agentId: string, environment: DeploymentEnvironment | string, options?: AgentsCallOptions) {
    return this.call('POST', AgentsPaths.publish(agentId), { environment }, options);
  }
  promote(agentId: string, deploymentId: string, options?: AgentsCallOptions) {
    return this.call('POST', AgentsPaths.promote(agentId, deploymentId), undefined, options);
  }
  deployments(agentId: string, query: { environment?: string; limit?: number | string } = {}, options: AgentsCallOptions = {}) {
    return this.call('GET', AgentsPaths.deployments(agentId), undefined, { ...options, query: { ...query, ...options.query } });
  }
  updateVariables(agentId: string, config: string, variables: unknown, options?: AgentsCallOptions) {
    return this.call('PATCH', AgentsPaths.realTimeConfigVariables(agentId, config), { variables }, options);
  }

  // Alert rules and alerts.
  createRule(body: AlertRuleCreateRequest | Json, options?: AgentsCallOptions) {
    return this.call('POST', AlertsPaths.alertRules, body, options);
  }
  listRules(query: Record<string, string | boolean | undefined> = {}, options: AgentsCallOptions = {}) {
    return this.call<{ data: Json[] }>('GET', AlertsPaths.alertRules, undefined, { ...options, query });
  }
  /** PATCH of one rule; the single-rule path is the reference's (not shown). */
  updateRule(id: string, body: AlertRuleUpdateRequest | Json, options?: AgentsCallOptions) {
    return this.call('PATCH', AlertsPaths.alertRule(id), body, options);
  }
  deleteRule(id: string, options?: AgentsCallOptions) {
    return this.call('DELETE', AlertsPaths.alertRule(id), undefined, options);
  }
  alerts(options?: AgentsCallOptions) {
    return this.call('GET', AlertsPaths.alerts, undefined, options);
  }

  // Webhook endpoints.
  createEndpoint(body: WebhookEndpointCreateRequest | Json, options?: AgentsCallOptions) {
    return this.call('POST', WebhooksPaths.endpoints, body, options);
  }
}
