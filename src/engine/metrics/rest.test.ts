import { afterEach, describe, expect, it } from 'vitest';
import { parseAddress, type RestApi, startRestApi } from './rest.js';
import { MetricStore } from './store.js';
import { parseThresholds } from './thresholds.js';

let api: RestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function serve() {
  let now = 0;
  const store = new MetricStore({ thresholds: parseThresholds({ 'http_req_duration{op:x}': ['p(95)<1'] }), now: () => now });
  store.declare({ name: 'iterations', type: 'counter', contains: 'default' });
  store.declare({ name: 'http_req_duration', type: 'trend', contains: 'time' });
  store.declare({ name: 'vus', type: 'gauge', contains: 'default' });
  for (let i = 0; i < 6; i++) store.emit('iterations', 1, {});
  store.emit('http_req_duration', 20, { op: 'x' });
  now = 3000;
  api = await startRestApi({
    address: '127.0.0.1:0',
    store,
    status: () => ({ status: 7, vus: 3, vusMax: 10, stopped: false, running: true }),
  });
  const get = async (path: string) => {
    const res = await fetch(`http://127.0.0.1:${api?.port}${path}`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { store, get };
}

describe('parseAddress', () => {
  it('reads host:port, [v6]:port and :port (127.0.0.1)', () => {
    expect(parseAddress('127.0.0.1:6565')).toEqual({ host: '127.0.0.1', port: 6565 });
    expect(parseAddress('[::1]:6565')).toEqual({ host: '::1', port: 6565 });
    expect(parseAddress(':6565')).toEqual({ host: '127.0.0.1', port: 6565 });
    expect(() => parseAddress('6565')).toThrow(/host:port/);
  });
});

describe('REST API', () => {
  it('answers GET /v1/metrics/iterations in the shape dialtone reads while k6 runs (data.attributes.sample.count)', async () => {
    const { get } = await serve();
    const { status, body } = await get('/v1/metrics/iterations');
    expect(status).toBe(200);
    expect(body).toEqual({
      data: { type: 'metrics', id: 'iterations', attributes: { type: 'counter', contains: 'default', tainted: null, sample: { count: 6, rate: 2 } } },
    });
  });

  it('gives a trend its summary keys and a sub-metric under its URL-encoded key, tainted once judged failed', async () => {
    const { store, get } = await serve();
    store.judge();
    const { body } = await get(`/v1/metrics/${encodeURIComponent('http_req_duration{op:x}')}`);
    const attrs = (body.data as { attributes: Record<string, unknown> }).attributes;
    expect(attrs.sample).toEqual({ avg: 20, min: 20, med: 20, max: 20, 'p(90)': 20, 'p(95)': 20 });
    expect(attrs.tainted).toBe(true);
  });

  it('lists the metrics that have samples or thresholds', async () => {
    const { get } = await serve();
    const ids = ((await get('/v1/metrics')).body.data as { id: string }[]).map((m) => m.id);
    expect(ids).toEqual(['iterations', 'http_req_duration', 'http_req_duration{op:x}']);
  });

  it('answers GET /v1/status from the status callback, in k6 attribute names', async () => {
    const { get } = await serve();
    expect((await get('/v1/status')).body).toEqual({
      data: {
        type: 'status',
        id: 'default',
        attributes: { status: 7, paused: false, vus: 3, 'vus-max': 10, stopped: false, running: true, tainted: false },
      },
    });
  });

  it('answers 404 for an unknown metric or path and 405 for other methods', async () => {
    const { get } = await serve();
    expect((await get('/v1/metrics/nope')).status).toBe(404);
    expect((await get('/v2/else')).status).toBe(404);
    const res = await fetch(`http://127.0.0.1:${api?.port}/v1/status`, { method: 'PATCH', body: '{}' });
    expect(res.status).toBe(405);
  });

  it('refuses to start on an address already in use', async () => {
    await serve();
    await expect(
      startRestApi({
        address: `127.0.0.1:${api?.port}`,
        store: new MetricStore(),
        status: () => ({ status: 0, vus: 0, vusMax: 0, stopped: false, running: false }),
      }),
    ).rejects.toThrow(/EADDRINUSE/);
  });
});
