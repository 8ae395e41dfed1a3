// A known capacity for the reference target: a surface that serves like a queue with c workers, each
// busy for a fixed c/N seconds per request, so the surface handles N requests per second and no more.
// The capacity search (src/capacity) is proved against it. A request and a WebSocket handshake each
// count as one piece of work, and so does a messaging client frame. Voice is counted in calls at once instead
// (`voice=N`: the agent's seats, src/reference-target/voice/seats.ts): a call beyond N has its offer held.
// With a latency spec (`dialtone target --latency`) the service time of a piece of work is drawn from its op's
// distribution instead, and N is the mean throughput (see drawnQueue).
import type { FastifyInstance } from 'fastify';
import { opOf } from './ops.js';

/** Requests per second a surface serves, by surface name (a key of SURFACES). */
export type CapacitySettings = Readonly<Record<string, number>>;

/** A worker's fixed service time is about this long; c = N × this, at least 1, so c/N stays near it. */
const TARGET_SERVICE_SECONDS = 0.05;

/** The number of workers for a capacity of N requests per second. */
export function workersFor(perSecond: number): number {
  return Math.max(1, Math.floor(perSecond * TARGET_SERVICE_SECONDS));
}

/**
 * Parses `SURFACE=N` settings (N requests per second, > 0) against the known surface names.
 * Returns an error text instead of throwing, so each command words its own usage error.
 *
 * @example
 * parseCapacity(['chat=21'], ['chat', 'messaging']) // { settings: { chat: 21 } }
 */
export function parseCapacity(specs: readonly string[], surfaces: readonly string[]): { settings: CapacitySettings } | { error: string } {
  const settings: Record<string, number> = {};
  for (const spec of specs) {
    const m = /^([a-z-]+)=(\d+(?:\.\d+)?)$/.exec(spec);
    if (!m) return { error: `--capacity must look like SURFACE=N (requests per second), got '${spec}'` };
    const [, surface, n] = m as unknown as [string, string, string];
    if (!surfaces.includes(surface)) return { error: `--capacity: unknown surface '${surface}'; known surfaces: ${surfaces.join(', ')}` };
    const perSecond = Number(n);
    if (!(perSecond > 0)) return { error: `--capacity: ${surface} needs a rate above 0, got '${n}'` };
    settings[surface] = perSecond;
  }
  return { settings };
}

/**
 * Waits until one of the surface's workers has served this piece of work (see capacityQueue). `op` names what the work
 * is (src/reference-target/ops.ts) when it is known; with a latency spec its service time is drawn from that op's distribution.
 */
export type Admit = (op?: string) => Promise<void>;

/** How long one op's pieces of work keep a worker: their mean, and one draw (milliseconds). */
export interface ServiceTime {
  readonly meanMs: number;
  draw(): number;
}

/** The service time of an op's work when a latency spec gives one; undefined: the queue's fixed time. */
export type ServiceTimes = (op: string | undefined) => ServiceTime | undefined;

/** The running mean of service times is taken over about this many pieces of work, so a change of mix shows. */
const MEAN_WINDOW = 1000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A c-server queue, first come first served, that serves N calls a second. Without `service`: a deterministic service
 * time, each call waits for one of c workers, which then stays busy c/N seconds, so N calls a second are served and no
 * more. With `service` (a latency spec names some of the surface's ops): see drawnQueue.
 *
 * @example
 * const admit = capacityQueue(21); // 1 worker, 47.6 ms a call: 21 calls per second
 * await admit();
 */
export function capacityQueue(perSecond: number, service?: ServiceTimes): Admit {
  return service ? drawnQueue(perSecond, service) : fixedQueue(perSecond);
}

function fixedQueue(perSecond: number): Admit {
  const workers = workersFor(perSecond);
  const serviceMs = (workers / perSecond) * 1000;
  let free = workers;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return async () => {
    if (free > 0) free--;
    else await new Promise<void>((take) => waiting.push(take));
    await new Promise((r) => setTimeout(r, serviceMs));
    release();
  };
}

/**
 * The queue with drawn service times: each piece of work keeps a worker for a time drawn from its op's distribution
 * (work of an op without one: the fixed queue's c/N). The number of workers follows the mean service time m of the
 * work seen so far (over about MEAN_WINDOW pieces, so the mix of ops counts): c = max(1, round(N × m)), and every draw
 * is stretched by c / (N × m), which rounding leaves within a few % of 1 once N × m is 10 or more, so that c workers
 * serve exactly N calls a second on average. N is then a mean throughput: draws above the mean hold a worker longer,
 * and a burst of them queues work that a fixed service time would not.
 *
 * @example
 * const admit = drawnQueue(20, () => ({ meanMs: 1875, draw: () => sample(AGENT_TURN, rng) })); // 38 workers
 */
export function drawnQueue(perSecond: number, service: ServiceTimes): Admit {
  const fixedMs = (workersFor(perSecond) / perSecond) * 1000;
  let meanMs = fixedMs;
  let seen = 0;
  let busy = 0;
  const waiting: (() => void)[] = [];
  const workers = () => Math.max(1, Math.round((perSecond * meanMs) / 1000));
  // Starts waiting work while workers are free; c may have grown since a worker was last taken.
  const pump = () => {
    while (busy < workers() && waiting.length > 0) {
      busy++;
      waiting.shift()?.();
    }
  };
  return async (op) => {
    const time = service(op);
    seen = Math.min(seen + 1, MEAN_WINDOW);
    meanMs += ((time?.meanMs ?? fixedMs) - meanMs) / seen;
    // Drawn on arrival, so each op's stream is drawn in arrival order whatever the queue does.
    const ms = ((time ? time.draw() : fixedMs) * workers()) / ((perSecond * meanMs) / 1000);
    pump();
    if (busy < workers() && waiting.length === 0) busy++;
    else await new Promise<void>((take) => waiting.push(take));
    await sleep(ms);
    busy--;
    pump();
  };
}

/**
 * Makes every request of `app` pass the queue first, named by its route's op (src/reference-target/ops.ts).
 *
 * @example
 * queueAtCapacity(scope, capacityQueue(21));
 */
export function queueAtCapacity(app: FastifyInstance, admit: Admit): void {
  app.addHook('onRequest', (req) => admit(opOf(req)));
}

/**
 * Registers a surface's routes on its host's app, behind the capacity queue when it has a setting.
 * The queue lives in an encapsulated fastify context, so surfaces sharing the host are not slowed.
 * The surface gets the queue too: work that is not a fastify request (a WebSocket handshake, a
 * messaging client frame) must pass it as well, or a socket surface would have no known capacity. `service`: the
 * service times a latency spec gives the surface's ops (LatencyPlan.serviceTimes), if any.
 */
export function registerAtCapacity(
  app: FastifyInstance,
  register: (scope: FastifyInstance, admit?: Admit) => void,
  perSecond: number | undefined,
  service?: ServiceTimes,
): void {
  if (perSecond === undefined) {
    register(app);
    return;
  }
  const admit = capacityQueue(perSecond, service);
  app.register(async (scope) => {
    queueAtCapacity(scope, admit);
    register(scope, admit);
  });
}
