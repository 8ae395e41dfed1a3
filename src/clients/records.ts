import { AudioHeaders } from '../contract/audio/shapes.js';
import { ConcurrencyHeaders } from '../contract/concurrency/shapes.js';
import { ConversationsHeaders } from '../contract/conversations/shapes.js';
import type { LoadedProfile } from '../profile/load.js';
import { type Exchange, logUnanswered, type Response, request, trustFor } from './exchange.js';

/** A query value: repeated when an array, left out when undefined. */
export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | undefined;
export type Query = Readonly<Record<string, QueryValue>>;

/**
 * A query string with every value percent-encoded (a space is `%20`, as the document asks for
 * variant_name) and array values repeated (`channel=A&channel=B`).
 *
 * @example
 * queryString({ variant_name: 'North branch', channel: ['CHAT', 'SMS'] }); // '?variant_name=North%20branch&channel=CHAT&channel=SMS'
 */
export function queryString(q: Query): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(q)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(one))}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Overrides for one call, so cases can send what a well-behaved client would not. */
export interface RecordsCallOptions {
  /** The x-api-key to send instead of the client's; null sends none. */
  readonly apiKey?: string | null;
  /** Extra headers; one set to undefined is left out. */
  readonly headers?: Record<string, string | undefined>;
  readonly version?: string;
  readonly accountId?: string;
  readonly projectId?: string;
  /** How long the call may take; 30 s unless said. */
  readonly timeoutMs?: number;
}

/** The project a client reads: the profile's, or one the control surface minted for a case. */
export interface RecordsProject {
  readonly accountId: string;
  readonly projectId: string;
  readonly apiKey: string | undefined;
}

const REDACTED = '[redacted]';

/**
 * Typed client of the conversation records of document 2: the conversations list (v1, v2, v3), the
 * concurrency series and audio, all with the `x-api-key` header. Every call lands in the case's
 * wire log; keys of minted projects are concealed there.
 *
 * @example
 * const records = new RecordsClient(loaded, log);
 * const page = await records.list({ client_env: 'live', limit: 50 });
 * const wav = await records.audio(id, { direction: 'user' });
 */
export class RecordsClient {
  constructor(
    private readonly loaded: LoadedProfile,
    /** The wire log this client appends to; shared by all clients of one case. */
    readonly log: Exchange[] = [],
    readonly project: RecordsProject = {
      accountId: loaded.profile.account_id,
      projectId: loaded.profile.project_id,
      apiKey: loaded.secrets.conversations_api_key,
    },
    private readonly concealed: readonly string[] = [],
  ) {}

  /** The same client on another project (a minted one) with its key, which the wire log conceals. */
  forProject(project: RecordsProject): RecordsClient {
    return new RecordsClient(this.loaded, this.log, project, [...this.concealed, ...(project.apiKey ? [project.apiKey] : [])]);
  }

  /** A credential of the profile by name (the no-PII key, the other project's key…). */
  secret(name: 'conversations_api_key' | 'conversations_api_key_no_pii' | 'conversations_other_project_key'): string | undefined {
    return this.loaded.secrets[name];
  }

  get baseUrl(): string {
    return this.loaded.profile.hosts.base_url.replace(/\/$/, '');
  }

  #path(version: string, o: RecordsCallOptions, rest: string): string {
    const account = encodeURIComponent(o.accountId ?? this.project.accountId);
    const project = encodeURIComponent(o.projectId ?? this.project.projectId);
    return `${this.baseUrl}/${o.version ?? version}/${account}/${project}/conversations${rest}`;
  }

  async #get<T>(url: string, header: string, o: RecordsCallOptions): Promise<Response<T>> {
    const key = o.apiKey === null ? undefined : (o.apiKey ?? this.project.apiKey);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...(key !== undefined ? { [header]: key } : {}), ...o.headers })) if (v !== undefined) headers[k] = v;
    const res = await request<T>({ method: 'GET', url, headers, timeoutMs: o.timeoutMs ?? 30_000, trust: trustFor(this.loaded) }).catch(
      logUnanswered(this.log, (ex) => this.#conceal(ex)),
    );
    this.log.push(this.#conceal(res.exchange));
    return res;
  }

  #conceal(ex: Exchange): Exchange {
    if (this.concealed.length === 0) return ex;
    const c = (s: string) => this.concealed.reduce((out, secret) => out.split(secret).join(REDACTED), s);
    return { ...ex, requestHeaders: Object.fromEntries(Object.entries(ex.requestHeaders).map(([k, v]) => [k, c(v)])) };
  }

  /** GET /{version}/{account_id}/{project_id}/conversations (v3 unless the options say otherwise). */
  list<T = unknown>(query: Query = {}, options: RecordsCallOptions = {}): Promise<Response<T>> {
    return this.#get<T>(this.#path('v3', options, queryString(query)), ConversationsHeaders.apiKey, options);
  }

  /** GET /v1/{account_id}/{project_id}/conversations/concurrency. */
  concurrency<T = unknown>(query: Query, options: RecordsCallOptions = {}): Promise<Response<T>> {
    return this.#get<T>(this.#path('v1', options, `/concurrency${queryString(query)}`), ConcurrencyHeaders.apiKey, options);
  }

  /** GET /v3/{account_id}/{project_id}/conversations/{conversation_id}/audio; the WAV is in `bytes`. */
  audio(conversationId: string, query: Query = {}, options: RecordsCallOptions = {}): Promise<Response<unknown>> {
    return this.#get(this.#path('v3', options, `/${encodeURIComponent(conversationId)}/audio${queryString(query)}`), AudioHeaders.apiKey, options);
  }
}
