import { ResponseMetricName, TYPICAL_V1_WHITELIST } from '../../contract/conversations/shapes.js';

/**
 * Per-project settings the document mentions without showing how they are set (transcript
 * visibility, chunked streaming, v1 whitelisting, translation, response metrics, call transfer).
 * The reference target keeps them here; the control surface changes them on minted projects.
 */
export interface ProjectSettings {
  /** Conversation transcript visibility: off gives records with empty turns. */
  transcript: boolean;
  /** Chunked streaming of v2 and v3 list responses. */
  streaming: boolean;
  /** v1 whitelisting (`enable_whitelist`) and the fields of the project's API config. */
  whitelist: { enabled: boolean; fields: string[] };
  /** Translation: turns carry translated_user_input and english_agent_response. */
  translation: boolean;
  /** Metrics shown in `metrics`: the built-in CALL_DURATION and CALL_TURN and the switchable response metrics. */
  metrics: string[];
  /** Call transfer or bridge configured: bridge-ended is enabled. */
  bridge: boolean;
  /** Forces the concurrency API of this project to fail with 500. */
  internalError: boolean;
}

/** Metric names a project may select: the two built-ins the document shows values for, then the four response metrics. */
export const SELECTABLE_METRICS = ['CALL_DURATION', 'CALL_TURN', ...ResponseMetricName.options] as const;

/** The reference project's settings: transcript on, every metric on, no streaming, whitelisting or translation, bridge configured. */
export function defaultSettings(): ProjectSettings {
  return {
    transcript: true,
    streaming: false,
    whitelist: { enabled: false, fields: [...TYPICAL_V1_WHITELIST] },
    translation: false,
    metrics: [...SELECTABLE_METRICS],
    bridge: true,
    internalError: false,
  };
}

/** A project the records surfaces serve, with both id forms. */
export interface Project {
  readonly key: string;
  readonly accountSlug: string;
  readonly accountId: string;
  readonly projectSlug: string;
  readonly projectId: string;
  readonly variants: readonly { readonly id: string; readonly name: string }[];
  /** The project's phone lines (to_number). */
  readonly lines: readonly string[];
  /** Whether the conversations the target serves (chat, voice, messaging) belong to this project. */
  readonly servesTraffic: boolean;
  settings: ProjectSettings;
}

/** What a conversations key may do: which project it was issued for, and whether it has PII access. */
export interface KeyGrant {
  readonly projectKey: string;
  readonly pii: boolean;
}

/**
 * Applies a partial settings update sent to the control surface; returns the name of the first bad field.
 *
 * @example
 * applySettings(project.settings, { transcript: false }); // undefined (applied)
 */
export function applySettings(s: ProjectSettings, patch: Record<string, unknown>): string | undefined {
  const bool = (k: 'transcript' | 'streaming' | 'translation' | 'bridge' | 'internalError', v: unknown) => {
    if (typeof v !== 'boolean') return k;
    s[k] = v;
    return undefined;
  };
  const SETTERS: Record<string, (v: unknown) => string | undefined> = {
    transcript: (v) => bool('transcript', v),
    streaming: (v) => bool('streaming', v),
    translation: (v) => bool('translation', v),
    bridge: (v) => bool('bridge', v),
    internal_error: (v) => bool('internalError', v),
    enable_whitelist: (v) => {
      if (typeof v !== 'boolean') return 'enable_whitelist';
      s.whitelist.enabled = v;
      return undefined;
    },
    whitelist_fields: (v) => {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return 'whitelist_fields';
      s.whitelist.fields = [...v];
      return undefined;
    },
    metrics: (v) => {
      if (!Array.isArray(v) || !v.every((x) => (SELECTABLE_METRICS as readonly unknown[]).includes(x))) return 'metrics';
      s.metrics = [...(v as string[])];
      return undefined;
    },
  };
  for (const [k, v] of Object.entries(patch)) {
    const set = SETTERS[k];
    const bad = set ? set(v) : k;
    if (bad) return bad;
  }
  return undefined;
}
