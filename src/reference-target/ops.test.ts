import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { bareContext } from './bare-context.js';
import { OP_NAMES, OPS, type Op, type RouteOp } from './ops.js';
import { SURFACES } from './surfaces.js';

/** The ops each surface's routes name, read from the routes themselves (fastify's onRoute hook). */
async function routeOps(): Promise<Map<Op, string>> {
  const ctx = bareContext();
  const found = new Map<Op, string>();
  for (const [name, surface] of Object.entries(SURFACES)) {
    const app = Fastify({ logger: false });
    app.addHook('onRoute', (r) => {
      const op = (r.config as { op?: RouteOp } | undefined)?.op;
      if (typeof op === 'string') found.set(op, name);
      // A route that serves several ops (chat's `:op`) is asked for each op's last segment.
      else if (op) for (const o of OP_NAMES) if (op({ params: { op: o.slice(o.indexOf('.') + 1) } } as unknown as FastifyRequest) === o) found.set(o, name);
    });
    const instance = surface.create(ctx);
    instance.register(app);
    await app.ready();
    await instance.close?.();
    await app.close();
  }
  return found;
}

describe('the ops a latency spec names', () => {
  it('are each served by a route of their own surface when they are spent before a request, and by no route otherwise', async () => {
    const found = await routeOps();
    for (const op of OP_NAMES) {
      if (OPS[op].at === 'request') expect(found.get(op), op).toBe(OPS[op].surface);
      else expect(found.has(op), op).toBe(false);
    }
  });

  it('belong to surfaces that --capacity knows', () => {
    for (const op of OP_NAMES) expect(Object.keys(SURFACES), op).toContain(OPS[op].surface);
  });
});
