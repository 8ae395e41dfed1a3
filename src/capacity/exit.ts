// How a finished capacity run ends: its exit code, and the line it writes to stderr when that is no success.
import { EXIT } from '../errors.js';
import { EXIT_LOAD_NOT_DELIVERED } from '../load/delivery.js';
import type { CapacityResult } from './result.js';
import { cutShort } from './run.js';

/** A finished run's exit code, and the line it writes to stderr when that is no success. */
export interface CapacityExit {
  readonly code: number;
  readonly error?: string;
}

/**
 * The exit of a finished capacity run: interrupted (105); its budget cut the search short before the knee (4); a learned
 * search whose load generator was the limit (5, the load command's exit for load not delivered); regressed under
 * --fail-on-regression (6); else 0, whatever it found.
 *
 * @example
 * capacityExit(result, { learned: false, failOnRegression: false }); // { code: 0 }
 */
export function capacityExit(
  r: Pick<CapacityResult, 'interrupted' | 'stopped' | 'analysis' | 'verdict'>,
  options: { readonly learned: boolean; readonly failOnRegression: boolean },
): CapacityExit {
  if (r.interrupted) return { code: EXIT.interrupted };
  // A search its budget cut short found no knee: its rate is no capacity, so the run is no success either. (When the
  // load generator was the limit, that is the finding, whatever stopped the search.)
  if (cutShort(r)) {
    return { code: EXIT.internal, error: `the search was cut short by its ${r.stopped} before it refined the knee; raise --max-steps or --max-time` };
  }
  // A learned search is run for its headroom: without the conversations it asked for delivered there is none, so it
  // is no success.
  if (options.learned && r.analysis.limited_by === 'load-generator') {
    return { code: EXIT_LOAD_NOT_DELIVERED, error: `the load generator was the limit, so the learned workload was not delivered: ${r.analysis.limit_reason}` };
  }
  return { code: options.failOnRegression && r.verdict?.status === 'regressed' ? EXIT.regressed : EXIT.ok };
}
