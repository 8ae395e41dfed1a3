import { createSigningSecret, type WebhookEventType } from '../../contract/webhooks/shapes.js';
import type { SeededRandom } from '../ids.js';

/** Webhook endpoints per account. Not shown by the document; the reference allows 20 and answers 409 beyond. */
export const MAX_WEBHOOK_ENDPOINTS_PER_ACCOUNT = 20;

/** A webhook endpoint as the target keeps it, secret included. */
export interface StoredEndpoint {
  readonly id: string;
  readonly accountId: string;
  name: string;
  url: string;
  event_types: WebhookEventType[];
  signing_secret: string;
  readonly created_at: string;
}

/** An endpoint as list and update answer it: never with its signing secret. */
export function endpointView(e: StoredEndpoint) {
  return { id: e.id, name: e.name, url: e.url, event_types: e.event_types, created_at: e.created_at };
}

/** Webhook endpoints of every account. Secrets come from node:crypto, never from the seeded generator. */
export class EndpointStore {
  readonly #endpoints = new Map<string, StoredEndpoint>();
  constructor(private readonly rng: SeededRandom) {}

  create(accountId: string, fields: Pick<StoredEndpoint, 'name' | 'url' | 'event_types'>, nowIso: string): StoredEndpoint {
    const e: StoredEndpoint = { ...fields, id: `we_${this.rng.hex(16)}`, accountId, signing_secret: createSigningSecret(), created_at: nowIso };
    this.#endpoints.set(e.id, e);
    return e;
  }

  get(accountId: string, id: string): StoredEndpoint | undefined {
    const e = this.#endpoints.get(id);
    return e?.accountId === accountId ? e : undefined;
  }

  /** Replaces the signing secret: the old one stops verifying at once. */
  rotate(e: StoredEndpoint): string {
    e.signing_secret = createSigningSecret();
    return e.signing_secret;
  }

  delete(e: StoredEndpoint): void {
    this.#endpoints.delete(e.id);
  }

  forAccount(accountId: string): StoredEndpoint[] {
    return [...this.#endpoints.values()].filter((e) => e.accountId === accountId);
  }
}
