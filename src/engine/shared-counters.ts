// The counters one engine process shares across its worker threads (a SharedArrayBuffer read and written with
// Atomics), so that k6/execution describes one test and not one test per worker: VU ids 1..N, iteration ids from 0
// without gaps, and `exec.instance` counts for the whole instance (/javascript-api/k6-execution/).
import type { Part } from './segments.js';

const VU_IDS = 0;
const VUS_INITIALIZED = 1;
const VUS_ACTIVE = 2;
const ITERATIONS_COMPLETED = 3;
const ITERATIONS_INTERRUPTED = 4;
/** Each scenario's next iteration number, then its claimed shared iterations, from here on: two slots a scenario. */
const SCENARIOS = 8;

/** The buffer the main thread makes once and hands to every worker. */
export function sharedCounterBuffer(scenarios: number): SharedArrayBuffer {
  return new SharedArrayBuffer((SCENARIOS + 2 * scenarios) * Int32Array.BYTES_PER_ELEMENT);
}

export type InstanceCounter = 'vusInitialized' | 'vusActive' | 'iterationsCompleted' | 'iterationsInterrupted';
const SLOT: Readonly<Record<InstanceCounter, number>> = {
  vusInitialized: VUS_INITIALIZED,
  vusActive: VUS_ACTIVE,
  iterationsCompleted: ITERATIONS_COMPLETED,
  iterationsInterrupted: ITERATIONS_INTERRUPTED,
};

/**
 * One worker's view of the shared counters. `segment` is the machine's execution segment: ids in the test are the
 * instance's ids spread over the segments, unique across instances ("test-wide ids stay unique across instances, with
 * possible gaps"), and the same as the instance's when the run is not segmented.
 */
export class SharedCounters {
  readonly #a: Int32Array;
  constructor(
    buffer: SharedArrayBuffer,
    readonly segment: Part,
  ) {
    this.#a = new Int32Array(buffer);
  }

  /** A new VU's ids: `idInInstance` from 1, in the order VUs are made, and its `idInTest`. */
  nextVu(): { idInInstance: number; idInTest: number } {
    const n = Atomics.add(this.#a, VU_IDS, 1);
    return { idInInstance: n + 1, idInTest: n * this.segment.count + this.segment.index + 1 };
  }

  /** The next iteration of scenario `k` (its index in the plans): `iterationInInstance` from 0, and `iterationInTest`. */
  nextIteration(k: number): { inInstance: number; inTest: number } {
    const n = Atomics.add(this.#a, SCENARIOS + 2 * k, 1);
    return { inInstance: n, inTest: n * this.segment.count + this.segment.index };
  }

  /** Takes one of scenario `k`'s `total` shared iterations; false once all are taken (shared-iterations' pool). */
  claim(k: number, total: number): boolean {
    const slot = SCENARIOS + 2 * k + 1;
    if (Atomics.load(this.#a, slot) >= total) return false;
    return Atomics.add(this.#a, slot, 1) < total;
  }

  /** How many of scenario `k`'s shared iterations were taken. */
  claimed(k: number, total: number): number {
    return Math.min(total, Atomics.load(this.#a, SCENARIOS + 2 * k + 1));
  }

  read(c: InstanceCounter): number {
    return Atomics.load(this.#a, SLOT[c]);
  }

  add(c: InstanceCounter, delta: number): void {
    Atomics.add(this.#a, SLOT[c], delta);
  }
}

/**
 * Properties that read the instance's counts and ignore writes: for the main thread's RunState, whose setup and
 * teardown are no scenario's iterations. `counters` is undefined until the workers' buffer exists (then 0 each).
 */
export function instanceReadings(counters: () => SharedCounters | undefined): PropertyDescriptorMap {
  return Object.fromEntries(Object.keys(SLOT).map((c) => [c, { enumerable: true, get: () => counters()?.read(c as InstanceCounter) ?? 0, set: () => {} }]));
}
