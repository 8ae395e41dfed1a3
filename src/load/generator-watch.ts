import type { ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { durationSeconds } from '../core/duration.js';
import { machineTicks, TICKS_PER_SECOND, treeTicks } from './proc.js';

/** How often the generator's CPU is read while k6 runs. */
const SAMPLE_MS = 1_000;

/** What k6 said about the scenario it runs, read from its header line (`* chat: 5.00 iterations/s for 15s (maxVUs: 5-30, …)`). */
export interface AskedLoad {
  /** Iterations per second asked (the peak, for a ramp); undefined for a VU-based executor. */
  readonly rate: number | undefined;
  /** `constant` or `ramping` arrival rate, or `vus` (looping VUs, no arrival rate). */
  readonly kind: 'constant' | 'ramping' | 'vus';
  /** Seconds the executor schedules iterations (without graceful stop); undefined when k6 did not say. */
  readonly seconds: number | undefined;
  readonly maxVUs: number | undefined;
}

/** What was seen of the load generator (the k6 process and its children, e.g. Chromium) during one run. */
export interface GeneratorReport {
  readonly asked: AskedLoad | undefined;
  /** The VU count of k6's "Insufficient VUs, reached N active VUs" warning, when it came. */
  readonly insufficientVUs: number | undefined;
  /** CPU of the generator per sample second, in cores (1 = one core busy for the whole second). */
  readonly cpuCores: readonly number[];
  /** Share of the machine's CPU time that was busy (every process, the target included) per sample second. */
  readonly machineBusy: readonly number[];
  /** Cores the generator may use. */
  readonly cores: number;
}

/**
 * The load k6 says it will ask for, from its scenario line; undefined for a line that is not one.
 *
 * @example
 * askedLoad('  * chat: 5.00 iterations/s for 15s (maxVUs: 5-30, gracefulStop: 5s)');
 * // { rate: 5, kind: 'constant', seconds: 15, maxVUs: 30 }
 */
export function askedLoad(line: string): AskedLoad | undefined {
  const m = /^\s*\* [\w-]+: (.*)$/.exec(line);
  if (!m) return undefined;
  const text = m[1] as string;
  const vus = /maxVUs: (\d+)(?:-(\d+))?/.exec(text);
  const maxVUs = vus ? Number(vus[2] ?? vus[1]) : undefined;
  const constant = /^([\d.]+) iterations\/s for (\S+) /.exec(text);
  if (constant) return { rate: Number(constant[1]), kind: 'constant', seconds: durationSeconds(constant[2] as string), maxVUs };
  const ramp = /^Up to ([\d.]+) iterations\/s for (\S+) /.exec(text);
  if (ramp) return { rate: Number(ramp[1]), kind: 'ramping', seconds: durationSeconds(ramp[2] as string), maxVUs };
  const looping = /^(?:Up to )?(\d+) looping VUs for (\S+)/.exec(text);
  if (looping) return { rate: undefined, kind: 'vus', seconds: durationSeconds(looping[2] as string), maxVUs: Number(looping[1]) };
  return undefined;
}

const INSUFFICIENT = /Insufficient VUs, reached (\d+) active VUs/;

/**
 * Watches a running k6: its CPU (and that of its children) every second from /proc, the machine's CPU, the scenario line
 * of its header and the "Insufficient VUs" warning. A child's time stays counted after it ends (its parent reaps it into
 * cutime); only one reparented away from the tree is lost. The sampling is cheap (a few small /proc reads a second).
 *
 * @example
 * const watch = new GeneratorWatch();
 * watch.attach(spawn(k6, ['run', script]));
 * // … once k6 exited:
 * const report = watch.stop();
 */
export class GeneratorWatch {
  #asked: AskedLoad | undefined;
  #insufficient: number | undefined;
  #tail = '';
  readonly #cpu: number[] = [];
  readonly #busy: number[] = [];
  #timer: NodeJS.Timeout | undefined;
  readonly #cores = availableParallelism();

  /** Starts sampling the child and reading its output. */
  attach(child: ChildProcess): void {
    child.stdout?.on('data', (c: Buffer) => this.see(c.toString('utf8')));
    child.stderr?.on('data', (c: Buffer) => this.see(c.toString('utf8')));
    const pid = child.pid;
    if (pid === undefined) return;
    const seen = { total: 0 };
    let total = 0;
    let machine = machineTicks();
    let at = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const seconds = (now - at) / 1000;
      const ticks = treeTicks(pid, seen);
      const used = ticks - total;
      total = ticks;
      const m = machineTicks();
      if (seconds > 0) {
        // Never more than the machine has: time that moves between processes as they end and are reaped (Chromium's
        // helpers, some reparented) can land in one sample.
        this.#cpu.push(Math.min(this.#cores, used / TICKS_PER_SECOND / seconds));
        if (m.total > machine.total) this.#busy.push((m.busy - machine.busy) / (m.total - machine.total));
      }
      machine = m;
      at = now;
    }, SAMPLE_MS);
    this.#timer.unref();
    child.once('exit', () => this.#halt());
  }

  /** Reads one chunk of k6's output (lines may be split across chunks). */
  see(text: string): void {
    const lines = (this.#tail + text).split('\n');
    this.#tail = lines.pop() ?? '';
    for (const line of lines) {
      this.#asked ??= askedLoad(line);
      const m = INSUFFICIENT.exec(line);
      if (m) this.#insufficient = Number(m[1]);
    }
  }

  #halt(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Stops sampling and returns what was seen. */
  stop(): GeneratorReport {
    this.#halt();
    this.see('\n');
    return { asked: this.#asked, insufficientVUs: this.#insufficient, cpuCores: [...this.#cpu], machineBusy: [...this.#busy], cores: this.#cores };
  }
}
