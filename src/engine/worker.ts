// A worker thread of the engine: runs its part of the run and posts samples, logs and its state to the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { type ConsoleLevel, vuConsole } from './console.js';
import { scriptFrame } from './script.js';
import { BatchSink } from './transport.js';
import { errorText } from './vu.js';
import { type PartSpec, startPart } from './worker-part.js';

/** Messages the main thread sends. */
export type ToWorker = { t: 'start'; t0: number } | { t: 'stop' };

/** Messages a worker sends besides sample batches. */
export type FromWorker =
  | { t: 'ready' }
  | { t: 'log'; level: 'warn' | 'error' | 'info'; message: string; fields?: Record<string, string> }
  | { t: 'console'; level: ConsoleLevel; line: string }
  | { t: 'insufficient'; scenario: string; executor: string; active: number }
  | { t: 'abort'; message?: string }
  | { t: 'fail'; message?: string }
  | { t: 'state'; active: number; initialized: number; completed: number; interrupted: number }
  | { t: 'done'; completed: number; interrupted: number; initialized: number }
  | { t: 'crash'; message: string }
  /** The first iteration of this worker that ended in an exception, where it was thrown in the script. */
  | { t: 'failure'; message: string; where?: string }
  /** How many of this worker's iterations ended in an exception, sent before 'done'. */
  | { t: 'failures'; count: number }
  /** The first thing a VU of this worker did that no answered exchange counts (a page's content set). */
  | { t: 'acted'; what: string };

const port = parentPort;
if (!port) throw new Error('src/engine/worker.ts runs as a worker thread');
const post = (m: FromWorker) => port.postMessage(m);
const sink = new BatchSink((b, transfer) => port.postMessage(b, transfer));

// The VUs' console (vu.ts hands the script the global one): its lines go over this port, in order, ahead of 'done'.
globalThis.console = vuConsole((level, line) => post({ t: 'console', level, line }));

// A promise a script left unhandled must not end the worker: k6 logs it and goes on.
process.on('unhandledRejection', (e) => post({ t: 'log', level: 'error', message: `Uncaught (in promise) ${errorText(e)}` }));

const failures = { count: 0 };
let acted = false;
const failed = (e: unknown) => {
  if (failures.count++ > 0) return;
  const where = scriptFrame(e);
  post({ t: 'failure', message: e instanceof Error ? e.message : String(e), ...(where ? { where } : {}) });
};

try {
  const part = await startPart(workerData as PartSpec, sink, {
    failed,
    acted: (what) => {
      if (acted) return;
      acted = true;
      post({ t: 'acted', what });
    },
    log: (level, message, fields) => post({ t: 'log', level, message, ...(fields ? { fields } : {}) }),
    insufficient: (scenario, executor, active) => post({ t: 'insufficient', scenario, executor, active }),
    abort: (message) => post({ t: 'abort', ...(message ? { message } : {}) }),
    fail: (message) => post({ t: 'fail', ...(message ? { message } : {}) }),
  });
  // This worker's own counts: the main thread adds up every worker's.
  const s = part.local;
  const state = setInterval(
    () =>
      post({ t: 'state', active: part.peakActive(), initialized: s.vusInitialized, completed: s.iterationsCompleted, interrupted: s.iterationsInterrupted }),
    250,
  );
  port.on('message', (m: ToWorker) => {
    if (m.t === 'start') part.start(m.t0);
    else part.stop();
  });
  await part.ready;
  post({ t: 'state', active: 0, initialized: s.vusInitialized, completed: 0, interrupted: 0 });
  post({ t: 'ready' });
  await part.done;
  clearInterval(state);
  sink.close();
  post({ t: 'failures', count: failures.count });
  post({ t: 'done', completed: s.iterationsCompleted, interrupted: s.iterationsInterrupted, initialized: s.vusInitialized });
} catch (e) {
  sink.close();
  post({ t: 'crash', message: errorText(e) });
}
