import { z } from 'zod';
import { AgentsRegion, ClientEnv, RuntimeRegion } from '../contract/common.js';
import { PlatformNames } from '../contract/names.js';
import { durationMs } from '../core/duration.js';

/** A credential is never inline: it names the environment variable that holds it. */
export const SecretRef = z.strictObject({
  env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must name an environment variable in UPPER_SNAKE_CASE'),
});
export type SecretRef = z.infer<typeof SecretRef>;

const HttpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** The credentials a run may need, each by reference. Surfaces a profile lacks are skipped. */
export const Credentials = z.strictObject({
  chat_api_key: SecretRef.optional(),
  chat_connector_token: SecretRef.optional(),
  messaging_connector_token: SecretRef.optional(),
  voice_auth_token: SecretRef.optional(),
  /** Document 2: the v3 key (x-api-key) of conversations, concurrency and audio; the audio redaction cases expect it to have PII access. */
  conversations_api_key: SecretRef.optional(),
  /** Document 2: a second conversations key of the same project without PII access (the audio redaction table's "no" rows). */
  conversations_api_key_no_pii: SecretRef.optional(),
  /** Document 2: a valid conversations key issued for another project: not authorised for this project's conversation and analytics data (403 cases). */
  conversations_other_project_key: SecretRef.optional(),
  external_events_key: SecretRef.optional(),
  outbound_token: SecretRef.optional(),
  agents_api_key: SecretRef.optional(),
  /** A second agent-interface key, valid but scoped to another workspace: the 403 cases use it on this workspace's agents. */
  agents_other_workspace_key: SecretRef.optional(),
});
export type Credentials = z.infer<typeof Credentials>;
export type CredentialName = keyof Credentials;

/** One threshold in k6's syntax, a string or the object form; src/load/slos.ts checks that k6 would parse it. */
const SloThreshold = z.union([
  z.string().min(1),
  z.strictObject({
    threshold: z.string().min(1),
    abortOnFail: z.boolean().optional(),
    // Read as k6 reads a duration (`10s`, `1m30s`): a profile takes what the engine takes; a negative delay means nothing.
    delayAbortEval: z
      .string()
      .refine((v) => (durationMs(v) ?? -1) >= 0, 'must be a duration such as 10s')
      .optional(),
  }),
]);

/** A workload's settings that the platform decides; any left out keep the scenario's default. */
export const WorkloadSettings = z.strictObject({
  /** Iterations started per second (arrival-rate workloads), or browsers at once (voice-browser). */
  rate: z.number().positive().optional(),
  duration: z
    .string()
    .regex(/^\d+(s|m|h)$/, 'must look like 30s, 5m or 1h')
    .optional(),
  pre_allocated_vus: z.number().int().positive().optional(),
  max_vus: z.number().int().positive().optional(),
});
export type WorkloadSettings = z.infer<typeof WorkloadSettings>;

/**
 * A target environment, one JSON file each. Hosts per surface, ids in slug or prefixed form
 * (the `_alt` fields name the other form so both can be checked), credentials by reference.
 *
 * @example
 * { "name": "staging-us", "environment": "pre-release", "region": "us-1", "api_version": "v1",
 *   "hosts": { "base_url": "https://api.us-1.example.com" },
 *   "account_id": "acme", "project_id": "support",
 *   "credentials": { "chat_api_key": { "env": "ACME_CHAT_API_KEY" } } }
 */
export const Profile = z.strictObject({
  name: z.string().min(1),
  /** `reference` is the embedded target; anything else is a real environment. */
  kind: z.enum(['reference', 'real']).default('real'),
  environment: ClientEnv,
  region: RuntimeRegion,
  api_version: z
    .string()
    .regex(/^v\d+$/, 'must look like v1')
    .default('v1'),
  hosts: z.strictObject({
    base_url: HttpUrl,
    messaging_url: HttpUrl.optional(),
    webrtc_url: HttpUrl.optional(),
    agents_url: HttpUrl.optional(),
    /** The agents family host without a region (document 3 says it answers an error); derived from agents_url when absent. */
    agents_regionless_url: HttpUrl.optional(),
  }),
  /** The region (us, uk, eu) that `hosts.agents_url` serves. */
  agents_region: AgentsRegion.optional(),
  account_id: z.string().min(1),
  account_id_alt: z.string().min(1).optional(),
  project_id: z.string().min(1),
  project_id_alt: z.string().min(1).optional(),
  variant_id: z.string().min(1).optional(),
  /**
   * A second variant of the project, other than the one a create without variant_id routes to: routing is only seen
   * with a variant whose effect differs from the default's.
   */
  variant_id_alt: z.string().min(1).optional(),
  /**
   * X-Host of the messaging access-token request: the domain or app namespace registered for the messaging connector.
   * Absent: the reference target's registered domain (`REFERENCE_MESSAGING_HOST` in src/contract/messaging/shapes.ts).
   */
  messaging_host: z.string().min(1).optional(),
  credentials: Credentials.default({}),
  /** Phrases the target's agent answers with a handoff and with an end; default: the reference agent's. */
  chat_script: z
    .strictObject({ handoff_message: z.string().min(1), goodbye_message: z.string().min(1) })
    .default({ handoff_message: 'Can I speak to a person, please?', goodbye_message: 'That is all, thank you. Goodbye!' }),
  /**
   * Names the documents leave out, as this platform spells them (client event types, outbound trigger fields, a
   * real-time config page); each defaults to the reference target's. A platform that spells them differently needs a
   * profile change, not a code change; the report lists the names a run used.
   */
  names: PlatformNames,
  /**
   * Delete paths the documents do not show, as templates with `{id}`: cases that create alert rules or webhook endpoints
   * (an account holds at most 10 rules) delete what they made through them. Without one, the report lists what was left.
   */
  cleanup: z
    .strictObject({
      alert_rule: z
        .string()
        .regex(/^\/.*\{id\}/, 'must be a path with {id}, e.g. /v1/alert-rules/{id}')
        .optional(),
      webhook_endpoint: z
        .string()
        .regex(/^\/.*\{id\}/, 'must be a path with {id}, e.g. /v1/webhook-endpoints/{id}')
        .optional(),
    })
    .optional(),
  /** Present only for the reference target: its control surface (clock, faults, inspection). */
  control: z.strictObject({ url: HttpUrl, token: SecretRef }).optional(),
  /** Reference target only: the named defects it was started with, so a reproduce line can start it the same way. */
  defects: z.array(z.string()).optional(),
  /**
   * How to trust the target's certificates: by default the system store. `ca_file` (PEM, relative to the profile) adds a
   * CA; `insecure` turns verification off, is never the default, and the report says when it was used.
   */
  tls: z.strictObject({ ca_file: z.string().min(1).optional(), insecure: z.boolean().default(false) }).optional(),
  /**
   * This platform's SLOs, per scenario, in k6's threshold syntax: `{ "chat-turns": { "http_req_duration{op:chat.respond}":
   * ["p(95)<3000"] } }`. A key named here replaces the scenario's default thresholds of that key; the others keep theirs.
   * src/load/slos.ts refuses an unknown scenario or metric and an expression k6 would not parse.
   */
  slos: z.record(z.string(), z.record(z.string(), z.array(SloThreshold).min(1, 'needs at least one threshold'))).optional(),
  /** Per scenario and workload (smoke, nightly, capacity): rate, duration and VU pool, each replacing the scenario's default. */
  workloads: z.record(z.string(), z.record(z.string(), WorkloadSettings)).optional(),
  /**
   * A file of conversation scripts (JSON, relative to the profile) that chat-turns and messaging-sockets play instead
   * of faker texts: each dialogue's user turns, and whether the agent ends, hands off or neither after the last one.
   * The format and its checks: src/load/dialogues.ts.
   */
  dialogues: z.string().min(1).optional(),
  /**
   * How long the gate waits, in ms. `agent_reply_ms`: for what the platform sends of its own accord on a messaging
   * socket (the agent's reply, its chunks, a join); default 3000, the reference agent answering in about a millisecond;
   * a platform whose agent takes seconds sets its slowest reply and some (`dialtone target --latency` writes one).
   * `case_ms`: how long one case may take in all, its requests sent one after another (up to about 30); default 30000;
   * a platform whose every answer takes a second or more sets more (a slowed `dialtone target` writes one).
   */
  waits: z
    .strictObject({ agent_reply_ms: z.number().int().positive().max(600_000).optional(), case_ms: z.number().int().positive().max(3_600_000).optional() })
    .optional(),
  /** A file of NAME=value lines read for credentials not already in the environment (relative to the profile). */
  env_file: z.string().min(1).optional(),
});
export type Profile = z.infer<typeof Profile>;

/** Each wait a profile may name, and its value when it names none: the reference platform's, which answers at once. */
export const WAIT_DEFAULTS: Readonly<Record<'agent_reply_ms' | 'case_ms', number>> = { agent_reply_ms: 3000, case_ms: 30_000 };
export type WaitName = keyof typeof WAIT_DEFAULTS;

/** The agent reply wait when a profile names none: the reference agent's. */
export const DEFAULT_AGENT_REPLY_MS = WAIT_DEFAULTS.agent_reply_ms;

/**
 * How long the gate waits for `name`, and where the value came from.
 *
 * @example
 * profileWait(profile, 'case_ms') // { ms: 30000, source: 'default' }
 */
export function profileWait(profile: Pick<Profile, 'waits'>, name: WaitName): { ms: number; source: 'profile' | 'default' } {
  const ms = profile.waits?.[name];
  return ms === undefined ? { ms: WAIT_DEFAULTS[name], source: 'default' } : { ms, source: 'profile' };
}

/**
 * How long a case waits for the agent, and where the value came from.
 *
 * @example
 * agentReplyWait(profile) // { ms: 3000, source: 'default' }
 */
export const agentReplyWait = (profile: Pick<Profile, 'waits'>) => profileWait(profile, 'agent_reply_ms');

/**
 * What a run can do beyond the documented API; cases that need more are skipped with the reason. `control` comes
 * from the profile (the reference target's control surface); `slow` never does: a run asks for it (`--slow`), and
 * then the real-time variants of the time-based rules wait as long as the documents say.
 */
export type Capability = 'control' | 'slow';

export function capabilities(profile: Profile): Set<Capability> {
  return new Set(profile.control ? ['control'] : []);
}
