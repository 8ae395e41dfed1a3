// The main thread of a run: reads the options (the init context once), starts the worker threads that run the
// scenarios, aggregates their samples, judges the thresholds (abortOnFail while the run goes, all at its end) and
// writes what k6 writes: the summary export, the outputs, the end-of-test summary, the exit code.
import { openSync, readFileSync, writeSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { formatDuration } from '../core/duration.js';
import type { MetricDecl } from '../core/metrics.js';
import { BUILTIN_METRICS } from '../core/metrics.js';
import { type K6Flags, scriptEnv, withFlags } from './cli-options.js';
import { vuConsole } from './console.js';
import { bundleScript, compileScript, opener } from './loader.js';
import { type Output, openOutput, parseOutArg } from './metrics/outputs.js';
import { type RestApi, startRestApi } from './metrics/rest.js';
import { MetricStore } from './metrics/store.js';
import { handleSummaryData } from './metrics/summary-data.js';
import { writeSummaryExport } from './metrics/summary-export.js';
import { textSummary } from './metrics/text-summary.js';
import { abortingVerdict, parseThresholds, type ThresholdSet } from './metrics/thresholds.js';
import { importsOf, moduleTable } from './modules/index.js';
import { headerLine, maxVusOf, planScenarios, progressLine, type ScenarioPlan, scheduledMs, trendStatsOf } from './options.js';
import type { PartSpec } from './part.js';
import { answeredCounter, type Failures, notRunAsWritten } from './ran-as-written.js';
import type { EngineIo } from './run/io.js';
import { onStopRequest } from './run/stop.js';
import { type Part, parseSegment, shareOf } from './segments.js';
import { instanceReadings, SharedCounters, sharedCounterBuffer } from './shared-counters.js';
import { START_LAG } from './start-lag.js';
import { BatchReceiver, type SampleBatch } from './transport.js';
import type { EngineTls, SampleSink } from './types.js';
import { errorText, type RunState, Vu } from './vu.js';
import type { FromWorker } from './worker.js';

/** What `run` takes: dialtone's flags, and k6's that set options and __ENV (cli-options.ts). */
export interface RunArgs extends K6Flags {
  readonly script: string;
  readonly quiet: boolean;
  readonly summaryExport: string | undefined;
  readonly outs: readonly string[];
  readonly address: string | undefined;
  readonly segment: string | undefined;
  readonly sequence: string | undefined;
  readonly noThresholds: boolean;
  readonly noColor: boolean;
  readonly workers: number | undefined;
}

/** k6's exit codes (/get-started/... and errext/exitcodes, as the facts sheet lists them). */
export const EXIT = {
  ok: 0,
  thresholds: 99,
  invalidConfig: 104,
  externalAbort: 105,
  cannotStartRestApi: 106,
  scriptException: 107,
  scriptAborted: 108,
  scriptFailed: 110,
} as const;

/** How often abortOnFail thresholds are judged while the run goes (k6 evaluates thresholds every 2 s). */
const JUDGE_EVERY_MS = 2_000;
/** How often vus and vus_max are sampled (k6: every second). */
const GAUGE_EVERY_MS = 1_000;
/** How often a progress line goes to stderr. */
const PROGRESS_EVERY_MS = 10_000;

/** Holds samples until the store exists (the options, and so the thresholds, come from the init context). */
class ForwardSink implements SampleSink {
  #to: SampleSink | undefined;
  readonly #decls: MetricDecl[] = [];
  readonly #samples: [string, number, Record<string, string>, number][] = [];
  declare(m: MetricDecl): void {
    if (this.#to) this.#to.declare(m);
    else this.#decls.push(m);
  }
  emit(metric: string, value: number, tags: Record<string, string>, time = Date.now()): void {
    if (this.#to) this.#to.emit(metric, value, tags, time);
    else this.#samples.push([metric, value, tags, time]);
  }
  connect(to: SampleSink): void {
    this.#to = to;
    for (const d of this.#decls) to.declare(d);
    for (const [m, v, t, at] of this.#samples) to.emit(m, v, t, at);
  }
  get declared(): readonly MetricDecl[] {
    return this.#decls;
  }
}

/** The TLS trust k6 would use: SSL_CERT_FILE replaces the system roots (Go reads it), K6_INSECURE_SKIP_TLS_VERIFY turns checks off. */
function tlsFromEnv(env: NodeJS.ProcessEnv, options: Record<string, unknown>): EngineTls {
  const file = env.SSL_CERT_FILE;
  const insecure = env.K6_INSECURE_SKIP_TLS_VERIFY === 'true' || options.insecureSkipTLSVerify === true;
  return { ca: file ? readFileSync(file, 'utf8') : undefined, insecure };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const clock = (ms: number) => `${Math.floor(ms / 60_000)}m${pad(Math.floor((ms % 60_000) / 1000), 2)}.${Math.floor((ms % 1000) / 100)}s`;

/** A log line as k6's text logger writes one: `WARN[0003] message  key=value`. */
function lineOfLog(elapsedMs: number, level: 'warn' | 'error' | 'info' | 'debug', message: string, fields?: Record<string, string>): string {
  const secs = pad(Math.max(0, Math.floor(elapsedMs / 1000)), 4);
  const tail = fields
    ? `  ${Object.entries(fields)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}`
    : '';
  return `${level.toUpperCase().slice(0, 4)}[${secs}] ${message}${tail}\n`;
}

/** Worker threads for a run: one per core, one for a browser run (Chromium takes the cores), at most the VUs' count. */
export function workerCount(plans: readonly ScenarioPlan[], imports: readonly string[], segment: Part, asked: number | undefined): number {
  if (imports.includes('k6/browser')) return 1;
  const most = plans.reduce((n, p) => n + shareOf(segment, Math.max(1, maxVusOf(p))), 0);
  return Math.max(1, Math.min(asked ?? availableParallelism(), most));
}

/** DIALTONE_ENGINE_WORKERS: the worker threads when --workers is not given (dialtone load passes no flag of its own). */
function workersFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const n = Number(env.DIALTONE_ENGINE_WORKERS);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : undefined;
}

/**
 * Runs a script as `k6 run` does and resolves k6's exit code.
 *
 * @example
 * const code = await runEngine(parseRunArgs(['--summary-export', 'summary.json', 'script.js']), processIo());
 */
export async function runEngine(args: RunArgs, io: EngineIo): Promise<number> {
  const now = () => io.clock.now();
  const started = now();
  const logLine = (level: 'warn' | 'error' | 'info' | 'debug', message: string, fields?: Record<string, string>) =>
    lineOfLog(now() - started, level, message, fields);
  const logs = { warned: 0, suppressed: 0, second: 0 };
  // A flood of the same failure (thousands per second) is cut to 20 lines a second, and the rest counted.
  const log = (level: 'warn' | 'error' | 'info', message: string, fields?: Record<string, string>) => {
    const second = Math.floor(now() / 1000);
    if (second !== logs.second) {
      if (logs.suppressed > 0) io.stderr.write(logLine('warn', `${logs.suppressed} more log lines in the last second were left out`));
      logs.second = second;
      logs.warned = 0;
      logs.suppressed = 0;
    }
    if (++logs.warned > 20) {
      logs.suppressed++;
      return;
    }
    io.stderr.write(logLine(level, message, fields));
  };
  // A VU's console.* line: never cut by the flood limit, console.debug only with --verbose (k6-docs#207); to the
  // --console-output file when there is one, else to stderr.
  let consoleFile: number | undefined;
  const consoleLine = (level: 'debug' | 'info' | 'warn' | 'error', line: string) => {
    if (level === 'debug' && !args.verbose) return;
    const text = logLine(level, line, { source: 'console' });
    if (consoleFile === undefined) io.stderr.write(text);
    else writeSync(consoleFile, text);
  };
  const fatal = (code: number, message: string) => {
    io.stderr.write(logLine('error', message));
    return code;
  };
  try {
    if (args.consoleOutput) consoleFile = openSync(args.consoleOutput, 'w');
  } catch (e) {
    return fatal(EXIT.invalidConfig, `--console-output: ${(e as Error).message}`);
  }
  // A stop signal or the parent gone, from the start (bundling and init included): no new iterations, the running ones
  // interrupted, then teardown, the summary export and the outputs as at any end (k6's exit 105); a second signal exits
  // at once.
  const outcome: { aborted?: string; failed?: string; signal?: string; thresholdAbort?: string; crash?: string } = {};
  const workers: Worker[] = [];
  const stopAll = () => {
    for (const w of workers) w.postMessage({ t: 'stop' });
  };
  // The VU running setup() while it runs: a stop request interrupts it there rather than waiting for setup to end.
  let inSetup: Vu | undefined;
  const stopWatch = onStopRequest(
    io,
    (reason) => {
      outcome.signal ??= reason;
      io.stderr.write(logLine('warn', `stopping the test run: ${reason}; press Ctrl-C again to stop at once`));
      inSetup?.interrupt();
      stopAll();
    },
    EXIT.externalAbort,
  );

  let code: string;
  let sends: readonly string[];
  try {
    ({ code, sends } = await bundleScript(args.script));
  } catch (e) {
    return fatal(EXIT.scriptException, (e as Error).message);
  }
  const imports = importsOf(code);
  let segment: Part;
  try {
    segment = parseSegment(args.segment, args.sequence);
  } catch (e) {
    return fatal(EXIT.invalidConfig, (e as Error).message);
  }

  // The init context once, in this thread: the options, the custom metrics, and the VU that runs setup and teardown.
  const forward = new ForwardSink();
  // exec.instance in the init context, setup and teardown: what every worker counted (shared-counters.ts).
  let instance: SharedCounters | undefined;
  const state = Object.defineProperties(
    {
      t0: () => started,
      abort: (m?: string) => {
        outcome.aborted = m ?? 'aborted by the script';
        throw new Error(`test aborted${m ? `: ${m}` : ''}`);
      },
      fail: (m?: string) => {
        outcome.failed = m ?? 'failed by the script';
      },
    } as RunState,
    instanceReadings(() => instance),
  );
  const failures: Failures = { count: 0 };
  // __ENV: the system's variables and the -e values (cli-options.ts).
  const env = scriptEnv(args, io.env);
  // setup() and teardown() emit iteration_duration ("including time spent in setup and teardown") but no `iterations`:
  // that is "The aggregate number of times the VUs execute the JS script (the default function)" (metrics reference).
  const setupSink: SampleSink = {
    declare: (m) => forward.declare(m),
    emit: (metric, value, tags, time) => {
      if (metric !== 'iterations') forward.emit(metric, value, tags, time);
    },
  };
  let vu0: Vu;
  let tls: EngineTls;
  let options: Record<string, unknown>;
  try {
    const table = await moduleTable(imports);
    const bare = compileScript(code, args.script);
    tls = tlsFromEnv(io.env, {});
    // vu.ts hands the script the global console: the init context, setup and teardown get k6's for as long as vu0 is made.
    const nodeConsole = globalThis.console;
    globalThis.console = vuConsole(consoleLine);
    try {
      vu0 = new Vu(0, 0, {
        sink: setupSink,
        tls,
        options: {},
        baseEnv: env,
        script: bare,
        modules: (vu) => table(vu),
        open: opener(args.script),
        log,
        run: state,
      });
    } finally {
      globalThis.console = nodeConsole;
    }
    const flagged = withFlags((vu0.exports.options ?? {}) as Record<string, unknown>, args);
    options = flagged.options;
    if (flagged.warning) log('warn', flagged.warning);
    tls = tlsFromEnv(io.env, options);
    // k6 2.3 (@types/k6 2.3.0): tlsAIAFetch fetches a chain's missing intermediates. Node has no AIA fetching; say so
    // rather than fail a handshake k6 would complete.
    if (options.tlsAIAFetch === true && !tls.insecure)
      io.stderr.write(
        logLine('warn', 'tlsAIAFetch is not supported by the built-in engine: a server must send its whole chain, or its CA must be trusted (SSL_CERT_FILE)'),
      );
  } catch (e) {
    // exec.test.abort() in the init context ends the run with k6's 108, not as an exception.
    if (outcome.aborted) return fatal(EXIT.scriptAborted, `test aborted: ${outcome.aborted}`);
    return fatal(EXIT.scriptException, `the script's init code failed: ${errorText(e)}`);
  }

  let plans: ScenarioPlan[];
  let thresholds: ThresholdSet[];
  try {
    plans = planScenarios(options);
    thresholds = args.noThresholds ? [] : parseThresholds(options.thresholds ?? {});
  } catch (e) {
    return fatal(EXIT.invalidConfig, (e as Error).message);
  }
  const trendStats = trendStatsOf(options);
  const store = new MetricStore({ thresholds, now });
  for (const m of BUILTIN_METRICS) store.declare(m);
  store.declare(START_LAG);
  forward.connect(store);
  const answered = answeredCounter(store);
  try {
    store.validateThresholds();
  } catch (e) {
    return fatal(EXIT.invalidConfig, (e as Error).message);
  }

  // k6's header: dialtone's generator watch reads the scenario lines.
  const most = plans.reduce((n, p) => n + maxVusOf(p), 0);
  const longest = plans.reduce((t, p) => Math.max(t, p.startTimeMs + scheduledMs(p) + p.gracefulStopMs), 0);
  io.stdout.write(
    [
      '',
      '  execution: local (dialtone built-in engine)',
      `     script: ${args.script}`,
      `     output: ${args.outs.length ? args.outs.join(', ') : '-'}`,
      '',
      `  scenarios: (${(100 / segment.count).toFixed(2)}%) ${plans.length} scenario${plans.length === 1 ? '' : 's'}, ${most} max VUs, ` +
        `${formatDuration(longest)} max duration (incl. graceful stop):`,
      ...plans.map(headerLine),
      '',
      '',
    ].join('\n'),
  );

  const outputs: Output[] = [];
  let rest: RestApi | undefined;
  try {
    for (const o of args.outs) outputs.push(openOutput(parseOutArg(o), store));
  } catch (e) {
    return fatal(EXIT.invalidConfig, (e as Error).message);
  }

  const live = { active: [] as number[], initialized: [] as number[], completed: [] as number[], interrupted: [] as number[] };
  const sum = (a: number[]) => a.reduce((s, x) => s + x, 0);
  let running = false;
  if (args.address) {
    try {
      rest = await startRestApi({
        address: args.address,
        store,
        summaryTrendStats: trendStats,
        status: () => ({ status: running ? 7 : 9, vus: sum(live.active), vusMax: sum(live.initialized), stopped: !running, running }),
      });
    } catch (e) {
      return fatal(EXIT.cannotStartRestApi, `the REST API could not start on ${args.address}: ${(e as Error).message}`);
    }
  }

  // setup() (/using-k6/test-lifecycle/): once, before the VUs run; its data goes to every VU as a copy.
  let setupData: string | undefined;
  // Stopped before setup() finished: no VU runs (they would need its data) and teardown is skipped, as when it throws.
  let setupCut = false;
  if (typeof vu0.exports.setup === 'function') {
    try {
      vu0.group = '::setup';
      let data: unknown;
      let thrown: { e: unknown } | undefined;
      inSetup = vu0;
      const end = outcome.signal
        ? 'interrupted'
        : await vu0.iterate(async () => {
            try {
              data = await (vu0.exports.setup as () => unknown)();
            } catch (e) {
              thrown = { e };
            }
          }, undefined);
      inSetup = undefined;
      setupCut = end === 'interrupted';
      vu0.group = '';
      // k6: "If setup throws, teardown is skipped" and the run ends with the exception (/using-k6/test-lifecycle/).
      if (thrown && !setupCut) throw thrown.e;
      setupData = data === undefined ? undefined : JSON.stringify(data);
    } catch (e) {
      // exec.test.abort() in setup() ends the run with k6's 108, as in the init context.
      if (outcome.aborted) return fatal(EXIT.scriptAborted, `test aborted: ${outcome.aborted}`);
      return fatal(EXIT.scriptException, `setup() failed: ${errorText(e)}`);
    }
  }

  const count = setupCut ? 0 : workerCount(plans, imports, segment, args.workers ?? workersFromEnv(io.env));
  const finished: Promise<void>[] = [];
  const insufficient = new Set<string>();
  const ready: Promise<void>[] = [];
  // VU ids, iteration ids and exec.instance counts, shared by every worker (shared-counters.ts).
  const counters = sharedCounterBuffer(plans.length);
  instance = new SharedCounters(counters, segment);
  for (let index = 0; index < count; index++) {
    const spec: PartSpec = {
      scriptPath: args.script,
      code,
      imports,
      options,
      plans,
      env,
      tls,
      segment,
      worker: { index, count },
      setupData,
      counters,
    };
    const w = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: spec });
    workers.push(w);
    const receiver = new BatchReceiver(store);
    live.active[index] = 0;
    live.initialized[index] = 0;
    live.completed[index] = 0;
    live.interrupted[index] = 0;
    let isReady: () => void = () => {};
    ready.push(new Promise((r) => (isReady = r)));
    finished.push(
      new Promise<void>((done) => {
        w.on('message', (m: FromWorker | SampleBatch) => {
          switch (m.t) {
            case 'samples':
              receiver.receive(m);
              break;
            case 'ready':
              isReady();
              break;
            case 'log':
              if (m.level === 'warn' && m.message.startsWith('Request Failed')) failures.request ??= m.message;
              log(m.level, m.message, m.fields);
              break;
            case 'console':
              consoleLine(m.level, m.line);
              break;
            case 'insufficient': {
              // Said once per scenario, with the VUs of every worker: the scenario's cap was reached.
              if (insufficient.has(m.scenario)) break;
              insufficient.add(m.scenario);
              const plan = plans.find((p) => p.name === m.scenario);
              const reached = plan ? shareOf(segment, plan.maxVUs) : m.active;
              log('warn', `Insufficient VUs, reached ${reached} active VUs and cannot initialize more`, { executor: m.executor, scenario: m.scenario });
              break;
            }
            case 'abort':
              outcome.aborted ??= m.message ?? 'aborted by the script';
              stopAll();
              break;
            case 'fail':
              outcome.failed ??= m.message ?? 'failed by the script';
              break;
            case 'state':
              // The most VUs busy at once since the worker's last report: vus is read once a second.
              live.active[index] = Math.max(live.active[index] ?? 0, m.active);
              live.initialized[index] = m.initialized;
              live.completed[index] = m.completed;
              live.interrupted[index] = m.interrupted;
              break;
            case 'done':
              live.initialized[index] = m.initialized;
              live.completed[index] = m.completed;
              live.interrupted[index] = m.interrupted;
              live.active[index] = 0;
              isReady();
              done();
              break;
            case 'failure':
              failures.first ??= { message: m.message, ...(m.where ? { where: m.where } : {}) };
              break;
            case 'failures':
              failures.count += m.count;
              break;
            case 'crash':
              outcome.crash ??= m.message;
              isReady();
              stopAll();
              done();
              break;
          }
        });
        w.on('error', (e) => {
          outcome.crash ??= errorText(e);
          isReady();
          done();
        });
        w.on('exit', () => {
          isReady();
          done();
        });
      }),
    );
  }

  // Asked to stop while setup ran or the workers were made: they start stopped.
  if (outcome.signal) stopAll();

  await Promise.all(ready);
  // The workers' schedules start at t0 on the wall clock; what the run reports counts from `begun`, on its own clock.
  const t0 = Date.now() + 20;
  const begun = now() + 20;
  store.begin(begun);
  for (const w of workers) w.postMessage({ t: 'start', t0 });
  running = true;
  const sampleVus = () => {
    const at = Date.now();
    store.emit('vus', sum(live.active), {}, at);
    store.emit('vus_max', sum(live.initialized), {}, at);
    live.active.fill(0);
  };
  sampleVus();
  const gauges = setInterval(sampleVus, GAUGE_EVERY_MS);
  const hasAbort = thresholds.some((s) => s.thresholds.some((t) => t.abortOnFail));
  const judge = hasAbort
    ? setInterval(() => {
        const v = abortingVerdict(store.judge(), store.elapsedMs());
        if (v && !outcome.thresholdAbort) {
          outcome.thresholdAbort = `${v.key}: ${v.threshold.source}`;
          log('error', `thresholds on metrics '${v.key}' were crossed; at least one has abortOnFail enabled, stopping test prematurely`);
          stopAll();
        }
      }, JUDGE_EVERY_MS)
    : undefined;
  const nameWidth = Math.max(...plans.map((p) => p.name.length));
  const progress = args.quiet
    ? undefined
    : setInterval(() => {
        const dropped = store.aggregate('dropped_iterations', 'count') ?? 0;
        const failing = store.judge().filter((v) => !v.ok).length;
        io.stderr.write(
          `running (${clock(now() - begun)}), ${pad(sum(live.active), 2)}/${pad(sum(live.initialized), 2)} VUs, ${sum(live.completed)} complete and ${sum(live.interrupted)} interrupted iterations, ${((store.aggregate('iterations', 'count') ?? 0) / Math.max(1, store.elapsedMs() / 1000)).toFixed(1)} iterations/s, ${dropped} dropped, ${failing} of ${store.thresholds.reduce((n, s) => n + s.thresholds.length, 0)} thresholds failing so far\n` +
            plans.map((p) => `${progressLine(p, now() - begun, nameWidth)}\n`).join(''),
        );
      }, PROGRESS_EVERY_MS);
  for (const t of [gauges, judge, progress]) t?.unref();

  await Promise.all(finished);
  running = false;
  clearInterval(gauges);
  if (judge) clearInterval(judge);
  if (progress) clearInterval(progress);
  // The last reading, so a run shorter than a gauge period still shows the VUs it made.
  sampleVus();
  await Promise.all(workers.map((w) => w.terminate()));

  // teardown(data), unless the script aborted in setup (k6 skips it then); it runs after an abort too.
  if (typeof vu0.exports.teardown === 'function' && !setupCut) {
    vu0.group = '::teardown';
    const data = setupData === undefined ? undefined : JSON.parse(setupData);
    await vu0.iterate(() => (vu0.exports.teardown as (d: unknown) => unknown)(data), undefined).catch(() => {});
    vu0.group = '';
  }
  await vu0.close();
  store.end();
  stopWatch();

  const verdicts = store.judge();
  // --summary-mode=disabled (v1: --no-summary) skips the export and handleSummary too.
  if (args.summaryExport && args.summaryMode !== 'disabled') await writeSummaryExport(args.summaryExport, store, { summaryTrendStats: trendStats, verdicts });
  await Promise.all(outputs.map((o) => o.close()));
  await rest?.close();
  if (args.summaryMode !== 'disabled') await endOfTestSummary(vu0, store, trendStats, args, io);

  // A worker whose VU's init code called exec.test.abort() crashes on it: the abort is what happened (108).
  if (outcome.crash && !outcome.aborted) return fatal(EXIT.scriptException, `the run stopped: ${outcome.crash}`);
  if (outcome.signal) return EXIT.externalAbort;
  const unfit = outcome.aborted ? undefined : notRunAsWritten({ iterations: store.aggregate('iterations', 'count') ?? 0, sent: answered() }, failures, sends);
  if (unfit) io.stderr.write(logLine('error', `the test did not run as written: ${unfit}`));
  if (outcome.aborted) return fatal(EXIT.scriptAborted, `test aborted: ${outcome.aborted}`);
  if (verdicts.some((v) => !v.ok)) {
    io.stderr.write(logLine('error', `thresholds on metrics '${[...new Set(verdicts.filter((v) => !v.ok).map((v) => v.key))].join(', ')}' have been crossed`));
    return EXIT.thresholds;
  }
  if (unfit) return EXIT.scriptException;
  if (outcome.failed) return fatal(EXIT.scriptFailed, `test failed: ${outcome.failed}`);
  return EXIT.ok;
}

/** handleSummary(data) when the script exports one (its files replace the default summary), else the text summary. */
async function endOfTestSummary(vu0: Vu, store: MetricStore, trendStats: readonly string[], args: RunArgs, io: EngineIo): Promise<void> {
  const handle = vu0.exports.handleSummary;
  if (typeof handle === 'function') {
    const tty = { stdout: io.stdout.isTTY === true, stderr: io.stderr.isTTY === true };
    const out = (await handle(handleSummaryData(store, trendStats, tty))) as Record<string, string | ArrayBuffer> | undefined;
    for (const [where, content] of Object.entries(out ?? {})) {
      const text = typeof content === 'string' ? content : Buffer.from(content);
      if (where === 'stdout') io.stdout.write(text);
      else if (where === 'stderr') io.stderr.write(text);
      else await writeFile(where, text);
    }
    return;
  }
  io.stdout.write(textSummary(store, { summaryTrendStats: trendStats, noColor: args.noColor || !io.stdout.isTTY }));
}

/** handleSummary's argument (metrics/summary-data.ts), where it was first exported from. */
export { handleSummaryData };
