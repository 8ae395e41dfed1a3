import type { SloEntry } from '../load/config.js';
import type { EngineId } from '../load/engine-version.js';
import type { CapacityAnalysis } from './analysis.js';
import type { SearchOptions, SearchOutcome } from './search.js';
import type { StepResult } from './step.js';

/** What capacity.json holds. */
export interface CapacityResult {
  readonly scenario: string;
  readonly unit: string;
  readonly target: string;
  /** The engine that ran the steps: the user's k6 or the built-in engine, with its version. */
  readonly engine: EngineId;
  readonly started_at: string;
  readonly search: SearchOptions;
  readonly stopped: SearchOutcome['stopped'];
  readonly wall_s: number;
  readonly analysis: CapacityAnalysis;
  readonly steps: readonly StepResult[];
  /** The SLOs every step was judged by: the set's name and each key with its source (default or profile). */
  readonly slos?: { readonly slo_set: string; readonly entries: readonly SloEntry[] } | undefined;
}
