// Real metrics stores for the engine's network outputs to send to: Debian's Prometheus with its remote-write receiver,
// and VictoriaMetrics (the pinned Go tool, .tools/bin/victoria-metrics), which takes InfluxDB's line protocol at /write.
// Each listens on 127.0.0.1 with its data in a fresh folder, and is queried back through its HTTP API.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../src/root.js';

/** A store started for a test: its base URL, an instant query, and a stop that removes its data. */
export interface MetricsStore {
  readonly url: string;
  /** The store's process, e.g. for a bench to lower its priority. */
  readonly pid: number;
  /** PromQL (or MetricsQL) at the store's /api/v1/query: each result's labels and value. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: number }[]>;
  /** The query's first value once `done` holds for it (a store makes samples searchable a moment after it takes them). */
  settled(promql: string, done: (v: number | undefined) => boolean): Promise<number | undefined>;
  stop(): Promise<void>;
}

/** Where Prometheus is, or undefined when Debian's `prometheus` package is not installed (scripts/setup.mjs installs it). */
export function findPrometheus(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** The project's VictoriaMetrics at its pinned version (src/tools/go-tools.ts builds it), or undefined. */
export function findVictoriaMetrics(): string | undefined {
  const bin = join(ROOT, '.tools', 'bin', 'victoria-metrics');
  const stamp = `${bin}.version`;
  return existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === 'v1.151.0' ? bin : undefined;
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => s.once('listening', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** Polls `url` until it answers 2xx, or fails with the process's last output. */
async function waitReady(url: string, child: ChildProcess, log: () => string, headers: Record<string, string> = {}): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the store exited (${child.exitCode}): ${log().slice(-500)}`);
    const ok = await fetch(url, { headers }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the store did not become ready at ${url}: ${log().slice(-500)}`);
}

/** Starts a store's process and gives the MetricsStore around it. */
async function startStore(bin: string, args: (dir: string, port: number) => string[], readyPath: string, auth?: string): Promise<MetricsStore> {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-store-'));
  const port = await freePort();
  let out = '';
  const child = spawn(bin, args(dir, port), { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (c: Buffer) => {
    out = (out + c.toString()).slice(-4000);
  });
  child.stderr?.on('data', (c: Buffer) => {
    out = (out + c.toString()).slice(-4000);
  });
  const url = `http://127.0.0.1:${port}`;
  const headers: Record<string, string> = auth ? { Authorization: `Basic ${Buffer.from(auth).toString('base64')}` } : {};
  const stop = async () => {
    if (child.exitCode === null) {
      const ended = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await ended;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(`${url}${readyPath}`, child, () => out, headers);
  } catch (e) {
    await stop();
    throw e;
  }
  const query = async (promql: string) => {
    const r = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`, { headers });
    const body = (await r.json()) as { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    if (body.status !== 'success') throw new Error(`query ${promql}: ${body.error}`);
    return body.data.result.map((x) => ({ metric: x.metric, value: Number(x.value[1]) }));
  };
  const settled = async (promql: string, done: (v: number | undefined) => boolean) => {
    let v: number | undefined;
    for (let i = 0; i < 120; i++) {
      v = (await query(promql))[0]?.value;
      if (done(v)) return v;
      await new Promise((r) => setTimeout(r, 250));
    }
    return v;
  };
  return { url, pid: child.pid as number, stop, query, settled };
}

/**
 * Starts Prometheus with its remote-write receiver on a free port of 127.0.0.1 (it scrapes nothing); with
 * `nativeHistograms`, its native histograms feature on (Prometheus 2.40 and later take them over remote write then).
 *
 * @example
 * const prom = await startPrometheus(bin, { nativeHistograms: true }); // prom.url + '/api/v1/write' takes remote write
 */
export function startPrometheus(bin: string, o: { nativeHistograms?: boolean } = {}): Promise<MetricsStore> {
  return startStore(
    bin,
    (dir, port) => {
      const config = join(dir, 'prometheus.yml');
      writeFileSync(config, 'global:\n  scrape_interval: 1h\n');
      return [
        '--web.enable-remote-write-receiver',
        ...(o.nativeHistograms ? ['--enable-feature=native-histograms'] : []),
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        `--config.file=${config}`,
      ];
    },
    '/-/ready',
  );
}

/**
 * Starts VictoriaMetrics on a free port of 127.0.0.1; with `auth` ('user:password') every endpoint wants Basic auth.
 *
 * @example
 * const vm = await startVictoriaMetrics(bin, 'k6:secret'); // vm.url + '/write' takes InfluxDB line protocol
 */
export function startVictoriaMetrics(bin: string, auth?: string): Promise<MetricsStore> {
  const [user, password] = auth ? [auth.slice(0, auth.indexOf(':')), auth.slice(auth.indexOf(':') + 1)] : [];
  return startStore(
    bin,
    (dir, port) => [
      `-storageDataPath=${join(dir, 'data')}`,
      `-httpListenAddr=127.0.0.1:${port}`,
      // Every sample is searchable as soon as it is written, not after the usual few seconds.
      '-search.latencyOffset=0s',
      '-search.disableCache',
      ...(user ? [`-httpAuth.username=${user}`, `-httpAuth.password=${password}`] : []),
    ],
    '/health',
    auth,
  );
}
