import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import {
  type CustomMetadata,
  REFERENCE_MESSAGING_HOST,
  SESSION_IDLE_EXPIRY_MS,
  type ServerEvent,
  type ServerEventPayloads,
  type ServerEventType,
} from '../../contract/messaging/shapes.js';
import type { TargetContext } from '../context.js';
import { DEFAULT_MESSAGING_CONFIG, type MessagingConfig, type RateLimits } from './config.js';
import { type Connector, ConnectorRegistry } from './connectors.js';
import { type AccessClaims, type JwtVerdict, signJwt, verifyJwt } from './jwt.js';
import { RateLimiter } from './rate-limit.js';
import { type MessagingSession, SessionStore } from './sessions.js';

/** Faults armed on a connector (next access-token request) or an access token (next session request). */
export type HttpFault = 'create-access-token' | 'create-session';

/** The payload type a server event of `T` carries. */
export type PayloadOf<T extends ServerEventType> = z.infer<(typeof ServerEventPayloads)[T]>;

/** The defect "sessions expire early" uses 4 minutes: well inside "about 10", well past the 5 the suite checks. */
const EARLY_EXPIRY_MS = 4 * 60_000;

const STATES = new WeakMap<TargetContext, MessagingState>();

/**
 * The messaging state a target made for its context, if it has one: for tests that look at what the target holds.
 *
 * @example
 * const target = await startTarget();
 * messagingStateOf(target.context)?.sessions.size; // 0
 */
export function messagingStateOf(ctx: TargetContext): MessagingState | undefined {
  return STATES.get(ctx);
}

/**
 * Everything the messaging surface holds for one target: connectors, tokens, sessions, open sockets, timers.
 * Created once per start; `close()` clears its timers and closes its sockets.
 */
export class MessagingState {
  readonly config: MessagingConfig = structuredClone(DEFAULT_MESSAGING_CONFIG);
  readonly connectors = new ConnectorRegistry();
  /** The connector the profile's `messaging_connector_token` names. */
  readonly mainConnector: Connector;
  readonly sessions: SessionStore;
  readonly limiter: RateLimiter;
  /** Conversation ids the join requests opened; removing one models a conversation lost on the agent side. */
  readonly conversations = new Set<string>();
  /** Open sockets per session id; kept apart from the session so a removed session's sockets can still be told. */
  readonly sockets = new Map<string, Set<WebSocket>>();
  /** A defect's per-session counter of sockets opened, raised on every open and never lowered on close. */
  readonly socketsOpened = new Map<string, number>();
  /** Control-surface ageing of single tokens (ms added to "now" when that token is checked). */
  readonly tokenAge = new Map<string, number>();
  readonly httpFaults = new Map<string, HttpFault[]>();
  readonly #secret = randomBytes(32);
  readonly #timers = new Set<NodeJS.Timeout>();

  constructor(readonly ctx: TargetContext) {
    this.mainConnector = this.connectors.register({ token: ctx.credentials.messaging_connector_token, hostDomain: REFERENCE_MESSAGING_HOST });
    this.sessions = new SessionStore(
      ctx.clock,
      ctx.rng,
      () => (ctx.defects.has('messaging-session-expires-early') ? EARLY_EXPIRY_MS : SESSION_IDLE_EXPIRY_MS),
      (s) => this.#forgotten(s),
    );
    this.limiter = new RateLimiter(ctx.clock);
    STATES.set(ctx, this);
  }

  /**
   * A forgotten session takes its conversation and its socket set with it, or both would pile up one per session. A
   * set that still holds sockets stays: they learn the session is gone at their next event (`endSession`).
   */
  #forgotten(session: MessagingSession): void {
    if (session.conversationId) this.conversations.delete(session.conversationId);
    if (this.sockets.get(session.id)?.size === 0) this.sockets.delete(session.id);
  }

  /** The limits that apply to a connector's sessions. */
  rateLimitsOf(connector: Connector): RateLimits {
    return { ...this.config.rate_limits, ...connector.rateLimits };
  }

  /** Issues a signed access token for a connector and the X-Host it was asked with. */
  issueToken(connector: Connector, host: string): { access_token: string; expires_in: number } {
    const iat = Math.floor(this.ctx.clock.now() / 1000);
    const expires_in = this.config.token_ttl_s;
    const claims: AccessClaims = { iss: 'dialtone-reference', sub: connector.id, host, iat, exp: iat + expires_in, jti: `tok_${this.ctx.rng.hex(20)}` };
    // One defect reports the lifetime in milliseconds, the unit of the code that computed it, while the token lives seconds.
    return { access_token: signJwt(claims, this.#secret), expires_in: this.ctx.defects.has('messaging-expires-in-ms') ? expires_in * 1000 : expires_in };
  }

  /** Checks an access token against the target clock (plus any control-surface ageing of that token). */
  verifyToken(token: string, options: { ignoreExpiry?: boolean } = {}): JwtVerdict {
    const skipSignature = this.ctx.defects.has('messaging-jwt-signature-unchecked');
    const first = verifyJwt(token, this.#secret, 0, { skipSignature });
    if (!first.ok || options.ignoreExpiry) return first;
    return verifyJwt(token, this.#secret, this.ctx.clock.now() + (this.tokenAge.get(first.claims.jti) ?? 0), { skipSignature });
  }

  /** Takes one armed HTTP fault for `key` (a connector token or a token id). */
  takeHttpFault(key: string, fault: HttpFault): boolean {
    const armed = this.httpFaults.get(key);
    const i = armed?.indexOf(fault) ?? -1;
    if (!armed || i < 0) return false;
    armed.splice(i, 1);
    return true;
  }

  /** Stamps a server event with id, timestamp (target clock) and metadata, echoing the client's custom metadata. */
  event<T extends ServerEventType>(type: T, payload: PayloadOf<T>, custom?: CustomMetadata): ServerEvent & { type: T } {
    return {
      id: `evt_${this.ctx.rng.hex(20)}`,
      timestamp: new Date(this.ctx.clock.now()).toISOString(),
      type,
      payload: payload as Record<string, unknown>,
      metadata: custom ? { custom } : {},
    };
  }

  socketsOf(sessionId: string): Set<WebSocket> {
    let set = this.sockets.get(sessionId);
    if (!set) {
      set = new Set();
      this.sockets.set(sessionId, set);
    }
    return set;
  }

  /** Runs `fn` after `ms` of real time; cleared by `close()`. */
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, ms);
    this.#timers.add(t);
  }

  async close(): Promise<void> {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    for (const set of this.sockets.values()) for (const ws of set) ws.terminate();
    this.sockets.clear();
  }
}
