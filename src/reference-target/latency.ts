import type { FastifyInstance } from 'fastify';
import { WAIT_DEFAULTS } from '../profile/schema.js';
import type { ServiceTimes } from './capacity.js';
import { type Distribution, meanOf, sample } from './distribution.js';
import { SeededRandom } from './ids.js';
import { describeLatency, type LatencySpec, NO_LATENCY } from './latency-spec.js';
import { isOp, OPS, type Op, opOf } from './ops.js';

/** The variable that slows the reference target down on purpose: milliseconds added before every answer. */
export const DELAY_ENV = 'DIALTONE_TARGET_DELAY_MS';

/** DIALTONE_TARGET_DELAY_MS as a number of ms; 0 when unset or not a positive number. */
function plantedDelay(env: NodeJS.ProcessEnv): number {
  const ms = Number(env[DELAY_ENV] ?? 0);
  return Number.isFinite(ms) && ms > 0 ? ms : 0;
}

/** The most requests a conformance case sends one after another (31 today), and some. */
const REQUESTS_IN_TURN = 40;

/**
 * The case bound a profile of this target names (`waits.case_ms`) when its answers are slowed on purpose: the default
 * and the planted delay of every request a case sends in turn; undefined when nothing is planted.
 *
 * @example
 * caseWaitFor({ DIALTONE_TARGET_DELAY_MS: '1200' }) // 78000
 */
export function caseWaitFor(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const ms = plantedDelay(env);
  return ms === 0 ? undefined : WAIT_DEFAULTS.case_ms + REQUESTS_IN_TURN * ms;
}

/**
 * Adds DIALTONE_TARGET_DELAY_MS milliseconds before each request is handled: a planted slowdown, so a
 * nightly regression verdict can be shown to catch one. It breaks no documented rule, so it is a knob,
 * not a defect. Unset or 0: nothing is added. It adds to whatever a latency spec draws.
 *
 * @example
 * DIALTONE_TARGET_DELAY_MS=20 npx dialtone load chat-turns   // every chat call about 20 ms slower
 */
export function addPlantedDelay(app: FastifyInstance, env: NodeJS.ProcessEnv = process.env): void {
  const ms = plantedDelay(env);
  if (ms === 0) return;
  app.addHook('onRequest', (_req, _reply, done) => {
    setTimeout(done, ms);
  });
}

/** FNV-1a of an op name: the op's own stream seed, so streams do not depend on which other ops a spec names. */
function hashOp(op: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < op.length; i++) h = Math.imul(h ^ op.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * A latency spec at work in one target: one seeded stream per op, so the same seed gives every op the same sequence of
 * draws, and load on one op never shifts another's sequence.
 *
 * @example
 * const plan = new LatencyPlan(parseLatency('realistic').spec, 7);
 * plan.draw('chat.respond'); // the first respond's think time, the same for every target started with seed 7
 */
export class LatencyPlan {
  readonly #streams = new Map<Op, SeededRandom>();

  constructor(
    readonly spec: LatencySpec = NO_LATENCY,
    readonly seed = 1,
  ) {}

  /** Whether any op takes a drawn time. */
  get active(): boolean {
    return this.spec.ops.size > 0;
  }

  has(op: Op): boolean {
    return this.spec.ops.has(op);
  }

  distribution(op: Op): Distribution | undefined {
    return this.spec.ops.get(op);
  }

  /** The op's next time in milliseconds, from its own stream; 0 when the spec does not name it. */
  draw(op: Op): number {
    const d = this.spec.ops.get(op);
    if (!d) return 0;
    let stream = this.#streams.get(op);
    if (!stream) {
      stream = new SeededRandom((hashOp(op) ^ Math.imul(this.seed, 0x9e3779b1)) >>> 0);
      this.#streams.set(op, stream);
    }
    return sample(d, stream);
  }

  /** The op's next time when the spec names it, else `fallbackMs` (a surface's own pause, e.g. messaging's reply_delay_ms). */
  drawOr(op: Op, fallbackMs: number): number {
    return this.has(op) ? this.draw(op) : fallbackMs;
  }

  /**
   * The service times of a surface's request ops for its capacity queue; undefined when the spec names none of them,
   * so the queue keeps its fixed service time.
   */
  serviceTimes(surface: string): ServiceTimes | undefined {
    const queued = (op: string | undefined): op is Op => op !== undefined && isOp(op) && OPS[op].surface === surface && OPS[op].at === 'request';
    if (![...this.spec.ops.keys()].some(queued)) return undefined;
    return (op) => {
      if (!queued(op)) return undefined;
      const d = this.spec.ops.get(op);
      return d ? { meanMs: meanOf(d), draw: () => this.draw(op) } : undefined;
    };
  }

  /** What the control surface reports: the spec as given, each op's distribution, the seed of the streams. */
  describe(): { spec: string; seed: number; ops: Record<string, string> } {
    return { spec: this.spec.text, seed: this.seed, ops: describeLatency(this.spec) };
  }
}

const DRAWN = new WeakMap<object, number>();

/**
 * How long a request waited for its op's drawn latency before its handler ran (0 without one): the user's input of a
 * turn came that long before the handler saw it, so the record's `latency` is the time the agent took.
 *
 * @example
 * const userAt = ctx.clock.now() - drawnDelayMs(reply.request);
 */
export function drawnDelayMs(req: object): number {
  return DRAWN.get(req) ?? 0;
}

/**
 * Waits each request of `app` whose route names an op (src/reference-target/ops.ts) for a draw of that op, before its handler.
 * `queued(op)`: the op's surface has a capacity queue, which spends the drawn time in a worker instead.
 *
 * @example
 * addLatency(app, plan, (op) => capacity[OPS[op].surface] !== undefined);
 */
export function addLatency(app: FastifyInstance, plan: LatencyPlan, queued: (op: Op) => boolean): void {
  if (!plan.active) return;
  app.addHook('onRequest', (req, _reply, done) => {
    const op = opOf(req);
    const ms = op === undefined || queued(op) ? 0 : plan.draw(op);
    if (ms > 0) {
      DRAWN.set(req, ms);
      setTimeout(done, ms);
    } else done();
  });
}
