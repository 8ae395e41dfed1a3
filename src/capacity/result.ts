import type { EngineId } from '../core/engine-version.js';
import type { SloEntry } from '../load/config.js';
import type { Interruption } from '../load/interrupt.js';
import type { CapacityAnalysis } from './analysis.js';
import type { Headroom } from './headroom.js';
import type { SearchOptions, SearchOutcome } from './search.js';
import type { StepResult } from './step.js';

/** What capacity.json holds. */
export interface CapacityResult {
  /** dialtone's version (package.json). */
  readonly tool_version: string;
  readonly scenario: string;
  /** What the figure counts: iterations a second (open model), or things held (closed model: `model`). */
  readonly unit: string;
  /** The closed model: the figure is `unit` held, each with `sockets` sockets sending this many messages a second. */
  readonly model?: ClosedModel | undefined;
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
  /** Against the earlier searches in its history (src/capacity/history.ts): did capacity move? */
  readonly verdict?: CapacityVerdict | undefined;
  /** The platform's observed busiest hour (`--traffic FILE`) beside the capacity found (src/capacity/headroom.ts). */
  readonly headroom?: Headroom | undefined;
  /** What each step played: absent, the scenario's own iteration; `learned`, a traffic model's conversations. */
  readonly workload?: LearnedSearch | undefined;
  /** A stop signal ended the search (`stopped: 'interrupted'`): its finished steps are kept, no capacity is claimed. */
  readonly interrupted?: Interruption | undefined;
}

/** A search that played a traffic model (`--workload learned`): the rate searched is conversations arriving. */
export interface LearnedSearch {
  readonly kind: 'learned';
  /** The model file, as given. */
  readonly file: string;
  /** The model's medians the conversations were drawn from. */
  readonly turns_p50: number;
  readonly think_time_p50_s: number;
}

/** What a search's history says of it (src/capacity/history.ts). */
export type CapacityStatus = 'regressed' | 'improved' | 'unchanged' | 'no baseline' | 'not judged';

export interface CapacityVerdict {
  readonly status: CapacityStatus;
  readonly rate: number | null;
  /** The median of the earlier comparable searches' figures, when there were any. */
  readonly median?: number;
  readonly runs: number;
  /** The relative move that counts: the band's floor, or the search's precision when that is coarser. */
  readonly floor: number;
  /** Why a search is not judged (its figure is no capacity of the target's). */
  readonly reason?: string;
}

/** A closed-model search (`dialtone capacity SCENARIO --model closed`). */
export interface ClosedModel {
  readonly kind: 'closed';
  readonly sockets: number;
  readonly message_rate_per_socket: number;
}

/**
 * How a figure of the search reads: `conversations/s` for an arrival rate, `sessions held` for the closed model.
 *
 * @example
 * `${x} ${perOf(result)}`; // '3 sessions held'
 */
export const perOf = (r: Pick<CapacityResult, 'unit' | 'model'>): string => (r.model ? `${r.unit} held` : `${r.unit}/s`);
