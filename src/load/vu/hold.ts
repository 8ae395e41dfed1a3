// Runs inside k6 VUs: what a capacity step (src/capacity/wrapper.ts) hands a scenario: its default function, or a
// closed-model step's `hold` export.

/**
 * What every capacity step hands the scenario's function as its second argument (k6 itself passes none): an iteration
 * longer than a step's window (a learned conversation, a held session) marks its own pieces.
 */
export interface StepControl {
  /** Tags the samples that follow with the step's phase now (warm-up, steady, tail): call it before each timed piece. */
  mark(): void;
}

/** The step's side of a held session: its message rate, its time left, and the phase tag of what follows. */
export interface HoldControl extends StepControl {
  /** Messages a second each socket sends. */
  readonly messageRate: number;
  /** Milliseconds left in the step: the scenario stops sending when none are. */
  remainingMs(): number;
}
