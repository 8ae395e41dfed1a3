// The bookkeeping every network output shares (Prometheus remote write, InfluxDB, OpenTelemetry): how many samples it
// sent, how many it dropped and the last error, so a server that cannot be reached never loses the run. k6 logs an
// output's failed push and keeps going (/results-output/real-time/); so does this, and the run's end says the totals.

import { parseDuration } from '../../../core/duration.js';

/** What a network output is given besides its argument and the store: the environment it reads its K6_* variables from. */
export interface NetworkOutputContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** One log line of the run (warn or error); never given a secret. */
  readonly log: (level: 'warn' | 'error', message: string) => void;
}

/** A network output's totals at the run's end. */
export interface DeliveryReport {
  /** The output's name as `--out` gives it, e.g. `experimental-prometheus-rw`. */
  readonly output: string;
  /** Where it sends, credentials left out. */
  readonly where: string;
  readonly sent: number;
  readonly dropped: number;
  readonly lastError?: string | undefined;
}

/** An open network output: an `Output` that also reports what it delivered. */
export interface NetworkOutput {
  ready(): Promise<void>;
  close(): Promise<void>;
  delivery(): DeliveryReport;
}

/** How long one request may take before its samples count as dropped, so a server that hangs cannot hang the run's end. */
export const REQUEST_TIMEOUT_MS = 10_000;

/**
 * A URL as a log line may show it: no user or password, no query (a token may ride in one).
 *
 * @example
 * safeUrl('http://u:p@db:8086/write?db=k6&p=secret'); // 'http://db:8086/write'
 */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(an unreadable URL)';
  }
}

/**
 * Counts a network output's samples sent and dropped. `send` never throws: a failed push is counted, logged the first
 * time its error is seen (k6 logs each; one line per distinct error keeps a 30-minute run's log readable), and the
 * run goes on. `close` waits for pushes in flight, each bounded by its own timeout.
 *
 * @example
 * const d = new Delivery('influxdb', 'http://127.0.0.1:8086/write', ctx.log);
 * await d.send(lines.length, () => post(body));
 * d.report(); // { output: 'influxdb', where: …, sent: 120, dropped: 0 }
 */
export class Delivery {
  private sent = 0;
  private dropped = 0;
  private lastError: string | undefined;
  private readonly seenErrors = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    readonly output: string,
    readonly where: string,
    private readonly log: NetworkOutputContext['log'],
  ) {}

  /** Runs one push of `samples` samples; counts them sent when it resolves, dropped when it rejects. */
  send(samples: number, push: () => Promise<void>): Promise<void> {
    const p = push().then(
      () => {
        this.sent += samples;
      },
      (e: unknown) => this.fail(samples, e),
    );
    this.inFlight.add(p);
    return p.finally(() => this.inFlight.delete(p));
  }

  /** Counts samples dropped without a push (e.g. the output could not even build its request). */
  fail(samples: number, e: unknown): void {
    this.dropped += samples;
    const message = errorText(e);
    this.lastError = message;
    if (this.seenErrors.has(message)) return;
    this.seenErrors.add(message);
    this.log('error', `output ${this.output} (${this.where}): ${samples} sample(s) dropped: ${message}; the run goes on`);
  }

  /** Waits for every push still in flight. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  report(): DeliveryReport {
    return { output: this.output, where: this.where, sent: this.sent, dropped: this.dropped, lastError: this.lastError };
  }
}

/** The text of a failed push: an HTTP status with the first line of its body, or the network error's cause. */
function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as Error & { cause?: unknown }).cause;
  const why = cause instanceof Error ? `: ${(cause as Error & { code?: string }).code ?? cause.message}` : '';
  return `${e.message}${why}`.split('\n')[0] as string;
}

/**
 * The run's end line for an output that dropped samples, undefined for one that dropped none.
 *
 * @example
 * droppedLine({ output: 'influxdb', where: 'http://db:8086/write', sent: 0, dropped: 812, lastError: 'fetch failed: ECONNREFUSED' });
 * // 'output influxdb (http://db:8086/write) dropped 812 of 812 samples; last error: fetch failed: ECONNREFUSED'
 */
export function droppedLine(r: DeliveryReport): string | undefined {
  if (r.dropped === 0) return undefined;
  return `output ${r.output} (${r.where}) dropped ${r.dropped} of ${r.sent + r.dropped} samples; last error: ${r.lastError ?? 'none recorded'}`;
}

/**
 * Calls `flush` every `intervalMs` until stopped; a flush still running when the next is due is not doubled (the
 * next waits for its turn). The timer never keeps the process alive.
 *
 * @example
 * const ticker = new Ticker(5000, () => flushNow());
 * await ticker.stop(); // one last flush, then no more
 */
export class Ticker {
  private running: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs: number, flush: () => Promise<void>) {
    this.flush = flush;
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  private readonly flush: () => Promise<void>;

  private tick(): Promise<void> {
    this.running = this.running.then(this.flush, this.flush);
    return this.running;
  }

  /** Stops the timer and runs one last flush after any still running. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.tick();
  }
}

/** Go's strconv.ParseBool words, which k6 reads its boolean variables with. */
const BOOLS: Readonly<Record<string, boolean>> = {
  1: true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  0: false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/**
 * A boolean K6_* variable, its default when unset, or a one-line error naming it.
 *
 * @example
 * envBool({ K6_PROMETHEUS_RW_STALE_MARKERS: 'true' }, 'K6_PROMETHEUS_RW_STALE_MARKERS', false); // true
 */
export function envBool(env: NetworkOutputContext['env'], name: string, fallback: boolean): boolean {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const b = BOOLS[v.trim()];
  if (b === undefined) throw new Error(`${name}=${v}: give true or false`);
  return b;
}

/**
 * A duration K6_* variable in milliseconds (k6's duration text, e.g. 5s or 500ms), its default when unset, or a
 * one-line error naming it.
 *
 * @example
 * envDuration({ K6_INFLUXDB_PUSH_INTERVAL: '2s' }, 'K6_INFLUXDB_PUSH_INTERVAL', 1000); // 2000
 */
export function envDuration(env: NetworkOutputContext['env'], name: string, fallbackMs: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallbackMs;
  let ms: number;
  try {
    ms = parseDuration(v);
  } catch {
    throw new Error(`${name}=${v}: give a duration such as 5s or 500ms`);
  }
  if (!(ms > 0)) throw new Error(`${name}=${v}: give a duration above zero`);
  return ms;
}
