// How many messaging sockets one engine process holds at once with no event lost, and its memory per socket. The
// reference target runs in a child process of its own; the engine (DIALTONE_ENGINE, else auto: the user's k6 when
// installed, else the built-in engine) runs scripts/bench/hold-sockets.js at growing sizes and its resident memory is
// read from /proc every second. Stops at the first size that lost an event or failed a socket. Run:
//   node --import tsx scripts/bench-sockets.ts [--sessions 100,500,1000] [--per-vu 10] [--hold 20]
// Each socket is one descriptor in the engine and one in the target: `ulimit -n` must exceed the largest size.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type K6Summary, stat } from '../src/core/summary.js';
import { type Engine, engineName, resolveEngine } from '../src/load/engine.js';
import { GeneratorWatch } from '../src/load/generator-watch.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** VmRSS of a process in bytes; 0 once it is gone. */
function rssOf(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

async function startTarget(profileOut: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'dialtone.mjs'), 'target', '--profile-out', profileOut], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the target did not start within 30 s')), 30_000);
    lines.on('line', (line) => {
      if (line.startsWith('profile:')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return child;
}

/** One hold: the engine's peak memory and CPU, and what the sockets saw. */
async function hold(engine: Engine, env: NodeJS.ProcessEnv, sessions: number, summaryPath: string, holdS: number) {
  const child = spawn(engine.command, [...engine.args, 'run', '--quiet', '--summary-export', summaryPath, join(ROOT, 'scripts', 'bench', 'hold-sockets.js')], {
    cwd: ROOT,
    env: { ...env, SESSIONS: String(sessions) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const watch = new GeneratorWatch();
  watch.attach(child);
  let err = '';
  child.stderr.on('data', (c: Buffer) => {
    err = (err + c.toString()).slice(-1500);
  });
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(child.pid as number));
  }, 500);
  const limit = setTimeout(() => child.kill('SIGINT'), (holdS + 300) * 1000);
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  clearInterval(sampler);
  clearTimeout(limit);
  const cpu = watch.stop();
  if (code !== 0) console.error(`  the engine exited ${code}: ${err.trim().split('\n').slice(-2).join(' | ')}`);
  const s = JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary;
  const count = (m: string) => stat(s, m, 'count') ?? 0;
  return {
    sessions,
    sockets_wanted: sessions * 10,
    sockets_held: count('sockets_opened'),
    sockets_failed: count('sockets_failed'),
    events_lost: count('events_lost'),
    events_received: count('events_received'),
    user_messages: count('user_messages'),
    sessions_silent: count('sessions_silent'),
    k6_peak_rss_mib: peak / 2 ** 20,
    k6_cpu_peak_cores: Math.max(0, ...cpu.cpuCores),
    machine_busy: cpu.machineBusy.reduce((a, b) => a + b, 0) / Math.max(1, cpu.machineBusy.length),
  };
}

const { values } = parseArgs({ options: { sessions: { type: 'string' }, 'per-vu': { type: 'string' }, hold: { type: 'string' } } });
const sizes = (values.sessions ?? '100,500,1000').split(',').map(Number);
const holdS = Number(values.hold ?? 20);
const work = mkdtempSync(join(tmpdir(), 'dialtone-bench-sockets-'));
const profilePath = join(work, 'reference.json');
const target = await startTarget(profilePath);
try {
  const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
  const refEnv = Object.fromEntries(
    readFileSync(join(work, profile.env_file), 'utf8')
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const env = {
    ...process.env,
    ...refEnv,
    K6_NO_USAGE_REPORT: 'true',
    BENCH_PROFILE: profilePath,
    SESSIONS_PER_VU: values['per-vu'] ?? '10',
    HOLD_S: String(holdS),
  };
  const engine = resolveEngine(ROOT);
  const rows: Awaited<ReturnType<typeof hold>>[] = [];
  console.log(`bench-sockets: on ${engineName(engine)}`);
  console.log(
    '| sockets held (of asked) | failed | events lost (silent sessions) | events received | engine peak RSS | KiB per socket (vs previous size) | engine ' +
      'CPU peak | machine busy |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const sessions of sizes) {
    const r = await hold(engine, env, sessions, join(work, `summary-${sessions}.json`), holdS);
    const prev = rows.at(-1);
    const slope = prev ? ((r.k6_peak_rss_mib - prev.k6_peak_rss_mib) * 1024) / Math.max(1, r.sockets_held - prev.sockets_held) : Number.NaN;
    rows.push(r);
    console.log(
      `| ${r.sockets_held} (of ${r.sockets_wanted}) | ${r.sockets_failed} | ${r.events_lost} (${r.sessions_silent}) | ${r.events_received} | ${r.k6_peak_rss_mib.toFixed(0)} MiB | ${Number.isNaN(slope) ? `${((r.k6_peak_rss_mib * 1024) / Math.max(1, r.sockets_held)).toFixed(1)} (all of it)` : slope.toFixed(1)} | ${r.k6_cpu_peak_cores.toFixed(2)} | ${(r.machine_busy * 100).toFixed(0)} % |`,
    );
    if (r.events_lost > 0 || r.sockets_failed > 0 || r.sessions_silent > 0) break;
  }
  console.log(JSON.stringify(rows));
} finally {
  target.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
