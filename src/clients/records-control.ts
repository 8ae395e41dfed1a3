import type { ControlClient } from './control-client.js';
import type { RecordsProject } from './records.js';

/** Project settings the reference target's control surface sets (the document names them, not how they are set). */
export interface ProjectSettingsPatch {
  readonly transcript?: boolean;
  readonly streaming?: boolean;
  readonly translation?: boolean;
  readonly bridge?: boolean;
  readonly internal_error?: boolean;
  readonly enable_whitelist?: boolean;
  readonly whitelist_fields?: readonly string[];
  readonly metrics?: readonly string[];
}

/** A project minted for one case, with a key that has PII access and one that has not. */
export interface MintedProject {
  readonly account_id: string;
  readonly project_id: string;
  readonly project_slug: string;
  readonly api_key: string;
  readonly api_key_no_pii: string;
}

/** An event the webhook stored, exactly as it was sent. */
export interface StoredEvent {
  readonly content_type: string;
  readonly body: string;
  readonly received_at: string;
}

/**
 * The reference target's document-2 control endpoints (`/records/…`, `/outbound/…`,
 * `/external-events/…`, `/bridge/…`). Cases change settings only on projects minted for them and
 * age only their own calls, so they never disturb each other or share the clock.
 *
 * @example
 * const rc = new RecordsControl(t.control);
 * const p = await rc.mintProject({ transcript: false });
 * const records = t.records.forProject(RecordsControl.asProject(p));
 */
export class RecordsControl {
  constructor(private readonly control: ControlClient) {}

  /** The client-side view of a minted project. */
  static asProject(p: MintedProject, key: 'api_key' | 'api_key_no_pii' = 'api_key'): RecordsProject {
    return { accountId: p.account_id, projectId: p.project_id, apiKey: p[key] };
  }

  mintProject(settings: ProjectSettingsPatch = {}) {
    return this.control.call<MintedProject>('POST', '/records/projects', settings);
  }
  updateProject(projectId: string, settings: ProjectSettingsPatch) {
    return this.control.call('PUT', `/records/projects/${encodeURIComponent(projectId)}/settings`, settings);
  }
  /** A record's state as the target holds it. */
  recordState(conversationId: string) {
    return this.control.call<{ state: Record<string, unknown>; in_progress: boolean }>('GET', `/records/conversations/${encodeURIComponent(conversationId)}`);
  }

  /** Scripts the next call to a destination: its outcome, and whether its time moves only when advanced. */
  scriptDestination(toNumber: string, script: { outcome?: 'success' | 'failure'; manual?: boolean }) {
    return this.control.call('PUT', `/outbound/destinations/${encodeURIComponent(toNumber)}`, script);
  }
  /** Ages one call by `ms` (its status moves on; the shared clock does not). */
  advanceCall(callSid: string, ms: number) {
    return this.control.call<{ status: string | null; elapsed_ms: number }>('POST', `/outbound/calls/${encodeURIComponent(callSid)}/advance`, { ms });
  }

  /** Binds an event id to a conversation; its next `transientFailures` deliveries answer 500. */
  bindEvent(eventId: string, conversationId: string, transientFailures = 0) {
    return this.control.call('POST', '/external-events/bindings', {
      event_id: eventId,
      conversation_id: conversationId,
      transient_failures: transientFailures,
    });
  }
  storedEvents(eventId: string) {
    return this.control.call<{ conversation_id: string; events: StoredEvent[] }>('GET', `/external-events/events/${encodeURIComponent(eventId)}`);
  }

  /** What the project's configured functions received from bridge-ended for a conversation. */
  invocations(conversationId: string) {
    return this.control.call<{ invocations: { bridge_duration_seconds: number; call_duration_seconds: number }[] }>(
      'GET',
      `/bridge/invocations?conversation_id=${encodeURIComponent(conversationId)}`,
    );
  }
}
