// A known capacity for the reference target: a surface that serves like a queue with c workers, each
// busy for a fixed c/N seconds per request, so the surface handles N requests per second and no more.
// The capacity search (src/capacity) is proved against it. A request and a WebSocket handshake each
// count as one piece of work, and so does a messaging client frame (voice frames are not queued).
import type { FastifyInstance } from 'fastify';

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

/** Waits until one of the surface's workers has served this piece of work (see capacityQueue). */
export type Admit = () => Promise<void>;

/**
 * A c-server queue with a deterministic service time, first come first served: each call waits for
 * one of c workers, which then stays busy c/N seconds, so N calls a second are served and no more.
 *
 * @example
 * const admit = capacityQueue(21); // 1 worker, 47.6 ms a call: 21 calls per second
 * await admit();
 */
export function capacityQueue(perSecond: number): Admit {
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
 * Makes every request of `app` pass the queue first.
 *
 * @example
 * queueAtCapacity(scope, capacityQueue(21));
 */
export function queueAtCapacity(app: FastifyInstance, admit: Admit): void {
  app.addHook('onRequest', admit);
}

/**
 * Registers a surface's routes on its host's app, behind the capacity queue when it has a setting.
 * The queue lives in an encapsulated fastify context, so surfaces sharing the host are not slowed.
 * The surface gets the queue too: work that is not a fastify request (a WebSocket handshake, a
 * messaging client frame) must pass it as well, or a socket surface would have no known capacity.
 */
export function registerAtCapacity(app: FastifyInstance, register: (scope: FastifyInstance, admit?: Admit) => void, perSecond: number | undefined): void {
  if (perSecond === undefined) {
    register(app);
    return;
  }
  const admit = capacityQueue(perSecond);
  app.register(async (scope) => {
    queueAtCapacity(scope, admit);
    register(scope, admit);
  });
}
