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

/**
 * The profile's scenario shape with --rate/--duration applied. Overrides apply to constant
 * arrival-rate shapes; a ramp keeps its stages (its point is the ramp).
 */
export function shapeFor<S extends { executor: string }>(shapes: Record<LoadConfig['profile'], S>, cfg: LoadConfig): S {
  const shape = shapes[cfg.profile];
  const o = cfg.overrides;
  if (!o || shape.executor !== 'constant-arrival-rate') return shape;
  return {
    ...shape,
    ...(o.rate ? { rate: o.rate, preAllocatedVUs: Math.max(5, Math.ceil(o.rate / 2)), maxVUs: Math.max(30, o.rate * 5) } : {}),
    ...(o.duration ? { duration: o.duration } : {}),
  };
}
