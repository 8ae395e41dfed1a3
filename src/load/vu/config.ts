// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
import { LOAD_ENV, type LoadConfig } from '../config.js';

/** The run's LoadConfig, parsed once per VU from DIALTONE_LOAD. */
export function loadConfig(): LoadConfig {
  const raw = __ENV[LOAD_ENV];
  if (!raw) throw new Error(`${LOAD_ENV} is not set: run scenarios through 'dialtone load'`);
  return JSON.parse(raw) as LoadConfig;
}

/** A credential's value, read from the environment variable the config names. */
export function secret(cfg: LoadConfig, name: string): string {
  const env = cfg.secretEnv[name];
  const value = env ? __ENV[env] : undefined;
  if (!value) throw new Error(`credential ${name} is not available to k6 (environment variable ${env ?? '(none)'})`);
  return value;
}
