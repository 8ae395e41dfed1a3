import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { capacityQueue, parseCapacity, queueAtCapacity, workersFor } from './capacity.js';

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
});
