import { activeUntil, type RecordData, type TurnData } from './model.js';
import type { Project } from './projects.js';

/** What rendering a record needs besides the record. */
export interface RenderContext {
  readonly now: number;
  readonly project: Project;
  readonly includeLatency: boolean;
  /** The record's state with later writes (bridge-ended) applied. */
  readonly stateOf: (r: RecordData) => Record<string, unknown>;
  /** A defect's: polyai_duration in milliseconds, total_duration still in seconds. */
  readonly agentDurationInMs?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();
/** v1 timestamps: UTC without a zone, the legacy form (v3 moved to ISO 8601). */
const legacyTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const seconds = (ms: number) => Math.round(ms) / 1000;

/** A duration as an ISO 8601 duration string, e.g. `PT93.25S`. */
export const isoDuration = (ms: number) => `PT${seconds(ms)}S`;

const totalMs = (r: RecordData, now: number) => activeUntil(r, now) - r.startedAt;

/** One row per metric name: how its value is read off a record. */
const METRICS: Record<string, (r: RecordData, now: number, time: (ms: number) => string) => unknown> = {
  CALL_DURATION: (r, now) => isoDuration(totalMs(r, now)),
  CALL_TURN: (r, _now, time) => r.turns.map((t) => time(t.userAt)),
  CALL_IN_PROGRESS: (r) => r.inProgress,
  CALL_COMPLETED: (r) => !r.inProgress,
  HANDOFF_TO: (r) => r.handoff?.destination ?? '',
  HANDOFF_REASON: (r) => r.handoff?.reason ?? '',
};

function metricsOf(r: RecordData, c: RenderContext, time: (ms: number) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of c.project.settings.metrics) {
    const read = METRICS[name];
    if (read) out[name] = read(r, c.now, time);
  }
  return out;
}

function turnV3(t: TurnData, c: RenderContext): Record<string, unknown> {
  return {
    user_input: t.userInput,
    user_input_dtmf: t.userInputDtmf,
    user_input_datetime: iso(t.userAt),
    barge_in: t.bargeIn,
    agent_response: t.agentResponse,
    agent_response_datetime: iso(t.agentAt),
    latency: c.includeLatency ? t.latencyMs : null,
    // The generated transcripts are English already, so the translations repeat the text.
    ...(c.project.settings.translation ? { translated_user_input: t.userInput, english_agent_response: t.agentResponse } : {}),
    intents: [...t.intents],
    entities: { ...t.entities },
    is_ood: t.isOod,
    is_silence: t.isSilence,
  };
}

/** The fields every version shares, before version-specific formatting. */
function base(r: RecordData, c: RenderContext) {
  const total = totalMs(r, c.now);
  // The agent's portion ends at the handoff, rounded to the second where it was stored, and never past the whole call.
  const agent = Math.min(r.handoffAtSeconds ?? seconds(total), seconds(total));
  return {
    id: r.id,
    account_id: c.project.accountId,
    project_id: c.project.projectId,
    variant_id: r.variantId,
    variant_name: r.variantName,
    environment: r.environment,
    channel: r.channel,
    from_number: r.fromNumber,
    to_number: r.toNumber,
    in_progress: r.inProgress,
    num_turns: r.turns.length,
    total_duration: seconds(total),
    polyai_duration: c.agentDurationInMs ? Math.round(agent * 1000) : agent,
    handoff: r.handoff !== undefined,
    handoff_reason: r.handoff?.reason ?? '',
    handoff_destination: r.handoff?.destination ?? '',
    num_silences: r.turns.filter((t) => t.isSilence).length,
    num_ood: r.turns.filter((t) => t.isOod).length,
  };
}

/**
 * A record as v3 (and v2) return it: empty strings rather than null, ISO 8601 timestamps, turns
 * empty when the project's transcript visibility is off (num_turns stays right).
 *
 * @example
 * renderV3(record, { now, project, includeLatency: true, stateOf: (r) => r.state });
 */
export function renderV3(r: RecordData, c: RenderContext): Record<string, unknown> {
  const b = base(r, c);
  return {
    ...b,
    started_at: iso(r.startedAt),
    metrics: metricsOf(r, c, iso),
    state: c.stateOf(r),
    turns: c.project.settings.transcript ? r.turns.map((t) => turnV3(t, c)) : [],
  };
}

const orNull = (s: string) => (s === '' ? null : s);

function turnV1(t: TurnData): Record<string, unknown> {
  return {
    user_input: orNull(t.userInput),
    user_input_dtmf: orNull(t.userInputDtmf),
    user_input_datetime: legacyTime(t.userAt),
    barge_in: t.bargeIn,
    agent_response: orNull(t.agentResponse),
    agent_response_datetime: legacyTime(t.agentAt),
    intents: [...t.intents],
    entities: { ...t.entities },
    is_ood: t.isOod,
    is_silence: t.isSilence,
  };
}

/**
 * A record as v1 returns it: null for empty text, legacy timestamps, none of the v3 turn fields,
 * and only the project's API config fields when whitelisting is enabled.
 *
 * @example
 * renderV1(record, ctx); // { id, started_at: '2026-09-01 10:00:00', handoff_reason: null, … }
 */
export function renderV1(r: RecordData, c: RenderContext): Record<string, unknown> {
  const b = base(r, c);
  const full: Record<string, unknown> = {
    ...b,
    variant_id: orNull(b.variant_id),
    variant_name: orNull(b.variant_name),
    from_number: orNull(b.from_number),
    to_number: orNull(b.to_number),
    handoff_reason: orNull(b.handoff_reason),
    handoff_destination: orNull(b.handoff_destination),
    started_at: legacyTime(r.startedAt),
    metrics: metricsOf(r, c, legacyTime),
    state: c.stateOf(r),
    turns: c.project.settings.transcript ? r.turns.map(turnV1) : [],
  };
  const w = c.project.settings.whitelist;
  if (!w.enabled) return full;
  return Object.fromEntries(w.fields.filter((f) => f in full).map((f) => [f, full[f]]));
}

/** The v1 `descriptions.conversations` object: one sentence per record key. */
export const V1_DESCRIPTIONS: Readonly<Record<string, string>> = {
  id: 'Conversation id.',
  account_id: 'Owning account.',
  project_id: 'Owning project.',
  variant_id: 'Variant id.',
  variant_name: 'Variant name.',
  environment: 'live, sandbox or pre-release.',
  started_at: 'Start time (UTC).',
  channel: 'Analytics channel label.',
  from_number: 'Caller phone number.',
  to_number: 'Agent phone number.',
  in_progress: 'Whether the conversation is still active.',
  num_turns: 'Number of turns.',
  total_duration: 'Total call duration in seconds.',
  polyai_duration: 'Agent-handled duration in seconds.',
  handoff: 'Whether the conversation was handed off.',
  handoff_reason: 'Why it was handed off.',
  handoff_destination: 'Where it was handed off to.',
  num_silences: 'Number of silence turns.',
  num_ood: 'Number of out-of-domain turns.',
  metrics: 'Custom and built-in metrics.',
  state: 'Conversation variables set during the call.',
  turns: 'Turn-by-turn transcript.',
};

const RENDERED = new WeakMap<RecordData, Map<string, string>>();

/**
 * A record's JSON for one response shape, rendered once and kept while the record lives. Only
 * finished records of the seeded history are kept (the caller says which): their JSON never
 * changes, while a record in progress or built from live traffic is rendered afresh each time.
 *
 * @example
 * const json = renderedJson(record, 'v3|…', true, () => renderV3(record, ctx));
 */
export function renderedJson(record: RecordData, shape: string, keep: boolean, render: () => Record<string, unknown>): string {
  if (!keep || record.inProgress) return JSON.stringify(render());
  let byShape = RENDERED.get(record);
  if (!byShape) {
    byShape = new Map();
    RENDERED.set(record, byShape);
  }
  let json = byShape.get(shape);
  if (json === undefined) {
    json = JSON.stringify(render());
    byShape.set(shape, json);
  }
  return json;
}

/** The part of a render context that decides a finished record's JSON, as a cache key. */
export function shapeKey(release: string, c: RenderContext): string {
  const s = c.project.settings;
  return [
    release,
    c.project.accountId,
    c.project.projectId,
    c.includeLatency,
    c.agentDurationInMs === true,
    s.transcript,
    s.translation,
    s.metrics.join('+'),
    s.whitelist.enabled && s.whitelist.fields.join('+'),
  ].join('|');
}
