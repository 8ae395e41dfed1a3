// Runs inside k6 VUs: what a closed-model capacity step (src/capacity/wrapper.ts) hands a scenario's `hold` export.

/** The step's side of a held session: its message rate, its time left, and the phase tag of what follows. */
export interface HoldControl {
  /** Messages a second each socket sends. */
  readonly messageRate: number;
  /** Milliseconds left in the step: the scenario stops sending when none are. */
  remainingMs(): number;
  /** Tags the samples that follow with the step's phase now (warm-up, steady, tail): call it before each timed piece. */
  mark(): void;
}
