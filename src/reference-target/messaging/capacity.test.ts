import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagingClient } from '../../clients/messaging.js';
import { type RunningTarget, startTarget } from '../server.js';

// At a known capacity the socket work waits in the surface's queue like a request does, or a messaging session (a
// dozen handshakes and a few frames for one HTTP request) would have no known capacity at all.

describe('the messaging surface at a known capacity', () => {
  let target: RunningTarget;
  let client: MessagingClient;
  beforeAll(async () => {
    // One worker, 500 ms a piece of work: two handshakes can never finish in the same half second.
    target = await startTarget({ capacity: { messaging: 2 } });
    client = new MessagingClient(target.loaded);
  });
  afterAll(async () => {
    await client.closeAll();
    await target.close();
  });

  it('lets WebSocket handshakes through one worker at a time', async () => {
    const h = await client.handshake();
    let opened = 0;
    const all = Promise.all([0, 1, 2].map(() => client.open(h).then(() => opened++)));
    while (opened === 0) await new Promise((r) => setTimeout(r, 10));
    // 100 ms after the first opened, the others still wait for the worker (busy 500 ms a handshake).
    await new Promise((r) => setTimeout(r, 100));
    expect(opened).toBe(1);
    await all;
    expect(opened).toBe(3);
  });

  it('queues client frames too, behind the handshake that came first', async () => {
    const h = await client.handshake();
    const socket = await client.open(h);
    const order: string[] = [];
    // A handshake reaches the queue first; the join request sent 100 ms later waits behind it.
    const second = client.open(h).then(() => order.push('second socket open'));
    await new Promise((r) => setTimeout(r, 100));
    const from = socket.events.length;
    socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN');
    const joined = socket
      .waitFor((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED', { what: 'the agent joined', from, timeoutMs: 5000 })
      .then(() => order.push('agent joined'));
    await Promise.all([second, joined]);
    expect(order).toEqual(['second socket open', 'agent joined']);
  });
});
