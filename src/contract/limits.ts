import { MAX_ALERT_RULES_PER_ACCOUNT } from './alerts/shapes.js';
import type { RuleId } from './index.js';
import { MAX_SOCKETS_PER_SESSION } from './messaging/wire.js';

/**
 * A documented limit on how many of a thing may exist at once. It holds under a burst: of simultaneous requests that
 * pass it, exactly the excess is refused, never more and never fewer; and where a documented operation frees a slot
 * (closing a socket), the slot counts again once the release has completed.
 */
export interface CountLimit {
  readonly rule: RuleId;
  readonly size: number;
  /** The status the documents give each request beyond the limit. */
  readonly refusal: number;
  /** A documented operation frees a slot: false where the documents give none (a single alert rule has no delete). */
  readonly frees: boolean;
}

/** Document 1: "Simultaneous WebSocket connections per session: 10 by default; the next returns 429". */
export const SOCKETS_PER_SESSION: CountLimit = { rule: 'messaging.limits.sockets-per-session', size: MAX_SOCKETS_PER_SESSION, refusal: 429, frees: true };

/** Document 3: "Alert rules per account: 10; creating beyond returns 409". */
export const ALERT_RULES_PER_ACCOUNT: CountLimit = { rule: 'alerts.rules.limit-10-409', size: MAX_ALERT_RULES_PER_ACCOUNT, refusal: 409, frees: false };
