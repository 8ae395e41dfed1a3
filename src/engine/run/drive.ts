// The run proper: the worker threads that run the scenarios, what they tell the main thread (a table, one handler a
// message), the gauges, the abortOnFail judge and the progress line while they run.
import { Worker } from 'node:worker_threads';
import { abortingVerdict } from '../metrics/thresholds.js';
import { progressLine, type ScenarioPlan, scheduledMs } from '../options.js';
import type { Failures } from '../ran-as-written.js';
import { shareOf } from '../segments.js';
import { SharedCounters, sharedCounterBuffer } from '../shared-counters.js';
import { BatchReceiver, type SampleBatch } from '../transport.js';
import { errorText } from '../vu.js';
import type { FromWorker } from '../worker.js';
import type { PartSpec } from '../worker-part.js';
import { type RunContext, stopWorkers } from './context.js';
import type { Initialised } from './init.js';
import type { LiveCounts } from './live.js';
import { type RunPlan, workerCount, workersFromEnv } from './plan.js';
import type { SetupResult } from './setup.js';

/** How often abortOnFail thresholds are judged while the run goes (k6 evaluates thresholds every 2 s). */
const JUDGE_EVERY_MS = 2_000;
/** How often vus and vus_max are sampled (k6: every second). */
const GAUGE_EVERY_MS = 1_000;
/** How often a progress line goes to stderr. */
const PROGRESS_EVERY_MS = 10_000;
/** How long after the workers are told to start their schedules begin, so every worker has the message by then. */
export const START_AFTER_MS = 20;
/**
 * How long past the hard stop (the end of a scenario's gracefulStop) a worker that has said nothing for as long is
 * terminated from the main thread: one of its VUs holds the thread (a synchronous loop), so it cannot interrupt it.
 * A worker that still speaks (a browser closing) is left to end.
 */
const HARD_STOP_SILENCE_MS = 2_000;
/** How often the main thread looks for such a worker. */
const HARD_STOP_WATCH_MS = 250;

/** What the workers share and what the handlers of their messages write to. */
interface Drive {
  readonly run: RunContext;
  readonly plan: RunPlan;
  readonly live: LiveCounts;
  readonly failures: Failures;
  /** Scenarios whose cap of VUs was reached, said once each. */
  readonly insufficient: Set<string>;
  readonly segment: Initialised['segment'];
  /** When each worker last sent anything (Date.now()), and whether it ended. */
  readonly heard: number[];
  readonly ended: boolean[];
}

/** One worker as its handlers see it: its index, its samples' receiver, and the ends of its start-up and its run. */
interface WorkerEnds {
  readonly index: number;
  readonly receiver: BatchReceiver;
  readonly ready: () => void;
  readonly done: () => void;
}

type Message = FromWorker | SampleBatch;
type Handlers = { readonly [K in Message['t']]: (d: Drive, w: WorkerEnds, m: Extract<Message, { t: K }>) => void };

/** What the main thread does with each message of a worker. */
const ON_MESSAGE: Handlers = {
  samples: (_d, w, m) => w.receiver.receive(m),
  ready: (_d, w) => w.ready(),
  log: (d, _w, m) => {
    if (m.level === 'warn' && m.message.startsWith('Request Failed')) d.failures.request ??= m.message;
    d.run.log.log(m.level, m.message, m.fields);
  },
  console: (d, _w, m) => d.run.log.console(m.level, m.line),
  insufficient: (d, _w, m) => {
    // Said once per scenario, with the VUs of every worker: the scenario's cap was reached.
    if (d.insufficient.has(m.scenario)) return;
    d.insufficient.add(m.scenario);
    const plan = d.plan.plans.find((p) => p.name === m.scenario);
    const reached = plan ? shareOf(d.segment, plan.maxVUs) : m.active;
    d.run.log.log('warn', `Insufficient VUs, reached ${reached} active VUs and cannot initialize more`, { executor: m.executor, scenario: m.scenario });
  },
  abort: (d, _w, m) => {
    d.run.outcome.aborted ??= m.message ?? 'aborted by the script';
    stopWorkers(d.run);
  },
  fail: (d, _w, m) => {
    d.run.outcome.failed ??= m.message ?? 'failed by the script';
  },
  // The most VUs busy at once since the worker's last report: vus is read once a second.
  state: (d, w, m) => d.live.report(w.index, m),
  done: (d, w, m) => {
    d.ended[w.index] = true;
    d.live.report(w.index, m);
    d.live.active[w.index] = 0;
    w.ready();
    w.done();
  },
  failure: (d, _w, m) => {
    d.failures.first ??= { message: m.message, ...(m.where ? { where: m.where } : {}) };
  },
  failures: (d, _w, m) => {
    d.failures.count += m.count;
  },
  acted: (d, _w, m) => {
    d.failures.acted ??= m.what;
  },
  crash: (d, w, m) => {
    d.run.outcome.crash ??= m.message;
    w.ready();
    stopWorkers(d.run);
    w.done();
  },
};

/**
 * Makes one worker thread and resolves once it ended (done, crashed, errored or exited); `ready` once its
 * pre-allocated VUs exist (or it ended first).
 */
function startWorker(d: Drive, spec: PartSpec, index: number): { ready: Promise<void>; finished: Promise<void> } {
  const w = new Worker(new URL('../worker-entry.mjs', import.meta.url), { workerData: spec });
  d.run.workers.push(w);
  d.live.add(index);
  let isReady: () => void = () => {};
  const ready = new Promise<void>((r) => (isReady = r));
  const finished = new Promise<void>((done) => {
    const ends: WorkerEnds = { index, receiver: new BatchReceiver(d.plan.store), ready: isReady, done };
    d.heard[index] = Date.now();
    d.ended[index] = false;
    w.on('message', (m: Message) => {
      d.heard[index] = Date.now();
      (ON_MESSAGE[m.t] as (d: Drive, w: WorkerEnds, m: Message) => void)(d, ends, m);
    });
    w.on('error', (e) => {
      d.run.outcome.crash ??= errorText(e);
      d.ended[index] = true;
      isReady();
      done();
    });
    w.on('exit', () => {
      d.ended[index] = true;
      isReady();
      done();
    });
  });
  return { ready, finished };
}

/** Samples vus and vus_max now, then starts counting the busiest VUs afresh. */
function sampleVus(d: Drive): void {
  const at = Date.now();
  d.plan.store.emit('vus', d.live.vus, {}, at);
  d.plan.store.emit('vus_max', d.live.vusMax, {}, at);
  d.live.active.fill(0);
}

/** Judges the abortOnFail thresholds; the first that fails stops the run. */
function judgeAborting(d: Drive): void {
  const { store } = d.plan;
  const v = abortingVerdict(store.judge({ during: true }), store.elapsedMs());
  if (!v || d.run.outcome.thresholdAbort) return;
  d.run.outcome.thresholdAbort = `${v.key}: ${v.threshold.source}`;
  d.run.log.log('error', `thresholds on metrics '${v.key}' were crossed; at least one has abortOnFail enabled, stopping test prematurely`);
  stopWorkers(d.run);
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const clock = (ms: number) => `${Math.floor(ms / 60_000)}m${pad(Math.floor((ms % 60_000) / 1000), 2)}.${Math.floor((ms % 1000) / 100)}s`;

/** The progress line on stderr, `ms` into the run, and under it how far each scenario is through its schedule. */
function progress(d: Drive, ms: number, nameWidth: number): string {
  const { store } = d.plan;
  const { live } = d;
  const dropped = store.aggregate('dropped_iterations', 'count') ?? 0;
  const failing = store.judge({ during: true }).filter((v) => !v.ok).length;
  const rate = ((store.aggregate('iterations', 'count') ?? 0) / Math.max(1, store.elapsedMs() / 1000)).toFixed(1);
  const thresholds = store.thresholds.reduce((n, s) => n + s.thresholds.length, 0);
  return (
    `running (${clock(ms)}), ${pad(live.vus, 2)}/${pad(live.vusMax, 2)} VUs, ` +
    `${live.completedAll} complete and ${live.interruptedAll} interrupted iterations, ${rate} iterations/s, ` +
    `${dropped} dropped, ${failing} of ${thresholds} thresholds failing so far\n` +
    d.plan.plans.map((p: ScenarioPlan) => `${progressLine(p, ms, nameWidth)}\n`).join('')
  );
}

/** The timers that run beside the workers: the gauges, the abortOnFail judge, the progress line; returns what stops them. */
function startTimers(d: Drive, begun: number): () => void {
  const { run } = d;
  const gauges = setInterval(() => sampleVus(d), GAUGE_EVERY_MS);
  const hasAbort = d.plan.thresholds.some((s) => s.thresholds.some((t) => t.abortOnFail));
  const judge = hasAbort ? setInterval(() => judgeAborting(d), JUDGE_EVERY_MS) : undefined;
  const nameWidth = Math.max(...d.plan.plans.map((p) => p.name.length));
  const shown = run.args.quiet ? undefined : setInterval(() => run.io.stderr.write(progress(d, run.io.clock.now() - begun, nameWidth)), PROGRESS_EVERY_MS);
  const timers = [gauges, judge, shown].filter((t) => t !== undefined);
  for (const t of timers) t.unref();
  return () => {
    for (const t of timers) clearInterval(t);
  };
}

/**
 * The hard stop k6 keeps for a VU that does not end its iteration: "iterations that are still running … get
 * gracefulStop to finish, then they are interrupted" (/using-k6/scenarios/concepts/graceful-stop/). A worker interrupts
 * its own VUs there, but not one whose VU holds the thread in a synchronous loop: past the hard stop (the last
 * scenario's end plus its gracefulStop, or a stop request, Ctrl-C or an abort, which interrupts at once), a worker that
 * has said nothing for HARD_STOP_SILENCE_MS is terminated. What it flushed before stays in the store.
 */
function watchHardStop(d: Drive, t0: number): () => void {
  const { plans } = d.plan;
  const scheduleEnd = t0 + Math.max(0, ...plans.map((p) => p.startTimeMs + scheduledMs(p) + p.gracefulStopMs));
  const timer = setInterval(() => {
    const now = Date.now();
    const asked = d.run.stopAsked;
    const hardStop = asked === undefined ? scheduleEnd : Math.min(scheduleEnd, asked);
    if (now < hardStop + HARD_STOP_SILENCE_MS) return;
    d.run.workers.forEach((w, i) => {
      if (d.ended[i] || now - (d.heard[i] ?? 0) < HARD_STOP_SILENCE_MS) return;
      d.ended[i] = true;
      d.live.active[i] = 0;
      d.run.log.log('warn', 'a VU held its thread past the hard stop (a synchronous loop?): its worker was stopped, its iteration interrupted');
      void w.terminate();
    });
  }, HARD_STOP_WATCH_MS);
  return () => clearInterval(timer);
}

/**
 * Counts the iterations a terminated worker was running as interrupted, as k6 counts an iteration its hard stop cut
 * (`exec.instance.iterationsInterrupted`): every worker that ended by itself left no VU active, so what the shared
 * counters still hold active is theirs.
 */
function countCutIterations(d: Drive, counters: SharedCounters | undefined): void {
  const cut = counters?.read('vusActive') ?? 0;
  if (!counters || cut <= 0) return;
  counters.add('vusActive', -cut);
  counters.add('iterationsInterrupted', cut);
  d.live.interrupted[0] = (d.live.interrupted[0] ?? 0) + cut;
}

/**
 * Runs the scenarios on worker threads (none when setup was cut short) and resolves once every worker ended and was
 * terminated; `failures` gathers the iterations that threw, for ran-as-written.ts.
 *
 * @example
 * await drive(run, init, plan, setup, live, failures);
 */
export async function drive(run: RunContext, init: Initialised, plan: RunPlan, setup: SetupResult, live: LiveCounts, failures: Failures): Promise<void> {
  const d: Drive = { run, plan, live, failures, insufficient: new Set(), segment: init.segment, heard: [], ended: [] };
  const count = setup.cut ? 0 : workerCount(plan.plans, init.imports, init.segment, run.args.workers ?? workersFromEnv(run.io.env));
  // VU ids, iteration ids and exec.instance counts, shared by every worker (shared-counters.ts).
  const counters = sharedCounterBuffer(plan.plans.length);
  init.instance.counters = new SharedCounters(counters, init.segment);
  const started: { ready: Promise<void>; finished: Promise<void> }[] = [];
  for (let index = 0; index < count; index++) {
    const spec: PartSpec = {
      scriptPath: run.args.script,
      openRoot: run.args.archive?.root,
      code: init.code,
      imports: init.imports,
      options: init.options,
      plans: plan.plans,
      env: init.env,
      tls: init.tls,
      segment: init.segment,
      worker: { index, count },
      setupData: setup.data,
      counters,
      secrets: run.secrets,
    };
    started.push(startWorker(d, spec, index));
  }
  // Asked to stop while setup ran or the workers were made: they start stopped.
  if (run.outcome.signal) stopWorkers(run);

  await Promise.all(started.map((s) => s.ready));
  // The workers' schedules start at t0 on the wall clock; what the run reports counts from `begun`, on its own clock.
  const t0 = Date.now() + START_AFTER_MS;
  const begun = run.io.clock.now() + START_AFTER_MS;
  plan.store.begin(begun);
  for (const w of run.workers) w.postMessage({ t: 'start', t0 });
  live.running = true;
  sampleVus(d);
  const stopTimers = startTimers(d, begun);
  const unwatch = watchHardStop(d, t0);

  await Promise.all(started.map((s) => s.finished));
  live.running = false;
  stopTimers();
  unwatch();
  countCutIterations(d, init.instance.counters);
  // The last reading, so a run shorter than a gauge period still shows the VUs it made.
  sampleVus(d);
  await Promise.all(run.workers.map((w) => w.terminate()));
}
