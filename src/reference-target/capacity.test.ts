import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { type Admit, capacityQueue, parseCapacity, queueAtCapacity, type ServiceTimes, workersFor } from './capacity.js';
import { type Distribution, meanOf, sample } from './distribution.js';
import { SeededRandom } from './ids.js';

/** Service times of one op `a` drawn from `d` (seeded); any other op has none. */
function drawnFrom(d: Distribution): ServiceTimes {
  const rng = new SeededRandom(11);
  return (op) => (op === 'a' ? { meanMs: meanOf(d), draw: () => sample(d, rng) } : undefined);
}

/** Offers `ops.length` pieces of work at once and counts those served after each of `at` (fake) milliseconds. */
async function servedBy(admit: Admit, ops: readonly (string | undefined)[], at: readonly number[]): Promise<number[]> {
  let served = 0;
  const all = Promise.all(ops.map((op) => admit(op).then(() => served++)));
  const counts: number[] = [];
  let now = 0;
  for (const t of at) {
    await vi.advanceTimersByTimeAsync(t - now);
    now = t;
    counts.push(served);
  }
  await vi.runAllTimersAsync();
  await all;
  return counts;
}

describe('a surface at a known capacity', () => {
  it('parses SURFACE=N settings and refuses bad ones with the reason', () => {
    expect(parseCapacity(['chat=21', 'records=7.5'], ['chat', 'records'])).toEqual({ settings: { chat: 21, records: 7.5 } });
    expect(parseCapacity(['chat'], ['chat'])).toEqual({ error: "--capacity must look like SURFACE=N (requests per second), got 'chat'" });
    expect(parseCapacity(['voice=3'], ['chat'])).toEqual({ error: "--capacity: unknown surface 'voice'; known surfaces: chat" });
    expect(parseCapacity(['chat=0'], ['chat'])).toEqual({ error: "--capacity: chat needs a rate above 0, got '0'" });
  });

  it('keeps the service time near 50 ms with one worker per 20 requests a second', () => {
    expect(workersFor(10)).toBe(1);
    expect(workersFor(40)).toBe(2);
    expect(workersFor(400)).toBe(20);
  });

  it('serves one request per service time with one worker, in arrival order, the rest waiting', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const app = Fastify();
      const order: number[] = [];
      queueAtCapacity(app, capacityQueue(20)); // 1 worker, 50 ms a request
      app.get('/:n', async (req) => {
        order.push(Number((req.params as { n: string }).n));
        return {};
      });
      await app.ready();
      const all = Promise.all([1, 2, 3, 4].map((n) => app.inject({ method: 'GET', url: `/${n}` })));
      await vi.advanceTimersByTimeAsync(49);
      expect(order).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(order).toEqual([1]);
      await vi.advanceTimersByTimeAsync(100);
      expect(order).toEqual([1, 2, 3]);
      await vi.advanceTimersByTimeAsync(50);
      await all;
      expect(order).toEqual([1, 2, 3, 4]);
      await app.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('with a latency distribution, keeps round(N × mean) workers busy for drawn times and serves about N a second on average', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      // lognormal p50 100 ms, p95 300 ms: mean 125 ms, so 40 a second takes 5 workers.
      const d: Distribution = { kind: 'lognormal', p50: 100, p95: 300 };
      expect(Math.round(40 * (meanOf(d) / 1000))).toBe(5);
      const [first, half] = await servedBy(capacityQueue(40, drawnFrom(d)), Array(4000).fill('a'), [1, 50_000]);
      expect(first).toBe(0);
      // 50 s at 40 a second: 2000, within 5 % (10,000 seeded draws' worth of spread is well inside that).
      expect(Math.abs((half as number) / 2000 - 1)).toBeLessThan(0.05);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stretches each draw when N × mean is not a whole number of workers, so N still holds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      // 3 a second at 200 ms a piece is 0.6 of a worker: one worker, each piece stretched to 333 ms.
      const [served] = await servedBy(capacityQueue(3, drawnFrom({ kind: 'fixed', ms: 200 })), Array(40).fill('a'), [10_010]);
      expect(served).toBe(30);
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows the mix of ops: work of an op without a distribution keeps the fixed service time, and N holds over both', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      // Half the work at 450 ms, half at the fixed 50 ms of 20 a second: mean 250 ms, 5 workers, 20 a second.
      const ops = Array.from({ length: 2000 }, (_, i) => (i % 2 ? 'a' : undefined));
      const [half] = await servedBy(capacityQueue(20, drawnFrom({ kind: 'fixed', ms: 450 })), ops, [50_000]);
      expect(Math.abs((half as number) / 1000 - 1)).toBeLessThan(0.05);
    } finally {
      vi.useRealTimers();
    }
  });
});
