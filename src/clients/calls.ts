import { BridgeHeaders } from '../contract/bridge/shapes.js';
import { ExternalEventsHeaders } from '../contract/external-events/shapes.js';
import { OutboundHeaders } from '../contract/outbound/shapes.js';
import type { LoadedProfile } from '../profile/load.js';
import { type Exchange, logUnanswered, type Response, request, trustFor } from './exchange.js';
import { type Query, queryString } from './records.js';

/** Overrides for one call, so cases can send what a well-behaved client would not. */
export interface CallsCallOptions {
  /** Replace headers; one set to undefined is left out (for example the credential). */
  readonly headers?: Record<string, string | undefined>;
}

/** A webhook body as sent: its Content-Type and its text, stored opaque by the target. */
export interface WebhookBody {
  readonly contentType?: string;
  readonly text?: string;
}

/**
 * Typed client of the call operations of document 2 on `{base_url}`: the external events webhook
 * and bridge-ended (`X-Api-Key`, the external-events key) and outbound calling
 * (`X-Service-Auth-Token`). Every call lands in the case's wire log.
 *
 * @example
 * const calls = new CallsClient(loaded, log);
 * const sid = (await calls.trigger({ to_number: '+447700900123' })).json?.call_sid;
 * await calls.status(sid);
 */
/** A JSON object body with its top-level field names put through `names` (reference name to platform name). */
function renameFields(body: unknown, names: Readonly<Record<string, string>>): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [names[k] ?? k, v]));
}

export class CallsClient {
  constructor(
    private readonly loaded: LoadedProfile,
    /** The wire log this client appends to; shared by all clients of one case. */
    readonly log: Exchange[] = [],
  ) {}

  get baseUrl(): string {
    return this.loaded.profile.hosts.base_url.replace(/\/$/, '');
  }

  async #send<T>(method: string, path: string, base: Record<string, string | undefined>, body: unknown, o: CallsCallOptions): Promise<Response<T>> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...base, ...o.headers })) if (v !== undefined) headers[k] = v;
    const res = await request<T>({ method, url: `${this.baseUrl}${path}`, headers, body, trust: trustFor(this.loaded) }).catch(logUnanswered(this.log));
    this.log.push(res.exchange);
    return res;
  }

  /** POST /v1/external-events/webhook with the four query parameters and a body of any accepted type. */
  webhook<T = unknown>(query: Query, body: WebhookBody = {}, options: CallsCallOptions = {}): Promise<Response<T>> {
    const headers = { [ExternalEventsHeaders.apiKey]: this.loaded.secrets.external_events_key, 'Content-Type': body.contentType };
    return this.#send<T>('POST', `/v1/external-events/webhook${queryString(query)}`, headers, body.text, options);
  }

  /**
   * POST /v1/outbound-calling: starts a call. Cases write the reference field names (`to_number`, …); the body goes out
   * with the platform's (the profile's `names.outbound_trigger`), since the document names the contents but no fields.
   */
  trigger<T = { call_sid?: unknown }>(body: unknown, options: CallsCallOptions = {}): Promise<Response<T>> {
    const headers = { [OutboundHeaders.serviceAuthToken]: this.loaded.secrets.outbound_token, 'Content-Type': 'application/json' };
    return this.#send<T>('POST', '/v1/outbound-calling', headers, renameFields(body, this.loaded.profile.names.outbound_trigger), options);
  }

  /** GET /v1/outbound-calling/{call_sid}/status. */
  status<T = { status?: unknown }>(callSid: string, options: CallsCallOptions = {}): Promise<Response<T>> {
    const headers = { [OutboundHeaders.serviceAuthToken]: this.loaded.secrets.outbound_token };
    return this.#send<T>('GET', `/v1/outbound-calling/${encodeURIComponent(callSid)}/status`, headers, undefined, options);
  }

  /** POST /internal/v1/agentic-dial/bridge-ended. */
  bridgeEnded<T = unknown>(body: unknown, options: CallsCallOptions = {}): Promise<Response<T>> {
    const headers = { [BridgeHeaders.apiKey]: this.loaded.secrets.external_events_key, 'Content-Type': 'application/json' };
    return this.#send<T>('POST', '/internal/v1/agentic-dial/bridge-ended', headers, body, options);
  }
}
