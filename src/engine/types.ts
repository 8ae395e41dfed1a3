// The contracts inside dialtone's built-in load engine: what the k6 modules (src/engine/modules) get from the VU that
// runs them, and what the metric store (src/engine/metrics) takes from the executors. Types only.

import type { MetricDecl } from '../core/metrics.js';

/** Tag values are strings (/using-k6/tags-and-groups/). */
export type Tags = Readonly<Record<string, string>>;

/** One sample, as k6's JSON output writes a Point: `time` in ms since the epoch. */
export interface Sample {
  readonly metric: string;
  readonly time: number;
  readonly value: number;
  readonly tags: Tags;
}

/**
 * Where samples go. Inside a worker this buffers and ships them to the main thread in batches; the main thread's
 * metric store aggregates them. `emit` must be cheap: it runs several times per request.
 */
export interface SampleSink {
  declare(m: MetricDecl): void;
  /** `time` defaults to now (Date.now()). */
  emit(metric: string, value: number, tags: Tags, time?: number): void;
}

/** TLS trust for the engine's clients, from SSL_CERT_FILE and K6_INSECURE_SKIP_TLS_VERIFY (or the script's options). */
export interface EngineTls {
  /** PEM certificates to trust in place of Node's default store (SSL_CERT_FILE replaces the system roots, as in Go). */
  readonly ca?: string | undefined;
  readonly insecure: boolean;
}

/**
 * What a k6 module sees of the VU it runs in. One per VU; `iteration` changes as the VU runs iterations.
 * Modules must keep every asynchronous thing they start registered with `hold`/`track`, so the iteration ends only
 * once they settled ("the iteration ends once all its promises and timers settle", /using-k6/test-lifecycle/).
 */
export interface VuHost {
  /** `exec.vu.idInTest`, from 1; 0 while the options are read. */
  readonly id: number;
  readonly idInInstance: number;
  /** `__ENV`: the process environment, as k6 gives it. */
  readonly env: Record<string, string>;
  readonly sink: SampleSink;
  readonly tls: EngineTls;
  /** The script's exported options (read-only), e.g. `discardResponseBodies`, `userAgent`, `insecureSkipTLSVerify`. */
  readonly options: Readonly<Record<string, unknown>>;
  /**
   * Tags every sample of this VU carries now: options.tags, the scenario's name and tags, `group`, and
   * `exec.vu.metrics.tags`. A fresh object when any of those changed, else the same one (cheap to call per sample).
   */
  tags(): Tags;
  /** `exec.vu.metrics.tags`: assignable by the script. */
  readonly vuTags: Record<string, string>;
  /** The current group path ('' at the root, '::a::b' nested), for `group()` and the `group` tag. */
  group: string;
  /**
   * Keeps the running iteration alive until the returned release is called (a timer, an open socket).
   * Calling release twice is harmless.
   */
  hold(): () => void;
  /** Keeps the running iteration alive until `p` settles; returns `p`. */
  track<T>(p: Promise<T>): Promise<T>;
  /**
   * Aborted when the running iteration is interrupted (gracefulStop or gracefulRampDown ran out, or the run stops).
   * Made when first read in an iteration; code that runs per request uses `interrupted` and `onInterrupt` instead.
   */
  readonly signal: AbortSignal;
  /** The running iteration was interrupted. */
  readonly interrupted: boolean;
  /** Called whenever an iteration of this VU is interrupted, for the whole life of the VU (set once, not per iteration). */
  onInterrupt(fn: () => void): void;
  /** Things to close when the VU ends (connection pools, a browser): called once at the end of the run. */
  onClose(fn: () => void | Promise<void>): void;
  /** Things to do when the running iteration ends, then forgotten (k6/browser closes the iteration's browser). */
  onIterationEnd(fn: () => void | Promise<void>): void;
  /**
   * The VU acted as the script asked in a way no answered exchange counts: a page's content set, a browser request
   * that failed. The run then sent something (ran-as-written.ts), as a script that loads no URL on purpose does.
   */
  acted?(what: string): void;
  /** Execution context for k6/execution: filled in by the executor. */
  readonly exec: ExecState;
  /** k6's randomSeed: this VU's Math.random gives the seed's sequence from its start (/javascript-api/k6/random-seed/). */
  seedRandom(seed: number): void;
  /** A warning line on stderr, as k6 logs one (`WARN[0003] …`), never containing a secret. */
  warn(message: string): void;
  /**
   * An exception thrown by script code that a module ran from a callback (an event listener, a timer): it ends the
   * running iteration, as an uncaught exception does in k6. Modules catch what listeners throw and hand it here.
   */
  error(e: unknown): void;
}

/** The k6/execution state of one VU and its scenario (/javascript-api/k6-execution/). */
export interface ExecState {
  scenarioName: string;
  executor: string;
  /** ms since the run started when the scenario started. */
  scenarioStartTime: number;
  iterationInInstance: number;
  iterationInTest: number;
  /** 0-based per VU and scenario. */
  vuIterationInScenario: number;
  vuIterationInInstance: number;
  /** Progress of the scenario, 0..1. */
  progress: () => number;
  /** ms since the run started. */
  currentTestRunDuration: () => number;
  iterationsCompleted: () => number;
  iterationsInterrupted: () => number;
  vusActive: () => number;
  vusInitialized: () => number;
  /** `exec.test.abort(msg)`: stop the run, exit 108. */
  abort: (message?: string) => never;
  /** `exec.test.fail(msg)`: mark the run failed (exit 110), it goes on. */
  fail: (message?: string) => void;
}

/** A k6 module as the engine's loader provides it to a VU: made once per VU. */
export type ModuleFactory = (vu: VuHost) => Record<string, unknown>;
