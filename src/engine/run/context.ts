// What every step of a run shares: its arguments, its outside world, its log, how it is ending, and the switch that
// stops whatever runs (the workers, or the VU running setup()).
import type { Worker } from 'node:worker_threads';
import type { K6Flags } from '../cli-options.js';
import type { ModuleSource } from '../remote-modules.js';
import { NO_SECRETS, redactor, type SecretSources } from '../secrets.js';
import type { Vu } from '../vu.js';
import type { EngineIo } from './io.js';
import { RunLog } from './log.js';

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
  /** Set when the script came out of an archive (archive.ts): its remote modules and its consolidated options. */
  readonly archive?:
    | { readonly path: string; readonly root: string; readonly modules: ModuleSource; readonly options: Readonly<Record<string, unknown>> }
    | undefined;
}

/** How the run is ending, first reason of each kind kept. */
export interface Outcome {
  /** exec.test.abort(): k6's 108. */
  aborted?: string;
  /** exec.test.fail(): k6's 110, after everything else. */
  failed?: string;
  /** A stop signal, or the starting process gone: k6's 105. */
  signal?: string;
  thresholdAbort?: string;
  /** A worker that died. */
  crash?: string;
}

/** A run in progress. */
export interface RunContext {
  readonly args: RunArgs;
  readonly io: EngineIo;
  /** When the run started, on its clock. */
  readonly started: number;
  readonly log: RunLog;
  readonly outcome: Outcome;
  /** The worker threads, once made. */
  readonly workers: Worker[];
  /** The VU running setup() while it runs: a stop request interrupts it there rather than waiting for setup to end. */
  inSetup: Vu | undefined;
  /** When the workers were first asked to stop (Date.now()), if they were. */
  stopAsked: number | undefined;
  /** The run's secret sources (--secret-source), for k6/secrets; their values are redacted from all it writes. */
  readonly secrets: SecretSources;
}

/**
 * A run's shared state, started now on its clock.
 *
 * @example
 * const run = newRun(args, io); run.log.write('warn', 'hello');
 */
export function newRun(args: RunArgs, io: EngineIo, secrets: SecretSources = NO_SECRETS): RunContext {
  const started = io.clock.now();
  const log = new RunLog(io, started, { verbose: args.verbose, redact: redactor(secrets) });
  return { args, io, started, log, outcome: {}, workers: [], inSetup: undefined, stopAsked: undefined, secrets };
}

/** Asks every worker to stop: no new iterations, the running ones interrupted after their graceful stop. */
export function stopWorkers(run: RunContext): void {
  run.stopAsked ??= Date.now();
  for (const w of run.workers) w.postMessage({ t: 'stop' });
}
