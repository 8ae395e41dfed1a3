// A minimal VuHost for the k6 modules' tests: a real SampleSink that keeps every sample, holds and tracked promises
// counted so a test can wait for "the iteration" to settle, and an AbortController standing for the iteration's signal.
import type { MetricDecl } from '../../core/metrics.js';
import type { EngineTls, ExecState, Sample, SampleSink, Tags, VuHost } from '../types.js';

/** A SampleSink that keeps what it gets, in order; declaring a metric twice with another type throws. */
export class CollectingSink implements SampleSink {
  readonly samples: Sample[] = [];
  readonly metrics = new Map<string, MetricDecl>();

  declare(m: MetricDecl): void {
    const seen = this.metrics.get(m.name);
    if (seen && seen.type !== m.type) throw new Error(`metric ${m.name} declared as ${seen.type} and ${m.type}`);
    if (!seen) this.metrics.set(m.name, m);
  }

  emit(metric: string, value: number, tags: Tags, time = Date.now()): void {
    if (!this.metrics.has(metric)) throw new Error(`metric ${metric} emitted before it was declared`);
    this.samples.push({ metric, value, tags, time });
  }

  /** The samples of `metric`, optionally only those whose tags include `tags`. */
  of(metric: string, tags: Record<string, string> = {}): Sample[] {
    return this.samples.filter((s) => s.metric === metric && Object.entries(tags).every(([k, v]) => s.tags[k] === v));
  }

  /** The sum of the values of `metric` (a counter's count). */
  sum(metric: string, tags: Record<string, string> = {}): number {
    return this.of(metric, tags).reduce((a, s) => a + s.value, 0);
  }
}

export interface TestVuOptions {
  options?: Record<string, unknown>;
  tls?: EngineTls;
  tags?: Record<string, string>;
}

/** The fake VU, with what a test needs to look at. */
export interface TestVu extends VuHost {
  readonly sink: CollectingSink;
  /** Holds not yet released plus tracked promises not yet settled. */
  readonly pending: () => number;
  /** Resolves once nothing is held or tracked (the iteration would end), or rejects after `ms`. */
  settled(ms?: number): Promise<void>;
  /** Errors of tracked promises that rejected, in order. */
  readonly rejections: unknown[];
  /** What modules handed to `error` (exceptions of script callbacks), in order. */
  readonly errors: unknown[];
  /** Interrupts the iteration: aborts `signal`, as gracefulStop running out does. */
  interrupt(): void;
  /** Runs the onClose callbacks, as the end of the run does. */
  close(): Promise<void>;
  readonly warnings: string[];
  /** The seeds randomSeed handed to `seedRandom`, in order. */
  readonly seeds: number[];
}

export function testVu(setup: TestVuOptions = {}): TestVu {
  const sink = new CollectingSink();
  let controller = new AbortController();
  let holds = 0;
  let tracked = 0;
  const rejections: unknown[] = [];
  const errors: unknown[] = [];
  const closers: (() => void | Promise<void>)[] = [];
  const warnings: string[] = [];
  const seeds: number[] = [];
  const interruptListeners: (() => void)[] = [];
  const waiters: (() => void)[] = [];
  const baseTags: Tags = Object.freeze({ scenario: 'default', group: '', ...setup.tags });
  const wake = () => {
    if (holds + tracked > 0) return;
    for (const w of waiters.splice(0)) w();
  };
  const exec: ExecState = {
    scenarioName: 'default',
    executor: 'shared-iterations',
    scenarioStartTime: 0,
    iterationInInstance: 0,
    iterationInTest: 0,
    vuIterationInScenario: 0,
    vuIterationInInstance: 0,
    progress: () => 0,
    currentTestRunDuration: () => 0,
    iterationsCompleted: () => 0,
    iterationsInterrupted: () => 0,
    vusActive: () => 1,
    vusInitialized: () => 1,
    abort: (message?: string) => {
      throw new Error(message ?? 'aborted');
    },
    fail: () => {},
  };
  const vu: TestVu = {
    id: 1,
    idInInstance: 1,
    env: {},
    sink,
    tls: setup.tls ?? { insecure: false },
    options: setup.options ?? {},
    tags: () => baseTags,
    vuTags: {},
    group: '',
    hold() {
      holds++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds--;
        wake();
      };
    },
    track<T>(p: Promise<T>): Promise<T> {
      tracked++;
      p.then(
        () => {
          tracked--;
          wake();
        },
        (err: unknown) => {
          rejections.push(err);
          tracked--;
          wake();
        },
      );
      return p;
    },
    get signal() {
      return controller.signal;
    },
    // interrupt() below ends the iteration and starts the next at once, so no iteration stays interrupted.
    interrupted: false,
    onInterrupt(fn) {
      interruptListeners.push(fn);
    },
    onClose(fn) {
      closers.push(fn);
    },
    onIterationEnd() {},
    exec,
    seedRandom(seed) {
      seeds.push(seed);
    },
    warn(message) {
      warnings.push(message);
    },
    error(e) {
      errors.push(e);
    },
    errors,
    pending: () => holds + tracked,
    settled(ms = 5_000) {
      if (holds + tracked === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`still ${holds} held and ${tracked} tracked after ${ms} ms`)), ms);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    rejections,
    interrupt() {
      controller.abort();
      for (const fn of interruptListeners) fn();
      controller = new AbortController();
    },
    async close() {
      for (const fn of closers.splice(0)) await fn();
    },
    warnings,
    seeds,
  };
  return vu;
}
