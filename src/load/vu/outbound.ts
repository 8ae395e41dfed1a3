// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
import http, { type Params, type RefinedResponse } from 'k6/http';
import { OutboundHeaders } from '../../contract/outbound/wire.js';
import type { LoadConfig } from '../config.js';
import { requestTimeout, secret } from './config.js';

/** Outbound calling and status polling (document 2), tagged by operation name, never by the URL (which holds the call_sid). */
export class OutboundVu {
  readonly #base: string;
  /** The trigger's destination field as the platform spells it (the profile's names.outbound_trigger.to_number). */
  readonly #toField: string;
  /** Request parameters per operation, made once: the same object for every request of that operation. */
  readonly #triggerParams: Params;
  readonly #statusParams: Params;
  constructor(cfg: LoadConfig) {
    this.#toField = cfg.target.names?.outbound_trigger.to_number ?? 'to_number';
    this.#base = `${(cfg.target.hosts.base_url ?? '').replace(/\/$/, '')}/v1/outbound-calling`;
    const token = secret(cfg, 'outbound_token');
    this.#triggerParams = {
      headers: { 'Content-Type': 'application/json', [OutboundHeaders.serviceAuthToken]: token },
      tags: { op: 'outbound.trigger', name: 'outbound.trigger' },
      timeout: requestTimeout(cfg, 'outbound.trigger'),
    };
    this.#statusParams = {
      headers: { [OutboundHeaders.serviceAuthToken]: token },
      tags: { op: 'outbound.status', name: 'outbound.status' },
      timeout: requestTimeout(cfg, 'outbound.status'),
    };
  }

  /** POST /v1/outbound-calling. */
  trigger(toNumber: string): Promise<RefinedResponse<'text'>> {
    return http.asyncRequest('POST', this.#base, JSON.stringify({ [this.#toField]: toNumber }), this.#triggerParams);
  }

  /** GET /v1/outbound-calling/{call_sid}/status. */
  status(callSid: string): Promise<RefinedResponse<'text'>> {
    return http.asyncRequest('GET', `${this.#base}/${encodeURIComponent(callSid)}/status`, null, this.#statusParams);
  }
}
