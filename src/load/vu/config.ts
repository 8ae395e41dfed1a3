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

/** VUs an overridden arrival rate may start, unless --max-vus says otherwise: each k6 VU costs memory and CPU to start. */
export const DEFAULT_MAX_VUS = 1000;
/** VUs started before the run, at most: the rest start on demand, so a large --rate does not spend minutes starting VUs. */
export const MAX_PREALLOCATED_VUS = 100;

/**
 * The profile's scenario shape with --rate/--duration/--max-vus applied. Rate and duration apply to constant
 * arrival-rate shapes; a ramp keeps its stages (its point is the ramp), and takes only --max-vus.
 *
 * @example
 * shapeFor(SHAPES, { ...cfg, overrides: { rate: 3000 } }); // rate 3000, preAllocatedVUs 100, maxVUs 1000
 */
export function shapeFor<S extends { executor: string }>(shapes: Record<LoadConfig['profile'], S>, cfg: LoadConfig): S {
  const shape = shapes[cfg.profile];
  const o = cfg.overrides;
  if (!o || !shape.executor.endsWith('arrival-rate')) return shape;
  const own = shape as S & { preAllocatedVUs?: number; maxVUs?: number };
  const constant = shape.executor === 'constant-arrival-rate';
  const rate = constant ? o.rate : undefined;
  const maxVUs = o.maxVUs ?? (rate ? Math.min(Math.max(30, rate * 5), DEFAULT_MAX_VUS) : (own.maxVUs ?? DEFAULT_MAX_VUS));
  const preAllocatedVUs = Math.min(rate ? Math.max(5, Math.ceil(rate / 2)) : (own.preAllocatedVUs ?? 1), MAX_PREALLOCATED_VUS, maxVUs);
  return {
    ...shape,
    ...(rate ? { rate } : {}),
    ...(constant && o.duration ? { duration: o.duration } : {}),
    preAllocatedVUs,
    maxVUs,
  };
}
