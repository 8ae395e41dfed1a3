// One part of a run (a worker thread's): its VUs, its scenarios' executors, and what it tells the main thread.
import { CORE_METRICS } from '../core/metrics.js';
import { EXECUTORS, type ExecutorContext } from './executors/index.js';
import { moduleTable } from './modules/index.js';
import type { ScenarioPlan } from './options.js';
import { compileScript, opener } from './script.js';
import type { SecretSources } from './secrets.js';
import { type Part, shareOf, within } from './segments.js';
import { type InstanceCounter, SharedCounters } from './shared-counters.js';
import { START_LAG, startLag } from './start-lag.js';
import type { EngineTls, SampleSink } from './types.js';
import { type RunState, Vu, type VuShared } from './vu.js';

/** What a part needs to run: the same for every worker but its `part`. */
export interface PartSpec {
  readonly scriptPath: string;
  /** An archive's extracted `file/` tree, which an absolute path the script opens is read from (archive.ts). */
  readonly openRoot?: string | undefined;
  readonly code: string;
  readonly imports: readonly string[];
  readonly options: Record<string, unknown>;
  readonly plans: readonly ScenarioPlan[];
  readonly env: Record<string, string>;
  readonly tls: EngineTls;
  /** The machine's segment, and within it this worker's. */
  readonly segment: Part;
  readonly worker: Part;
  /** setup()'s data as JSON, or undefined. */
  readonly setupData: string | undefined;
  /** The instance's counters, shared by every worker (shared-counters.ts). */
  readonly counters: SharedArrayBuffer;
  /** The run's secret sources, for k6/secrets. */
  readonly secrets?: SecretSources | undefined;
}

/** What the part reports while it runs. */
export interface PartEvents {
  log(level: 'warn' | 'error' | 'info', message: string, fields?: Record<string, string>): void;
  insufficient(scenario: string, executor: string, active: number): void;
  abort(message: string | undefined): void;
  fail(message: string | undefined): void;
  /** An iteration ended in an exception. */
  failed?(e: unknown): void;
  /** A module acted as the script asked in a way no answered exchange counts (VuHost.acted). */
  acted?(what: string): void;
}

/** A running part: ready once every VU the scenarios pre-allocate exists; `start(t0)` lets them go. */
export interface RunningPart {
  readonly ready: Promise<void>;
  start(t0: number): void;
  stop(): void;
  readonly done: Promise<void>;
  readonly state: RunState;
  /** This worker's own counts (`state` reads the whole instance's), which the main thread adds up. */
  readonly local: Readonly<Record<InstanceCounter, number>>;
  /** The most VUs that ran an iteration at once since the last call (a short iteration is missed by a plain reading). */
  peakActive(): number;
}

/**
 * Starts a part: makes its VUs (each runs the script's init code), then waits for `start`. Samples go to `sink`.
 *
 * @example
 * const part = await startPart(spec, sink, events); await part.ready; part.start(Date.now()); await part.done;
 */
export async function startPart(spec: PartSpec, sink: SampleSink, events: PartEvents): Promise<RunningPart> {
  for (const m of CORE_METRICS) sink.declare(m);
  sink.declare(START_LAG);
  const part = within(spec.segment, spec.worker);
  let t0 = Number.POSITIVE_INFINITY;
  let go: () => void = () => {};
  const started = new Promise<void>((r) => (go = r));
  const stop = new AbortController();
  const counters = new SharedCounters(spec.counters, spec.segment);
  const local: Record<InstanceCounter, number> = { vusInitialized: 0, vusActive: 0, iterationsCompleted: 0, iterationsInterrupted: 0 };
  const state = instanceState(counters, local, {
    t0: () => t0,
    abort: (m) => {
      events.abort(m);
      throw new Error(`test aborted${m ? `: ${m}` : ''}`);
    },
    fail: (m) => events.fail(m),
  });
  const table = await moduleTable(spec.imports, { scriptPath: spec.scriptPath, secrets: spec.secrets });
  const shared: VuShared = {
    sink,
    tls: spec.tls,
    options: spec.options,
    baseEnv: spec.env,
    script: compileScript(spec.code, spec.scriptPath),
    modules: (vu) => table(vu),
    open: opener(spec.scriptPath, undefined, spec.openRoot),
    log: events.log,
    run: state,
    failed: events.failed,
    acted: events.acted,
  };
  const vus: Vu[] = [];
  const peak = { active: 0 };
  const newVu = () => {
    const id = counters.nextVu();
    const vu = new Vu(id.idInTest, id.idInInstance, shared);
    vus.push(vu);
    state.vusInitialized++;
    return vu;
  };
  // Waits until `ms` after the start; every waiter ends at once when the run stops. One set of waiters instead of an
  // abort listener per wait: an arrival-rate scenario waits once per arrival.
  const waiters = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  stop.signal.addEventListener('abort', () => {
    for (const w of waiters) {
      clearTimeout(w.timer);
      w.resolve();
    }
    waiters.clear();
  });
  const waitUntil = (ms: number): Promise<void> | undefined => {
    const wait = t0 + ms - Date.now();
    if (wait <= 0 || stop.signal.aborted) return undefined;
    return new Promise<void>((resolve) => {
      const w = {
        timer: setTimeout(() => {
          waiters.delete(w);
          resolve();
        }, wait),
        resolve,
      };
      waiters.add(w);
    });
  };
  const dataOf = new WeakMap<Vu, unknown>();
  const scenarioRuns: Promise<void>[] = [];
  const preallocated: Promise<void>[] = [];
  for (const [k, plan] of spec.plans.entries()) {
    let progress = () => 0;
    let warned = false;
    const pool = shareOf(spec.segment, plan.iterations);
    const ctx: ExecutorContext = {
      plan,
      part,
      now: () => Date.now() - t0,
      at: (ms) => (t0 === Number.POSITIVE_INFINITY ? started.then(() => waitUntil(ms)) : waitUntil(ms)),
      stopped: stop.signal,
      newVu: () => {
        const vu = newVu();
        vu.enterScenario(plan.name, plan.executor, plan.tags, plan.startTimeMs);
        vu.exec.progress = () => progress();
        Object.assign(vu.env, plan.env);
        return vu;
      },
      iterate: async (vu, dueMs) => {
        if (dueMs !== undefined) sink.emit(START_LAG.name, startLag(t0, dueMs), vu.tags());
        // A VU made mid-run of a script with top-level await: its init context ends first.
        if (vu.ready) await vu.ready;
        const fn = vu.exports[plan.exec];
        if (typeof fn !== 'function') throw new Error(`scenarios.${plan.name}.exec: the script exports no function '${plan.exec}'`);
        if (!dataOf.has(vu)) dataOf.set(vu, spec.setupData === undefined ? undefined : JSON.parse(spec.setupData));
        const n = counters.nextIteration(k);
        vu.exec.iterationInTest = n.inTest;
        vu.exec.iterationInInstance = n.inInstance;
        state.vusActive++;
        if (local.vusActive > peak.active) peak.active = local.vusActive;
        try {
          const started = Date.now();
          const end = await vu.iterate(fn as (d?: unknown) => unknown, dataOf.get(vu));
          if (end !== 'interrupted') await vu.pace(started);
          return end;
        } finally {
          state.vusActive--;
        }
      },
      claim: () => counters.claim(k, pool),
      claimedShare: () => counters.claimed(k, pool) / Math.max(1, pool),
      dropped: () => sink.emit('dropped_iterations', 1, { scenario: plan.name }),
      insufficient: (active) => {
        if (warned) return;
        warned = true;
        events.insufficient(plan.name, plan.executor, active);
      },
      setProgress: (fn) => {
        progress = fn;
      },
    };
    // An executor makes its pre-allocated VUs before its first await, so they exist once it has been called.
    const run = EXECUTORS[plan.executor](ctx);
    scenarioRuns.push(run);
    preallocated.push(Promise.resolve());
  }
  // A script with top-level await: the part is ready once every pre-allocated VU's init context ended.
  preallocated.push(Promise.all(vus.map((vu) => vu.ready)).then(() => undefined));
  const done = Promise.all(scenarioRuns).then(async () => {
    for (const vu of vus) await vu.close();
  });
  return {
    ready: Promise.all(preallocated).then(() => undefined),
    start: (at) => {
      t0 = at;
      go();
    },
    stop: () => stop.abort(),
    done,
    state,
    local,
    peakActive: () => {
      const most = peak.active;
      peak.active = local.vusActive;
      return most;
    },
  };
}

/**
 * The RunState a worker's VUs see: reads give the instance's counts (every worker's), and each `++`/`--` of vu.ts and
 * this file adds its step to the shared count and to `local`. A step is the value written minus the value the same
 * property last read, which is exact for `x++`: its read and write run back to back in one thread.
 */
function instanceState(counters: SharedCounters, local: Record<InstanceCounter, number>, rest: Pick<RunState, 't0' | 'abort' | 'fail'>): RunState {
  const state = { ...rest } as RunState;
  for (const c of Object.keys(local) as InstanceCounter[]) {
    let seen = 0;
    Object.defineProperty(state, c, {
      enumerable: true,
      get: () => {
        seen = counters.read(c);
        return seen;
      },
      set: (v: number) => {
        const step = v - seen;
        seen = v;
        local[c] += step;
        counters.add(c, step);
      },
    });
  }
  return state;
}
