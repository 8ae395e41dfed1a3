import { readFileSync } from 'node:fs';
import { AgentsClient } from '../clients/agents.js';
import { CallsClient } from '../clients/calls.js';
import { ChatClient } from '../clients/chat.js';
import { ControlClient } from '../clients/control-client.js';
import type { Exchange } from '../clients/exchange.js';
import { MessagingClient } from '../clients/messaging.js';
import { RecordsClient } from '../clients/records.js';
import { VoiceClient } from '../clients/voice.js';
import { type LoadedProfile, parseProfile, resolveSecrets } from '../profile/load.js';
import { type Capability, capabilities } from '../profile/schema.js';
import type { MutationSpec } from './mutations/spec.js';

/** Environment variable through which the runner hands the suite its profile file. */
export const PROFILE_ENV = 'DIALTONE_PROFILE';

/**
 * What the runner writes for the workers: the profile, the file the user gave (for reproduce lines), and what the
 * run asked for beyond the profile (`slow`: run the real-time cases). The user's profile file is never changed.
 */
export interface Handover {
  readonly source: string | null;
  readonly profile: unknown;
  readonly slow?: boolean;
  /** The mutation proof: by rule id, the mutation armed in that rule's case(s), or `trace` to record what passed. */
  readonly mutations?: Record<string, MutationSpec> | 'trace';
  /**
   * Profiles by surface, in place of `profile` for that surface's cases: the self-test runs the cases of several
   * surfaces at once, each against a target with its own defect.
   */
  readonly bySurface?: Record<string, unknown>;
}

/** The settings of this run as the workers see them. */
export interface RunSettings {
  readonly loaded: LoadedProfile;
  /** `--slow`: the real-time variants of the time-based rules run instead of being skipped. */
  readonly slow: boolean;
  /** The mutation proof's mutations by rule id, or `trace` (see Handover). */
  readonly mutations?: Record<string, MutationSpec> | 'trace';
}

let cached: { path: string; text: string; settings: Map<string | undefined, RunSettings> } | undefined;

/**
 * The profile and settings of this run, for the cases of `surface` (the self-test hands each surface a target of its
 * own). Re-read on every call (it is a small file): one vitest instance serves many runs (the self-test), and workers
 * are not isolated per file, so a module-level copy would go stale between runs.
 */
export function runSettings(surface?: string): RunSettings {
  const path = process.env[PROFILE_ENV];
  if (!path) throw new Error(`${PROFILE_ENV} is not set: run the suite through 'dialtone conformance'`);
  const text = readFileSync(path, 'utf8');
  if (cached?.path !== path || cached.text !== text) cached = { path, text, settings: new Map() };
  const known = cached.settings.get(surface);
  if (known) return known;
  const handover = JSON.parse(text) as Handover;
  const profile = parseProfile((surface !== undefined && handover.bySurface?.[surface]) || handover.profile, handover.source ?? path);
  const loaded = { profile, path: handover.source ?? undefined, secrets: resolveSecrets(profile, path, process.env) };
  const settings = { loaded, slow: handover.slow === true, ...(handover.mutations ? { mutations: handover.mutations } : {}) };
  cached.settings.set(surface, settings);
  return settings;
}

export { secretEnv } from '../profile/load.js';

/** The clients and facts a case works with; one per case, so wire logs do not mix. */
export class CaseContext {
  /** Every exchange of this case across all clients, in the order they happened. */
  readonly log: Exchange[] = [];
  readonly chat: ChatClient;
  /** Document 3: agents, alert rules, alerts and webhook endpoints on {agents_url}. */
  readonly agents: AgentsClient;
  readonly messaging: MessagingClient;
  /** Document 1: the browser voice gateway on {webrtc_url}. */
  readonly voice: VoiceClient;
  /** Document 2: conversation records, concurrency and audio on {base_url}. */
  readonly records: RecordsClient;
  /** Document 2: external events webhook, outbound calling and bridge-ended on {base_url}. */
  readonly calls: CallsClient;
  readonly #control: ControlClient | undefined;
  /** The profile's capabilities, plus `slow` when the run asked for it. */
  readonly capabilities: ReadonlySet<Capability>;
  constructor(
    readonly loaded: LoadedProfile,
    run: { readonly slow?: boolean } = {},
  ) {
    this.chat = new ChatClient(loaded, this.log);
    this.voice = new VoiceClient(loaded, this.log);
    this.agents = new AgentsClient(loaded, this.log);
    this.messaging = new MessagingClient(loaded, this.log);
    this.records = new RecordsClient(loaded, this.log);
    this.calls = new CallsClient(loaded, this.log);
    const caps = capabilities(loaded.profile);
    if (run.slow) caps.add('slow');
    this.capabilities = caps;
    this.#control = this.capabilities.has('control') ? new ControlClient(loaded) : undefined;
  }
  get profile() {
    return this.loaded.profile;
  }
  /** The control surface; only called by cases that declared `needs: ['control']`. */
  get control(): ControlClient {
    if (!this.#control) throw new Error('this target has no control surface');
    return this.#control;
  }
}
