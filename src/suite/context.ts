import { readFileSync } from 'node:fs';
import { ChatClient } from '../clients/chat.js';
import { ControlClient } from '../clients/control.js';
import type { Exchange } from '../clients/exchange.js';
import { type LoadedProfile, parseProfile, resolveSecrets } from '../profile/load.js';
import { type Capability, capabilities } from '../profile/schema.js';

/** Environment variable through which the runner hands the suite its profile file. */
export const PROFILE_ENV = 'DIALTONE_PROFILE';

let cached: LoadedProfile | undefined;

/** The profile of this run, read once per worker. */
export function runProfile(): LoadedProfile {
  if (cached) return cached;
  const path = process.env[PROFILE_ENV];
  if (!path) throw new Error(`${PROFILE_ENV} is not set: run the suite through 'dialtone conformance'`);
  const profile = parseProfile(JSON.parse(readFileSync(path, 'utf8')), path);
  cached = { profile, path, secrets: resolveSecrets(profile, path, process.env) };
  return cached;
}

/** Secret values by environment variable name, for reproduce lines. */
export function secretEnv(loaded: LoadedProfile): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, ref] of Object.entries(loaded.profile.credentials)) {
    const v = loaded.secrets[name as keyof LoadedProfile['secrets']];
    if (ref && v) out[ref.env] = v;
  }
  if (loaded.profile.control && loaded.secrets.control_token) out[loaded.profile.control.token.env] = loaded.secrets.control_token;
  return out;
}

/** The clients and facts a case works with; one per case, so wire logs do not mix. */
export class CaseContext {
  /** Every exchange of this case across all clients, in the order they happened. */
  readonly log: Exchange[] = [];
  readonly chat: ChatClient;
  readonly #control: ControlClient | undefined;
  readonly capabilities: ReadonlySet<Capability>;
  constructor(readonly loaded: LoadedProfile) {
    this.chat = new ChatClient(loaded, this.log);
    this.capabilities = capabilities(loaded.profile);
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
