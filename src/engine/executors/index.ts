// The executors by name: one row each.
import type { ExecutorName } from '../options.js';
import { arrivalRate } from './arrival-rate.js';
import type { Executor } from './context.js';
import { constantVus, perVuIterations, rampingVus, sharedIterations } from './vus.js';

export const EXECUTORS: Readonly<Record<ExecutorName, Executor>> = {
  'constant-vus': constantVus,
  'ramping-vus': rampingVus,
  'constant-arrival-rate': arrivalRate,
  'ramping-arrival-rate': arrivalRate,
  'shared-iterations': sharedIterations,
  'per-vu-iterations': perVuIterations,
};

export type { Executor, ExecutorContext } from './context.js';
