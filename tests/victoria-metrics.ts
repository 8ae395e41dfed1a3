// A real OTLP metrics store for the tests of `--out opentelemetry`: VictoriaMetrics single-node, built at its pinned
// version by src/tools/go-tools.ts, started on a free port of 127.0.0.1 with its data in a scratch folder, and read
// back with PromQL (MetricsQL) through its HTTP API.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureGoTool } from '../src/tools/go-tools.js';
import { ROOT } from './run-cli.js';

/** A running store: where to send OTLP/HTTP, how to query it, and how to stop it. */
export interface MetricsStore {
  /** host:port, as K6_OTEL_HTTP_EXPORTER_ENDPOINT takes it. */
  readonly endpoint: string;
  /** The OTLP/HTTP path, as K6_OTEL_HTTP_EXPORTER_URL_PATH takes it. */
  readonly otlpPath: string;
  /** An instant PromQL query's single value, or undefined when it selects nothing. */
  query(promql: string): Promise<number | undefined>;
  /**
   * Waits until the series a selector matches are all visible to queries: the store buffers samples for about a
   * second and registers new series a moment after it took them, so the count is read until it holds still.
   */
  settle(selector: string): Promise<void>;
  stop(): Promise<void>;
}

/** A port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Builds VictoriaMetrics when it is not built yet, starts it and waits until it answers.
 *
 * @example
 * const store = await startVictoriaMetrics(); await store.query('sum(http_reqs)'); await store.stop();
 */
export async function startVictoriaMetrics(): Promise<MetricsStore> {
  const bin = ensureGoTool(ROOT, 'victoria-metrics', () => {});
  const data = mkdtempSync(join(tmpdir(), 'dialtone-vm-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // One core at most, no query cache, samples queryable as soon as they are flushed.
  const args = ['-storageDataPath', data, '-httpListenAddr', `127.0.0.1:${port}`, '-loggerLevel', 'ERROR', '-search.latencyOffset=0s', '-search.disableCache'];
  const child: ChildProcess = spawn(bin, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, GOMAXPROCS: '1' } });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || i > 300) throw new Error(`VictoriaMetrics did not start: ${stderr.trim() || `exit ${child.exitCode}`}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const store: MetricsStore = {
    endpoint: `127.0.0.1:${port}`,
    otlpPath: '/opentelemetry/v1/metrics',
    query: async (promql) => {
      const r = await fetch(`${base}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      const body = (await r.json()) as { data?: { result?: { value: [number, string] }[] }; error?: string };
      if (!r.ok) throw new Error(`query ${promql}: ${body.error ?? r.status}`);
      const first = body.data?.result?.[0];
      return first ? Number(first.value[1]) : undefined;
    },
    async settle(selector) {
      let last: number | undefined;
      let same = 0;
      // Three polls alike in a row: on a busy runner a series can still arrive a moment after two alike.
      for (let i = 0; i < 120; i++) {
        await fetch(`${base}/internal/force_flush`);
        const now = await store.query(`count({${selector}})`);
        same = now !== undefined && now === last ? same + 1 : 0;
        if (same >= 2) return;
        last = now;
        await new Promise((r) => setTimeout(r, 250));
      }
      throw new Error(`the series of {${selector}} did not settle in the store: ${last ?? 'none'} seen`);
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(data, { recursive: true, force: true });
    },
  };
  return store;
}
