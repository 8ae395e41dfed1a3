// One virtual user: its own instance of the script, its tags, and the iteration it runs. An iteration ends when the
// function returned (or its promise settled) and everything it started that a module holds (timers, sockets,
// requests) has settled, as k6's event loop does (/using-k6/test-lifecycle/).
import { setMaxListeners } from 'node:events';
import { durationMs } from '../core/duration.js';
import { type ScriptExports, type ScriptFactory, scriptStack } from './script.js';
import { seededRandom } from './seeded-random.js';
import type { EngineTls, ExecState, SampleSink, Tags, VuHost } from './types.js';

/** The reason an interrupted iteration's signal carries: one Error, made once. */
const INTERRUPTED = new Error('the iteration was interrupted');

/** How an iteration ended. */
export type IterationEnd = 'completed' | 'failed' | 'interrupted';

/** What VUs of one engine share: where samples go, how the script and its modules are made, how to log. */
export interface VuShared {
  readonly sink: SampleSink;
  readonly tls: EngineTls;
  readonly options: Readonly<Record<string, unknown>>;
  readonly baseEnv: Readonly<Record<string, string>>;
  readonly script: ScriptFactory;
  /** The k6 modules for one VU, by import name. */
  readonly modules: (vu: Vu) => (name: string) => unknown;
  readonly open: (path: string, mode?: string) => string | ArrayBuffer;
  readonly log: (level: 'warn' | 'error' | 'info', message: string, fields?: Record<string, string>) => void;
  /** Run-wide state k6/execution reads. */
  readonly run: RunState;
  /** Told of each iteration that ended in an exception: a run of only failed iterations did not run as written. */
  readonly failed?: (e: unknown) => void;
  /** Told of what a module did as the script asked that no answered exchange counts (VuHost.acted). */
  readonly acted?: (what: string) => void;
}

/** The run-wide counters and controls every VU's k6/execution sees. */
export interface RunState {
  readonly t0: () => number;
  iterationsCompleted: number;
  iterationsInterrupted: number;
  vusActive: number;
  vusInitialized: number;
  abort: (message?: string) => never;
  fail: (message?: string) => void;
}

export class Vu implements VuHost {
  readonly env: Record<string, string>;
  readonly sink: SampleSink;
  readonly tls: EngineTls;
  readonly options: Readonly<Record<string, unknown>>;
  readonly exec: ExecState;
  readonly vuTags: Record<string, string>;
  readonly exports: ScriptExports;
  /** The end of this VU's init context, for a script with top-level await; undefined for any other script. */
  readonly ready: Promise<void> | undefined;
  #group = '';
  #scenarioTags: Tags = {};
  #tags: Tags | undefined;
  readonly #shared: VuShared;
  readonly #closers: (() => void | Promise<void>)[] = [];
  #iterationEnders: (() => void | Promise<void>)[] = [];
  #pending = 0;
  #generation = 0;
  #onInterrupt: (() => void) | undefined;
  /** options.minIterationDuration in ms, 0 when unset (pace). */
  readonly #minIterationMs: number;
  #settled: (() => void) | undefined;
  #failed: ((e: unknown) => void) | undefined;
  /** The running iteration's signal, made when first asked for (most iterations never need one: it costs an EventTarget). */
  #abort: AbortController | undefined;
  #interrupted = false;
  readonly #interruptListeners: (() => void)[] = [];
  readonly k6Globals = { __VU: 0, __ITER: 0 };
  /**
   * The script's Math: the realm's own, but for a random of this VU's, as each k6 VU has a runtime of its own whose
   * Math.random randomSeed seeds (the script's code sees this object as `Math`).
   */
  readonly math: Math = Object.create(Math, { random: { value: Math.random, writable: true, configurable: true } });

  constructor(
    readonly id: number,
    readonly idInInstance: number,
    shared: VuShared,
  ) {
    this.#shared = shared;
    this.sink = shared.sink;
    this.tls = shared.tls;
    this.options = shared.options;
    this.#minIterationMs = durationMs(shared.options.minIterationDuration) ?? 0;
    this.env = { ...shared.baseEnv };
    this.k6Globals.__VU = id;
    // exec.vu.metrics.tags is assignable by the script; a write must reach the next sample's tags.
    this.vuTags = new Proxy({} as Record<string, string>, {
      set: (t, k, v) => {
        t[k as string] = String(v);
        this.#tags = undefined;
        return true;
      },
      deleteProperty: (t, k) => {
        delete t[k as string];
        this.#tags = undefined;
        return true;
      },
    });
    const run = shared.run;
    this.exec = {
      scenarioName: 'default',
      executor: '',
      scenarioStartTime: 0,
      iterationInInstance: 0,
      iterationInTest: 0,
      vuIterationInScenario: 0,
      vuIterationInInstance: 0,
      progress: () => 0,
      currentTestRunDuration: () => Date.now() - run.t0(),
      iterationsCompleted: () => run.iterationsCompleted,
      iterationsInterrupted: () => run.iterationsInterrupted,
      vusActive: () => run.vusActive,
      vusInitialized: () => run.vusInitialized,
      abort: (m) => run.abort(m),
      fail: (m) => run.fail(m),
    };
    const require = shared.modules(this);
    // The init context: the script's top level, once for this VU.
    const instance = shared.script({
      require,
      __ENV: this.env,
      __k6: this.k6Globals,
      open: shared.open,
      console,
      Math: this.math,
      ...(require('k6/timers') as { setTimeout: unknown; clearTimeout: unknown; setInterval: unknown; clearInterval: unknown }),
    });
    this.exports = instance.exports;
    this.ready = instance.ready;
    // Its failure is read where it is awaited (init, the part's start, the VU's first iteration), which for a VU made
    // mid-run may come after Node would have called the rejection unhandled.
    this.ready?.catch(() => {});
  }

  get group(): string {
    return this.#group;
  }

  set group(g: string) {
    this.#group = g;
    this.#tags = undefined;
  }

  /** The scenario this VU now runs: its name and tags join every sample's tags. */
  enterScenario(name: string, executor: string, tags: Tags, startTime: number): void {
    this.exec.scenarioName = name;
    this.exec.executor = executor;
    this.exec.scenarioStartTime = startTime;
    this.exec.vuIterationInScenario = 0;
    this.#scenarioTags = tags;
    this.#tags = undefined;
  }

  tags(): Tags {
    if (this.#tags) return this.#tags;
    const global = (this.options.tags ?? {}) as Tags;
    this.#tags = Object.freeze({ ...global, ...this.#scenarioTags, scenario: this.exec.scenarioName, group: this.#group, ...this.vuTags });
    return this.#tags;
  }

  get signal(): AbortSignal {
    if (!this.#abort) {
      this.#abort = new AbortController();
      // Every socket, timer and request of the iteration may listen for its end: many listeners are expected here.
      setMaxListeners(0, this.#abort.signal);
      if (this.#interrupted) this.#abort.abort(INTERRUPTED);
    }
    return this.#abort.signal;
  }

  get interrupted(): boolean {
    return this.#interrupted;
  }

  onInterrupt(fn: () => void): void {
    this.#interruptListeners.push(fn);
  }

  hold(): () => void {
    this.#pending++;
    // A hold of an interrupted iteration that settles later must not count against the next one.
    const generation = this.#generation;
    let done = false;
    return () => {
      if (done || generation !== this.#generation) return;
      done = true;
      this.#pending--;
      if (this.#pending === 0) this.#settled?.();
    };
  }

  track<T>(p: Promise<T>): Promise<T> {
    const release = this.hold();
    p.then(release, release);
    return p;
  }

  onClose(fn: () => void | Promise<void>): void {
    this.#closers.push(fn);
  }

  onIterationEnd(fn: () => void | Promise<void>): void {
    this.#iterationEnders.push(fn);
  }

  /** k6's randomSeed: from now on this VU's Math.random gives the seed's sequence, from its start. */
  seedRandom(seed: number): void {
    this.math.random = seededRandom(seed);
  }

  acted(what: string): void {
    this.#shared.acted?.(what);
  }

  warn(message: string): void {
    this.#shared.log('warn', message, { scenario: this.exec.scenarioName });
  }

  error(e: unknown): void {
    if (this.#failed) this.#failed(e);
    else this.#shared.log('error', errorText(e), { scenario: this.exec.scenarioName });
  }

  /**
   * Runs one iteration of `fn` and resolves how it ended; emits `iterations` and `iteration_duration` for an iteration
   * that ended (k6#652: an interrupted one is not counted). `interrupt()` ends it early.
   */
  async iterate(fn: (data?: unknown) => unknown, data: unknown): Promise<IterationEnd> {
    this.#abort = undefined;
    this.#interrupted = false;
    this.#generation++;
    this.#pending = 0;
    this.k6Globals.__ITER = this.exec.vuIterationInInstance;
    const started = Date.now();
    const interrupted = new Promise<'interrupted'>((resolve) => (this.#onInterrupt = () => resolve('interrupted')));
    let end: IterationEnd;
    try {
      const body = (async () => {
        await fn(data);
        if (this.#pending > 0) await new Promise<void>((resolve) => (this.#settled = resolve));
        return 'completed' as const;
      })();
      const failedLater = new Promise<never>((_, reject) => (this.#failed = reject));
      end = await Promise.race([body, interrupted, failedLater]);
    } catch (e) {
      this.#shared.log('error', errorText(e), { executor: this.exec.executor, scenario: this.exec.scenarioName });
      this.#shared.failed?.(asError(e));
      end = 'failed';
    }
    this.#settled = undefined;
    this.#failed = undefined;
    this.#onInterrupt = undefined;
    if (end === 'interrupted') this.#shared.run.iterationsInterrupted++;
    else {
      // k6's iteration metrics are emitted after the function returned, with the tags the VU has then.
      const tags = this.tags();
      const now = Date.now();
      this.sink.emit('iterations', 1, tags, now);
      this.sink.emit('iteration_duration', now - started, tags, now);
      this.#shared.run.iterationsCompleted++;
    }
    // A signal that was not aborted is left as it is: aborting it would make a DOMException with a stack for every
    // iteration (a tenth of the engine's CPU at 2,000 iterations/s), and nothing listens once the iteration ended.
    this.exec.vuIterationInScenario++;
    this.exec.vuIterationInInstance++;
    await this.#endIteration();
    return end;
  }

  /**
   * k6's minIterationDuration, after a scenario's iteration that ran to its end (completed or failed) and began at
   * `started`: holds the VU for the rest of that duration, after the iteration's metrics, so iteration_duration keeps
   * what the function took; the rest ends early when the VU is interrupted (the graceful stop ran out, the run stopped).
   * Setup and teardown are not iterations and are not held. The planned options were checked (options.ts).
   */
  async pace(started: number): Promise<void> {
    const rest = this.#minIterationMs - (Date.now() - started);
    if (rest <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, rest);
      this.#onInterrupt = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    });
    this.#onInterrupt = undefined;
  }

  /** Ends the running iteration now (gracefulStop or gracefulRampDown ran out). */
  interrupt(): void {
    if (!this.#interrupted) {
      this.#interrupted = true;
      if (this.#abort && !this.#abort.signal.aborted) this.#abort.abort(INTERRUPTED);
      for (const fn of this.#interruptListeners) fn();
    }
    this.#onInterrupt?.();
  }

  async #endIteration(): Promise<void> {
    const enders = this.#iterationEnders;
    this.#iterationEnders = [];
    for (const fn of enders) await Promise.resolve(fn()).catch(() => {});
  }

  /** Closes what the VU's modules opened (connections, browsers). */
  async close(): Promise<void> {
    await this.#endIteration();
    for (const fn of this.#closers) await Promise.resolve(fn()).catch(() => {});
  }
}

/** What the script threw that is not an Error (`throw 'boom'`), last few, each with the stack where it was thrown. */
const thrown: { value: unknown; stack: string }[] = [];
// The bundle's `throw` hands its value here (blocking.ts, THROWN_HELPER); one table per thread, shared by its VUs.
(globalThis as { __dialtone_throws?: (value: unknown, stack: string) => void }).__dialtone_throws = (value, stack) => {
  thrown.push({ value, stack });
  if (thrown.length > 32) thrown.shift();
};

/**
 * An exception as an Error: itself, or for a value the script threw that is not one (`throw 'boom'`) an Error of its
 * text with the stack where it was thrown, when the bundle's throw recorded it, so it is told with its file:line.
 */
export function asError(e: unknown): unknown {
  if (e instanceof Error) return e;
  for (let i = thrown.length - 1; i >= 0; i--) {
    const t = thrown[i] as { value: unknown; stack: string };
    if (!Object.is(t.value, e)) continue;
    const err = new Error(String(e));
    // The recorded stack's first line is its header; the frames follow, the throw's own first.
    err.stack = `${String(e)}\n${t.stack.slice(t.stack.indexOf('\n') + 1)}`;
    return err;
  }
  return e;
}

/** A stack line that is a frame (`    at f (file:line)`). */
const FRAME_LINE = /^\s+at /;
/**
 * A frame in the script's sources, as scriptStack gives them: `file:line`, no column. Frames that keep their column are
 * the engine's own files or Node's (`src/engine/vu.ts:232:15`, `node:internal/…`), and natives are `<anonymous>`.
 */
const SCRIPT_FRAME = /[^\d:]:\d+\)?$/;

/**
 * An exception as k6 prints it: the message and the first frames of its stack in the script, as k6's are all the
 * script's; the engine's own frames and Node's are left out, so a refusal is its line and nothing of dialtone's
 * insides. A value thrown that is not an Error (`throw 'boom'`) is printed with where it was thrown, as k6 prints it:
 * `boom` and then `at default (script.js:5)`.
 */
export function errorText(e: unknown): string {
  const x = asError(e);
  if (!(x instanceof Error)) return String(x);
  const lines = scriptStack(x.stack ?? `${x.name}: ${x.message}`).split('\n');
  const frames = lines.findIndex((l) => FRAME_LINE.test(l));
  if (frames < 0) return lines.join('\n\t');
  const mine = lines.slice(frames).filter((l) => (SCRIPT_FRAME.test(l) && !l.includes('<anonymous>')) || l.includes('(bundle line '));
  return [...lines.slice(0, frames), ...mine.slice(0, 3)].join('\n\t');
}
