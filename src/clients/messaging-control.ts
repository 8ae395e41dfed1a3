import type { ControlClient } from './control-client.js';

/** A rate limit as the reference target's control surface takes it. */
export interface ControlRateLimit {
  readonly limit: number;
  readonly window_ms: number;
}

/** What the control surface reports about one messaging session. */
export interface ControlSession {
  readonly session_id: string;
  readonly streaming_enabled: boolean;
  readonly platform: string;
  readonly user_agent: string | null;
  readonly agent_joined: boolean;
  readonly live_agent: boolean;
  readonly sockets: number;
  readonly history: number;
  readonly idle_ms: number;
  readonly dropped_messages: number;
}

/** One-shot faults of a session, consumed by the next client event they apply to. */
export type SessionFaultName =
  | 'retrieve-session'
  | 'start-failed'
  | 'high-load'
  | 'trouble-responding'
  | 'streaming-error'
  | 'forward-failed'
  | 'no-live-agent';

/**
 * The reference target's messaging control endpoints (`/messaging/…`). Time is forced on one token or one session,
 * never on the shared clock, so cases running side by side do not disturb each other.
 *
 * @example
 * const mc = new MessagingControl(t.control);
 * await mc.ageSession(sessionId, 11 * 60_000); // as if it had been idle for 11 minutes
 */
export class MessagingControl {
  constructor(private readonly control: ControlClient) {}

  /** Registers a connector of the case's own; `host_domain: null` registers it without one. */
  connector(options: { host_domain?: string | null; handoff?: boolean; rate_limits?: { http?: ControlRateLimit; socket?: ControlRateLimit } } = {}) {
    return this.control.call<{ connector_token: string; connector_id: string; host_domain: string | null }>('POST', '/messaging/connectors', options);
  }
  /** Makes the connector's access-token rate-limit window older by `ms`, as if that much time had passed for it alone. */
  ageRateLimit(connectorToken: string, ms: number) {
    return this.control.call<{ aged: boolean }>('POST', `/messaging/connectors/${encodeURIComponent(connectorToken)}/rate-limit/age`, { ms });
  }
  removeConnector(token: string) {
    return this.control.call<{ deleted: boolean }>('DELETE', `/messaging/connectors/${encodeURIComponent(token)}`);
  }
  /** Fails the next access-token request of that connector with 500. */
  failNextAccessToken(connectorToken: string) {
    return this.control.call('POST', '/messaging/faults', { fault: 'create-access-token', connector_token: connectorToken });
  }
  /** Fails the next session request made with that access token with 500. */
  failNextSession(accessToken: string) {
    return this.control.call('POST', '/messaging/faults', { fault: 'create-session', access_token: accessToken });
  }
  sessionFault(sessionId: string, fault: SessionFaultName) {
    return this.control.call('POST', '/messaging/faults', { fault, session_id: sessionId });
  }
  /** Has the session's live agent (after a handoff) write `text`; 409 while no live agent has joined. */
  liveAgentMessage(sessionId: string, text: string) {
    return this.control.call<{ sent: boolean }>('POST', `/messaging/sessions/${encodeURIComponent(sessionId)}/live-agent-message`, { text });
  }
  /** Makes one access token older by `ms`, as if that much time had passed for it alone. */
  ageToken(accessToken: string, ms: number) {
    return this.control.call<{ aged_ms: number }>('POST', '/messaging/tokens/age', { access_token: accessToken, ms });
  }
  /** Makes one session idle for `ms` longer, as if that much time had passed without activity. */
  ageSession(sessionId: string, ms: number) {
    return this.control.call<{ idle_ms: number }>('POST', `/messaging/sessions/${encodeURIComponent(sessionId)}/age`, { ms });
  }
  session(sessionId: string) {
    return this.control.call<ControlSession>('GET', `/messaging/sessions/${encodeURIComponent(sessionId)}`);
  }
  removeSession(sessionId: string) {
    return this.control.call('DELETE', `/messaging/sessions/${encodeURIComponent(sessionId)}`);
  }
  removeConversation(sessionId: string) {
    return this.control.call('DELETE', `/messaging/sessions/${encodeURIComponent(sessionId)}/conversation`);
  }
  config() {
    return this.control.call<{ token_ttl_s: number; rate_limits: { http: ControlRateLimit; socket: ControlRateLimit } }>('GET', '/messaging/config');
  }
}
