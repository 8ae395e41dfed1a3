import type { CapacityAnalysis } from './analysis.js';
import type { SearchOptions, SearchOutcome } from './search.js';
import type { StepResult } from './step.js';

/** What capacity.json holds. */
export interface CapacityResult {
  readonly scenario: string;
  readonly unit: string;
  readonly target: string;
  readonly started_at: string;
  readonly search: SearchOptions;
  readonly stopped: SearchOutcome['stopped'];
  readonly wall_s: number;
  readonly analysis: CapacityAnalysis;
  readonly steps: readonly StepResult[];
}
