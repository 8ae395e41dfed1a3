/** A fixed-window rate limit: at most `limit` requests (or messages) per `window_ms`. */
export interface RateLimit {
  readonly limit: number;
  readonly window_ms: number;
}

/** The per-session rate limits: HTTP requests and WebSocket messages. */
export interface RateLimits {
  readonly http: RateLimit;
  readonly socket: RateLimit;
}

/**
 * The reference target's messaging settings where the document gives no numbers. All of them can be changed at run
 * time through `PUT /messaging/config` on the control surface (documented in docs/reference-target.md).
 */
export interface MessagingConfig {
  /** Access-token lifetime handed out as `expires_in` (seconds). */
  token_ttl_s: number;
  /** Defaults for connectors that do not set their own limits. */
  rate_limits: RateLimits;
  /** Real-time pause before the agent answers a user message, so typing indicators come first. */
  reply_delay_ms: number;
  /** Real-time pause between two streamed chunks, so chunks really arrive one by one. */
  chunk_delay_ms: number;
}

/** The defaults: generous enough that the conformance suite (all cases in parallel) never trips them. */
export const DEFAULT_MESSAGING_CONFIG: MessagingConfig = {
  token_ttl_s: 3600,
  rate_limits: {
    http: { limit: 1000, window_ms: 60_000 },
    socket: { limit: 200, window_ms: 10_000 },
  },
  reply_delay_ms: 5,
  chunk_delay_ms: 5,
};
