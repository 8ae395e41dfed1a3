import { randomBytes } from 'node:crypto';
import type { RateLimits } from './config.js';

/** A messaging connector as the operator registered it. */
export interface Connector {
  readonly id: string;
  readonly token: string;
  /** The registered domain or app namespace; undefined models a connector registered without one. */
  readonly hostDomain: string | undefined;
  /** Whether live-agent handoff is configured; without it a handoff "could not be initiated". */
  readonly handoff: boolean;
  /** Per-connector limits; undefined uses the target's defaults. */
  readonly rateLimits: Partial<RateLimits> | undefined;
}

/**
 * Whether an X-Host value matches a registered domain: equal, or a subdomain of it (a dot boundary, so
 * `evilapp.test` does not match `app.test`). Host names compare case-insensitively, a trailing dot ignored.
 * `suffixOnly` is the "plain endsWith" mistake, kept for a defect.
 *
 * @example
 * hostMatches('app.dialtone.test', 'eu.app.dialtone.test') // true
 * hostMatches('app.dialtone.test', 'myapp.dialtone.test') // false
 */
export function hostMatches(registered: string, given: string, mode: 'exact-or-subdomain' | 'exact-only' | 'suffix-only' = 'exact-or-subdomain'): boolean {
  const norm = (s: string) => s.trim().toLowerCase().replace(/\.$/, '');
  const r = norm(registered);
  const g = norm(given);
  if (r === '' || g === '') return false;
  if (g === r) return true;
  if (mode === 'exact-only') return false;
  return mode === 'suffix-only' ? g.endsWith(r) : g.endsWith(`.${r}`);
}

/** The connectors the target knows, by token. */
export class ConnectorRegistry {
  readonly #byToken = new Map<string, Connector>();
  #next = 1;

  /** Registers a connector; without a token one is generated (`dt_…`). */
  register(init: { token?: string; hostDomain: string | undefined; handoff?: boolean; rateLimits?: Partial<RateLimits> }): Connector {
    const connector: Connector = {
      id: `connector-${this.#next++}`,
      token: init.token ?? `dt_${randomBytes(18).toString('base64url')}`,
      hostDomain: init.hostDomain,
      handoff: init.handoff ?? true,
      rateLimits: init.rateLimits,
    };
    this.#byToken.set(connector.token, connector);
    return connector;
  }

  byToken(token: string): Connector | undefined {
    return this.#byToken.get(token);
  }

  byId(id: string): Connector | undefined {
    for (const c of this.#byToken.values()) if (c.id === id) return c;
    return undefined;
  }

  /** Removes a connector; sessions created through it then find it gone. */
  remove(token: string): boolean {
    return this.#byToken.delete(token);
  }
}
