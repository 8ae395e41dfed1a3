// The classic synchronous k6 style on the built-in engine, side by side with the async style, in one run: memory per
// VU of a script that makes one request and sleeps a second (`http.get` + `sleep(1)`), and what the rewrite of its
// blocking calls costs at start. Run by `npm run bench`, or:
//   node --import tsx scripts/bench-sync-vus.ts [--vus 1000] [--seconds 15]
//
// Memory per VU is marginal: the engine's peak resident memory at --vus VUs less its peak at 10 VUs, over the VUs
// added, so what the engine costs at any size (Node, the bundle, the worker threads) is left out. Each run is a
// process of its own against a node:http server on 127.0.0.1, bounded in time, one after the other.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { rewriteBlocking } from '../src/engine/blocking.js';
import { bundleScript } from '../src/engine/loader.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const SYNC = (url: string, vus: number, seconds: number) => `import http from 'k6/http';
import { sleep } from 'k6';
export const options = { vus: ${vus}, duration: '${seconds}s' };
export default function () {
  http.get('${url}');
  sleep(1);
}
`;
const ASYNC = (url: string, vus: number, seconds: number) => `import http from 'k6/http';
import { sleep } from 'k6';
export const options = { vus: ${vus}, duration: '${seconds}s' };
export default async function () {
  await http.asyncRequest('GET', '${url}');
  await sleep(1);
}
`;

export interface SyncRun {
  readonly style: 'sync' | 'async';
  readonly vus: number;
  readonly exit: number | null;
  readonly peak_rss_mb: number;
  readonly requests: number;
}

/** The resident memory of a process, in bytes, or 0 once it is gone. */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function runScript(style: SyncRun['style'], url: string, vus: number, seconds: number, dir: string, served: () => number): Promise<SyncRun> {
  const file = join(dir, `${style}-${vus}.js`);
  writeFileSync(file, (style === 'sync' ? SYNC : ASYNC)(url, vus, seconds));
  const before = served();
  const child: ChildProcess = spawn(process.execPath, ['bin/dialtone-engine.mjs', 'run', '--quiet', file], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let peak = 0;
  const sample = setInterval(() => {
    if (child.pid) peak = Math.max(peak, rssOf(child.pid));
  }, 250);
  const limit = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearInterval(sample);
  clearTimeout(limit);
  return { style, vus, exit: code, peak_rss_mb: peak / 2 ** 20, requests: served() - before };
}

export interface SyncBench {
  readonly runs: readonly SyncRun[];
  /** Marginal memory per VU, MB: (peak at --vus − peak at 10) / (--vus − 10), per style. */
  readonly mb_per_vu: { readonly sync: number; readonly async: number };
  /** The rewrite of blocking calls at start, ms, on each scenario's bundle and on the sync script. */
  readonly rewrite_ms: Readonly<Record<string, number>>;
}

/** Times `rewriteBlocking` on a bundle: the median of five. */
async function rewriteCost(script: string): Promise<number> {
  const { code } = await bundleScript(script);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    rewriteBlocking(code, () => '');
    times.push(performance.now() - t);
  }
  return [...times].sort((a, b) => a - b)[2] as number;
}

export async function benchSyncVus(o: { vus?: number; seconds?: number } = {}): Promise<SyncBench> {
  const vus = o.vus ?? 1000;
  const seconds = o.seconds ?? 15;
  let served = 0;
  const server = http.createServer((req, res) => {
    served++;
    req.resume();
    res.end('ok');
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-bench-sync-'));
  const runs: SyncRun[] = [];
  try {
    for (const [style, n] of [
      ['sync', 10],
      ['async', 10],
      ['sync', vus],
      ['async', vus],
    ] as const) {
      console.log(`  ${style} style, ${n} VUs for ${seconds} s…`);
      runs.push(await runScript(style, url, n, seconds, dir, () => served));
    }
  } finally {
    server.close();
    server.closeAllConnections();
  }
  const per = (style: SyncRun['style']) => {
    const small = runs.find((r) => r.style === style && r.vus === 10) as SyncRun;
    const big = runs.find((r) => r.style === style && r.vus === vus) as SyncRun;
    return (big.peak_rss_mb - small.peak_rss_mb) / (vus - 10);
  };
  const rewrite_ms: Record<string, number> = { 'sync script': await rewriteCost(join(dir, `sync-${vus}.js`)) };
  for (const s of ['chat-turns', 'messaging-sockets', 'outbound-polling']) rewrite_ms[s] = await rewriteCost(join(ROOT, 'scenarios', `${s}.ts`));
  return { runs, mb_per_vu: { sync: per('sync'), async: per('async') }, rewrite_ms };
}

export function syncTable(b: SyncBench): string {
  const rows = b.runs.map((r) => `| ${r.style} | ${r.vus} | ${r.exit} | ${r.peak_rss_mb.toFixed(1)} | ${r.requests} |`);
  return [
    '| style | VUs | exit | peak RSS (MB) | requests served |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `memory per VU (marginal): sync ${b.mb_per_vu.sync.toFixed(3)} MB, async ${b.mb_per_vu.async.toFixed(3)} MB`,
    `the rewrite at start (ms): ${Object.entries(b.rewrite_ms)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(', ')}`,
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { vus: { type: 'string' }, seconds: { type: 'string' } } });
  const b = await benchSyncVus({ vus: values.vus ? Number(values.vus) : undefined, seconds: values.seconds ? Number(values.seconds) : undefined });
  console.log(syncTable(b));
}
