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

/** A request's timeout at least: the one the scenarios used before SLOs came from the profile. */
const MIN_TIMEOUT_MS = 10_000;

/**
 * The timeout of an op's requests: twice what the op's latency SLO allows (`http_req_duration{op:OP}`), at least 10 s.
 * A platform whose SLOs grant its agent seconds gets them; a request past the bound is the SLO's to judge, not a
 * timeout's to cut off.
 *
 * @example
 * requestTimeout(cfg, 'chat.respond'); // '10000ms' by default, '18000ms' under a p(95)<9000 SLO
 */
export function requestTimeout(cfg: LoadConfig, op: string): string {
  return `${Math.max(MIN_TIMEOUT_MS, 2 * (cfg.sloBoundsMs[`http_req_duration{op:${op}}`] ?? 0))}ms`;
}
