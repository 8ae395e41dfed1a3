import { type ChatCreateRequest, ChatHeaders, type ChatOperation, type ChatRespondRequest } from '../contract/chat/shapes.js';
import type { LoadedProfile } from '../profile/load.js';
import { type Exchange, logUnanswered, type Response, request, trustFor } from './exchange.js';

/** Overrides for one call, so cases can send what a well-behaved client would not. */
export interface ChatCallOptions {
  /** Replace the credential headers (omit one by setting it undefined). */
  readonly headers?: Record<string, string | undefined>;
  readonly version?: string;
  readonly accountId?: string;
  readonly projectId?: string;
  readonly method?: string;
  /** Send this raw string as the body instead of JSON. */
  readonly rawBody?: string;
}

/**
 * Typed client of the Chat API (document 1). Every call is recorded in `log`, the case's wire log.
 *
 * @example
 * const chat = new ChatClient(loaded);
 * const created = await chat.create({ channel: 'webchat' });
 * await chat.respond({ conversation_id: created.json!.conversation_id, message: 'Hi' });
 */
export class ChatClient {
  constructor(
    private readonly loaded: LoadedProfile,
    /** The wire log this client appends to; shared by all clients of one case. */
    readonly log: Exchange[] = [],
  ) {}

  /** The credential headers, with the documented names. */
  credentialHeaders(): Record<string, string> {
    const { secrets } = this.loaded;
    const out: Record<string, string> = { 'Content-Type': 'application/json' };
    if (secrets.chat_api_key) out[ChatHeaders.apiKey] = secrets.chat_api_key;
    if (secrets.chat_connector_token) out[ChatHeaders.token] = secrets.chat_connector_token;
    return out;
  }

  url(op: string, options: ChatCallOptions = {}): string {
    const p = this.loaded.profile;
    const base = p.hosts.base_url.replace(/\/$/, '');
    return `${base}/${options.version ?? p.api_version}/${encodeURIComponent(options.accountId ?? p.account_id)}/${encodeURIComponent(options.projectId ?? p.project_id)}/chat/${op}`;
  }

  async call<T>(op: ChatOperation | string, method: string, body: unknown, options: ChatCallOptions = {}): Promise<Response<T>> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...this.credentialHeaders(), ...options.headers })) if (v !== undefined) headers[k] = v;
    const res = await request<T>({
      method: options.method ?? method,
      url: this.url(op, options),
      headers,
      body: options.rawBody ?? body,
      trust: trustFor(this.loaded),
    }).catch(logUnanswered(this.log));
    this.log.push(res.exchange);
    return res;
  }

  create(body?: ChatCreateRequest | Record<string, unknown>, options?: ChatCallOptions) {
    return this.call<{ conversation_id: string; response: string }>('create', 'POST', body, options);
  }
  respond(body: Partial<ChatRespondRequest> | Record<string, unknown>, options?: ChatCallOptions) {
    return this.call<{ conversation_id: string; response: string; end_conversation: boolean; handoff?: { destination: string; reason: string } }>(
      'respond',
      'POST',
      body,
      options,
    );
  }
  close(body: { conversation_id?: string } | Record<string, unknown> | undefined, options?: ChatCallOptions) {
    return this.call<{ success: boolean }>('close', 'PUT', body, options);
  }
}
