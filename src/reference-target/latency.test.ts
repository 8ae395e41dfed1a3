import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChatClient } from '../clients/chat.js';
import { ControlClient } from '../clients/control-client.js';
import { MessagingClient } from '../clients/messaging.js';
import { addLatency, LatencyPlan } from './latency.js';
import { type LatencySpec, parseLatency } from './latency-spec.js';
import { withOp } from './ops.js';
import { type RunningTarget, startTarget } from './server.js';

function spec(text: string): LatencySpec {
  const r = parseLatency(text);
  if ('error' in r) throw new Error(r.error);
  return r.spec;
}

const drawsOf = (plan: LatencyPlan, op: Parameters<LatencyPlan['draw']>[0], n: number) => Array.from({ length: n }, () => plan.draw(op));

describe('a latency plan', () => {
  it('gives the same draws per op for the same seed, and other draws for another seed', () => {
    const a = new LatencyPlan(spec('realistic'), 7);
    const b = new LatencyPlan(spec('realistic'), 7);
    expect(drawsOf(a, 'chat.respond', 50)).toEqual(drawsOf(b, 'chat.respond', 50));
    expect(drawsOf(new LatencyPlan(spec('realistic'), 8), 'chat.respond', 50)).not.toEqual(drawsOf(new LatencyPlan(spec('realistic'), 7), 'chat.respond', 50));
  });

  it("keeps each op's sequence whatever the other ops drew, and gives two ops different sequences", () => {
    const quiet = new LatencyPlan(spec('realistic'), 3);
    const busy = new LatencyPlan(spec('realistic'), 3);
    drawsOf(busy, 'chat.create', 500);
    drawsOf(busy, 'messaging.chunk', 100);
    expect(drawsOf(busy, 'chat.respond', 20)).toEqual(drawsOf(quiet, 'chat.respond', 20));
    const same = new LatencyPlan(spec('chat.create=lognormal:p50=1s,p95=2s;chat.close=lognormal:p50=1s,p95=2s'), 3);
    expect(drawsOf(same, 'chat.create', 5)).not.toEqual(drawsOf(same, 'chat.close', 5));
  });

  it('draws nothing for an op the spec does not name, and falls back to the surface pause there', () => {
    const plan = new LatencyPlan(spec('chat.respond=fixed:2s'));
    expect([plan.draw('chat.respond'), plan.draw('chat.create'), plan.drawOr('messaging.reply', 5), plan.drawOr('chat.respond', 5)]).toEqual([
      2000, 0, 5, 2000,
    ]);
    expect(new LatencyPlan().active).toBe(false);
  });

  it("hands a surface's capacity queue its request ops only, with each one's mean", () => {
    const plan = new LatencyPlan(spec('chat.respond=lognormal:p50=1.5s,p95=4.5s;messaging.reply=fixed:1s'));
    const chat = plan.serviceTimes('chat');
    expect(chat?.('chat.respond')?.meanMs).toBeCloseTo(1875, -1);
    expect(chat?.('chat.create')).toBeUndefined();
    expect(chat?.(undefined)).toBeUndefined();
    // The agent's reply is not queue work (it is spent after the frame was handled), so messaging keeps its fixed queue.
    expect(plan.serviceTimes('messaging')).toBeUndefined();
    expect(plan.serviceTimes('records')).toBeUndefined();
  });

  it('waits a request for its route op draw before the handler, and leaves other routes and queued ops alone', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      const app = Fastify();
      addLatency(app, new LatencyPlan(spec('chat.respond=fixed:200ms;chat.close=fixed:200ms')), (op) => op === 'chat.close');
      const handled: string[] = [];
      app.post('/respond', withOp('chat.respond'), async () => handled.push('respond'));
      app.post('/close', withOp('chat.close'), async () => handled.push('close'));
      app.post('/other', async () => handled.push('other'));
      await app.ready();
      const all = Promise.all(['/respond', '/close', '/other'].map((url) => app.inject({ method: 'POST', url })));
      await vi.advanceTimersByTimeAsync(199);
      expect(handled.sort()).toEqual(['close', 'other']);
      await vi.advanceTimersByTimeAsync(1);
      await all;
      expect(handled).toContain('respond');
      await app.close();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the reference target with a latency spec', () => {
  let target: RunningTarget;
  beforeAll(async () => {
    target = await startTarget({ latency: spec('chat.respond=fixed:400ms;messaging.reply=fixed:400ms'), seed: 5, defects: ['chat-close-success-false'] });
  });
  afterAll(async () => {
    await target.close();
  });

  it('says which latency it runs with in its profile name and on its control surface', async () => {
    expect(target.profile.name).toBe('reference (defects: chat-close-success-false; latency: chat.respond=fixed:400ms;messaging.reply=fixed:400ms)');
    const state = await new ControlClient(target.loaded).call<{ latency: unknown }>('GET', '/state');
    expect(state.latency).toEqual({
      spec: 'chat.respond=fixed:400ms;messaging.reply=fixed:400ms',
      seed: 5,
      ops: { 'chat.respond': 'fixed:400ms', 'messaging.reply': 'fixed:400ms' },
    });
  });

  it('takes at least the drawn time to answer a chat respond', async () => {
    const chat = new ChatClient(target.loaded);
    const created = await chat.create({ channel: 'webchat' });
    const t0 = performance.now();
    const turn = await chat.respond({ conversation_id: created.json?.conversation_id, message: 'What are your opening hours?' });
    expect(turn.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(395);
  });

  it('sends the messaging agent reply at least the drawn time after the message, the receipt before it', async () => {
    const client = new MessagingClient(target.loaded);
    try {
      const socket = await client.open(await client.handshake());
      socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN');
      await socket.waitFor((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED', { what: 'the agent joining' });
      const from = socket.events.length;
      const t0 = performance.now();
      socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: 'Hello there', client_message_id: 'latency-1' });
      const reply = await socket.waitFor((e) => e.type === 'EVENT_TYPE_AGENT_MESSAGE', { what: 'the agent message', from, timeoutMs: 10_000 });
      expect(performance.now() - t0).toBeGreaterThanOrEqual(395);
      const receipt = await socket.waitFor((e) => e.type === 'EVENT_TYPE_DELIVERY_RECEIPT', { what: 'the receipt', from });
      expect(receipt.index).toBeLessThan(reply.index);
    } finally {
      await client.closeAll();
    }
  });
});

describe('the reference target at a known capacity with a latency spec', () => {
  it("keeps one of the surface's workers busy for each request's drawn time", async () => {
    // chat=10 at 300 ms a piece: c = round(10 × 0.3) = 3 workers. Four responds need a fourth turn of a worker, so the
    // last can end no sooner than 600 ms after the first began (the fixed queue, 1 worker at 100 ms, would take 400).
    const target = await startTarget({ capacity: { chat: 10 }, latency: spec('chat.*=fixed:300ms') });
    try {
      const chat = new ChatClient(target.loaded);
      const ids = await Promise.all([1, 2, 3, 4].map(async () => (await chat.create({ channel: 'webchat' })).json?.conversation_id));
      const t0 = performance.now();
      const turns = await Promise.all(ids.map((id) => chat.respond({ conversation_id: id, message: 'Hi' })));
      expect(turns.map((t) => t.status)).toEqual([200, 200, 200, 200]);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(595);
    } finally {
      await target.close();
    }
  });
});
