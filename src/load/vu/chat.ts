// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
import http, { type RefinedResponse } from 'k6/http';
import { ChatHeaders, type ChatOperation } from '../../spec/chat.js';
import type { LoadConfig } from '../config.js';
import { secret } from './config.js';

/** Chat calls tagged by operation name, never by the URL (which holds ids). */
export class ChatVu {
  readonly #base: string;
  readonly #headers: Record<string, string>;
  constructor(cfg: LoadConfig) {
    const t = cfg.target;
    this.#base = `${(t.hosts.base_url ?? '').replace(/\/$/, '')}/${t.api_version}/${encodeURIComponent(t.account_id)}/${encodeURIComponent(t.project_id)}/chat`;
    this.#headers = {
      'Content-Type': 'application/json',
      [ChatHeaders.apiKey]: secret(cfg, 'chat_api_key'),
      [ChatHeaders.token]: secret(cfg, 'chat_connector_token'),
    };
  }

  call(op: ChatOperation, method: 'POST' | 'PUT', body: unknown): RefinedResponse<'text'> {
    const name = `chat.${op}`;
    return http.request(method, `${this.#base}/${op}`, JSON.stringify(body ?? {}), {
      headers: this.#headers,
      tags: { op: name, name },
      timeout: '10s',
    });
  }
}
