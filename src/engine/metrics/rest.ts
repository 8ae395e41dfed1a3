// The part of k6's REST API (`--address host:port`, /misc/k6-rest-api/) that dialtone reads while a run goes on:
// the metrics' current figures and the run's status, in k6's JSON:API shapes.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_TREND_STATS, summaryKeys, summaryValues } from './sink.js';
import type { MetricEntry, MetricStore } from './store.js';

/** What /v1/status reports, from the engine. */
export interface RunStatus {
  /** k6's execution status number (e.g. running, ended). */
  readonly status: number;
  readonly paused?: boolean;
  readonly vus: number;
  readonly vusMax: number;
  readonly stopped: boolean;
  readonly running: boolean;
  /** Whether a threshold failed; default: from the store's last verdicts. */
  readonly tainted?: boolean;
}

export interface RestApiOptions {
  /** `host:port` as given to --address; an empty host means 127.0.0.1; port 0 takes a free one. */
  readonly address: string;
  readonly store: MetricStore;
  readonly status: () => RunStatus;
  readonly summaryTrendStats?: readonly string[];
}

/** A listening REST API. */
export interface RestApi {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Splits `host:port` (`[::1]:6565`, `:6565`).
 *
 * @example
 * parseAddress('127.0.0.1:6565'); // { host: '127.0.0.1', port: 6565 }
 */
export function parseAddress(address: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]*)\]|([^:]*)):(\d{1,5})$/.exec(address.trim());
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65535) throw new Error(`--address ${address}: want host:port, e.g. 127.0.0.1:6565`);
  return { host: m[1] ?? (m[2] || '127.0.0.1'), port };
}

/**
 * Starts the REST API: GET /v1/status, GET /v1/metrics and GET /v1/metrics/<name> (a sub-metric by its key,
 * URL-encoded). Rejects when the address cannot be bound (k6 exits 106 then).
 *
 * @example
 * const api = await startRestApi({ address: '127.0.0.1:6565', store, status: () => engine.status() });
 * await api.close();
 */
export async function startRestApi(options: RestApiOptions): Promise<RestApi> {
  const { host, port } = parseAddress(options.address);
  const stats = options.summaryTrendStats ?? DEFAULT_TREND_STATS;
  const { store } = options;
  const metric = (e: MetricEntry) => ({
    type: 'metrics',
    id: e.key,
    attributes: {
      type: e.decl.type,
      contains: e.decl.contains,
      tainted: taintOf(store, e.key),
      sample: summaryValues(e.sink, summaryKeys(e.decl.type, stats), store.elapsedMs() / 1000),
    },
  });
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] as string;
    if (req.method !== 'GET') return send(res, 405, error(405, 'Method Not Allowed', `${req.method} ${path} is not served`));
    if (path === '/v1/status') {
      const s = options.status();
      const tainted = s.tainted ?? (store.lastVerdicts ?? []).some((v) => !v.ok);
      const attributes = { status: s.status, paused: s.paused ?? false, vus: s.vus, 'vus-max': s.vusMax, stopped: s.stopped, running: s.running, tainted };
      return send(res, 200, { data: { type: 'status', id: 'default', attributes } });
    }
    if (path === '/v1/metrics' || path === '/v1/metrics/') return send(res, 200, { data: store.entries(true).map(metric) });
    if (path.startsWith('/v1/metrics/')) {
      let key: string;
      try {
        key = decodeURIComponent(path.slice('/v1/metrics/'.length));
      } catch {
        return send(res, 400, error(400, 'Bad Request', 'the metric name is not valid URL encoding'));
      }
      const e = store.entry(key);
      return e ? send(res, 200, { data: metric(e) }) : send(res, 404, error(404, 'Not Found', `no metric "${key}"`));
    }
    return send(res, 404, error(404, 'Not Found', `${path} is not served`));
  };
  const server = createServer((req, res) => {
    try {
      handle(req, res);
    } catch (e) {
      send(res, 500, error(500, 'Internal Server Error', (e as Error).message));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A metric is tainted when one of its thresholds failed at the last judging; null before any (k6's `tainted`). */
function taintOf(store: MetricStore, key: string): boolean | null {
  const mine = (store.lastVerdicts ?? []).filter((v) => v.key === key);
  return mine.length === 0 ? null : mine.some((v) => !v.ok);
}

const error = (status: number, title: string, detail: string) => ({ errors: [{ status: String(status), title, detail }] });

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
