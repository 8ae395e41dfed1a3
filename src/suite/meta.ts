import type { Seen } from '../clients/mutation.js';
import type { DerivedTally } from './derived/answers.js';
import type { MutationSpec } from './mutations/spec.js';

/** One line of a case's wire log (bodies cut to keep reports small). */
export interface WireEntry {
  readonly request: string;
  readonly response: string;
  readonly ms: number;
}

/** What a case hands the reporter beyond pass and fail. Everything here is already redacted. */
export interface CaseMeta {
  rule: string;
  /** The operation a case checks its rule on, where the rule has a case per operation it covers. */
  operation?: string;
  /** The rule is "not shown": a passing case is reported as `observed`, never as a gate result. */
  open?: boolean;
  /** Set when the case recorded what an open ("not shown") behaviour was. */
  observed?: string[];
  /** For a documented contradiction: the alternative the target chose. */
  chosen?: string;
  failure?: { check: string; documented: string; received: string; reproduce: string[] };
  skipReason?: string;
  wire?: WireEntry[];
  /** What the case created on the target and could not delete (no cleanup path in the profile, or the delete failed). */
  leftBehind?: { kind: string; id: string }[];
  /** Named durations in milliseconds (for example offer to answer), shown in the report. */
  timings?: Record<string, number>;
  /** The mutation proof: the mutation armed in this case, how often it rewrote an answer, and the check that failed. */
  mutation?: CaseMutation;
  /** A tracing run: every answer and frame that passed the mutation hook, in order (to find mutations). */
  trace?: Seen[];
  /** The checks derived from the contract that this case's answers and events met (`src/suite/derived`), redacted. */
  derived?: DerivedTally[];
}

/** What the mutation proof records of one case. */
export interface CaseMutation {
  readonly spec: MutationSpec;
  applied: number;
}

declare module 'vitest' {
  interface TaskMeta {
    dialtone?: CaseMeta;
  }
}
