// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
import http, { type Params, type RefinedResponse } from 'k6/http';
import type { ChatOperation } from '../../contract/chat/shapes.js';
import { ChatHeaders } from '../../contract/chat/wire.js';
import type { LoadConfig } from '../config.js';
import { requestTimeout, secret } from './config.js';

/** Chat calls tagged by operation name, never by the URL (which holds ids). */
export class ChatVu {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  /** Request parameters per operation, made once: the same object for every request of that operation. */
  readonly #params = new Map<ChatOperation, Params>();
  readonly #cfg: LoadConfig;
  constructor(cfg: LoadConfig) {
    this.#cfg = cfg;
    const t = cfg.target;
    this.#base = `${(t.hosts.base_url ?? '').replace(/\/$/, '')}/${t.api_version}/${encodeURIComponent(t.account_id)}/${encodeURIComponent(t.project_id)}/chat`;
    this.#headers = {
      'Content-Type': 'application/json',
      [ChatHeaders.apiKey]: secret(cfg, 'chat_api_key'),
      [ChatHeaders.token]: secret(cfg, 'chat_connector_token'),
    };
  }

  /** One request, awaited by the caller: the VU waits without blocking (k6 and dialtone's engine run it alike). */
  call(op: ChatOperation, method: 'POST' | 'PUT', body: unknown): Promise<RefinedResponse<'text'>> {
    let params = this.#params.get(op);
    if (!params) {
      const name = `chat.${op}`;
      params = { headers: this.#headers, tags: { op: name, name }, timeout: requestTimeout(this.#cfg, name) };
      this.#params.set(op, params);
    }
    return http.asyncRequest(method, `${this.#base}/${op}`, JSON.stringify(body ?? {}), params);
  }
}
