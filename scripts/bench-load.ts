// Each dialtone scenario against a minimal hand-written k6 script doing the same protocol work (scripts/bench/minimal/),
// both on one engine (DIALTONE_ENGINE, else auto: the user's k6 when installed, else the built-in engine), at saturation,
// side by side against one reference target: runs alternate (minimal, dialtone, dialtone --dashboard,
// minimal, …) and the means of each are compared, so drift on the machine hits all alike. Run by `npm run bench`, or:
//   node --import tsx scripts/bench-load.ts [--only chat-turns,messaging-sockets] [--rounds 2] [--seconds 10]
//
// Saturation: an arrival rate far above what the machine can serve, with the same few VUs for both scripts, so each
// runs as fast as its VUs go (both runs exit 5, load not delivered; that is the point). The figure compared is the one
// the scenario is for: requests/s, WebSocket messages sent and sockets opened per second, or calls held.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { type K6Summary, stat } from '../src/core/summary.js';
import { browserEnv, ensureChromium } from '../src/load/chromium.js';
import { engineName, resolveEngine } from '../src/load/engine.js';
import { GeneratorWatch } from '../src/load/generator-watch.js';
import { recordsWindow } from '../src/load/records-window.js';
import { SCENARIOS } from '../src/load/scenario-declarations.js';
import { drivesChromium } from '../src/load/scenario-modules.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Per scenario: the saturating shape and the figures compared, as its declaration's `bench.saturation` says. */
const CASES = Object.fromEntries(Object.entries(SCENARIOS).flatMap(([name, d]) => (d.bench?.saturation ? [[name, d.bench.saturation] as const] : [])));

type Variant = 'minimal' | 'dialtone' | 'dialtone --dashboard';

/** Runs a process to its end, bounded; resolves with its exit code and the CPU seconds of its process tree. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, limitMs: number): Promise<{ code: number | null; cpuSeconds: number }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const watch = new GeneratorWatch();
    watch.attach(child);
    let err = '';
    child.stderr.on('data', (c: Buffer) => {
      err = (err + c.toString()).slice(-2000);
    });
    const timer = setTimeout(() => child.kill('SIGINT'), limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0 && code !== 5 && code !== 99) console.error(`  (${cmd} exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')})`);
      resolve({ code, cpuSeconds: watch.stop().cpuCores.reduce((a, b) => a + b, 0) });
    });
  });
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

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Every scenario's figures per variant, and each dialtone variant's ratio to the minimal script. */
export async function benchLoad(o: { only?: string[]; rounds?: number; seconds?: number } = {}) {
  // The engine of both variants: DIALTONE_ENGINE, else auto (the user's k6 when installed, else the built-in engine).
  const engine = resolveEngine(ROOT);
  console.log(`bench-load: on ${engineName(engine)}`);
  const work = mkdtempSync(join(tmpdir(), 'dialtone-bench-load-'));
  const profilePath = join(work, 'reference.json');
  const out: Record<string, Record<Variant, Record<string, number>> & { ratio: Record<string, number>; ratio_dashboard: Record<string, number> }> = {};
  let target: ChildProcess | undefined;
  try {
    for (const [scenario, c] of Object.entries(CASES)) {
      if (o.only && !o.only.includes(scenario)) continue;
      // A fresh target per scenario: what one scenario leaves behind (sessions, calls) does not slow the next.
      target?.kill('SIGTERM');
      target = await startTarget(profilePath);
      const profile = JSON.parse(readFileSync(profilePath, 'utf8'));
      const refEnv = Object.fromEntries(
        readFileSync(join(work, profile.env_file), 'utf8')
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      const seconds = c.seconds ?? o.seconds ?? 10;
      const browser = drivesChromium(ROOT, scenario) ? browserEnv(ensureChromium()) : {};
      // --max-vus bounds an arrival rate's pool; a workload that runs a number of VUs (browsers at once) takes --rate as its VUs.
      const arrivalRate = SCENARIOS[scenario]?.defaults.workloads.smoke.executor.endsWith('arrival-rate') ?? true;
      const env = { ...process.env, ...refEnv, ...browser, K6_NO_USAGE_REPORT: 'true' };
      const samples: Record<Variant, Record<string, number>[]> = { minimal: [], dialtone: [], 'dialtone --dashboard': [] };
      for (let round = 0; round < (o.rounds ?? 2); round++) {
        for (const variant of Object.keys(samples) as Variant[]) {
          const dir = mkdtempSync(join(work, 'run-'));
          let cpu = 0;
          const summaryPath = variant === 'minimal' ? join(dir, 'summary.json') : join(dir, 'load', scenario, 'summary.json');
          console.log(`bench-load: ${scenario}, ${variant} (${seconds} s, ${c.vus} VUs)…`);
          if (variant === 'minimal') {
            const benchEnv = {
              ...env,
              BENCH_PROFILE: profilePath,
              BENCH_RATE: String(c.rate),
              BENCH_VUS: String(c.vus),
              BENCH_DURATION: `${seconds}s`,
              BENCH_WINDOW: JSON.stringify(recordsWindow(profile, Date.now())),
            };
            cpu = (
              await run(
                engine.command,
                [...engine.args, 'run', '--quiet', '--summary-export', summaryPath, join(ROOT, 'scripts', 'bench', 'minimal', `${scenario}.js`)],
                benchEnv,
                (seconds + 90) * 1000,
              )
            ).cpuSeconds;
          } else {
            const args = [
              'load',
              scenario,
              '--target',
              profilePath,
              '--rate',
              String(c.rate),
              '--duration',
              `${seconds}s`,
              '--report-dir',
              dir,
              '--engine',
              engine.kind,
            ];
            if (arrivalRate) args.push('--max-vus', String(c.vus));
            if (variant === 'dialtone --dashboard') args.push('--dashboard');
            await run(process.execPath, [join(ROOT, 'bin', 'dialtone.mjs'), ...args], env, (seconds + 120) * 1000);
            // The engine's own CPU, as the run sampled it (the CLI's bundling and reporting are not the generator's work).
            try {
              cpu = (JSON.parse(readFileSync(join(dir, 'load', scenario, 'result.json'), 'utf8')).delivery as { generator_cpu_seconds: number })
                .generator_cpu_seconds;
            } catch {
              cpu = Number.NaN;
            }
          }
          let summary: K6Summary = { metrics: {} };
          try {
            summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary;
          } catch {
            console.error(`  (no summary from ${variant})`);
          }
          const f = (variant === 'minimal' && c.minimalFigures ? c.minimalFigures : c.figures)(summary);
          // The generator's CPU per unit of work: steadier than throughput on a machine others load too.
          const units = (stat(summary, 'http_reqs', 'count') ?? 0) + (stat(summary, 'ws_msgs_sent', 'count') ?? 0) + (f['calls held'] ?? 0);
          f['generator CPU ms per request'] = (cpu * 1000) / Math.max(1, units);
          console.log(
            `  ${Object.entries(f)
              .map(([k, v]) => `${v.toFixed(1)} ${k}`)
              .join(', ')}`,
          );
          samples[variant].push(f);
          rmSync(dir, { recursive: true, force: true });
        }
      }
      const avg = (v: Variant) => Object.fromEntries(Object.keys(samples[v][0] ?? {}).map((k) => [k, mean(samples[v].map((s) => s[k] ?? 0))]));
      const minimal = avg('minimal');
      const dialtone = avg('dialtone');
      const dashboard = avg('dialtone --dashboard');
      // Every ratio reads "dialtone's share of the minimal script's": for CPU per request (lower is better), minimal over dialtone.
      const share = (k: string, of: number, min: number) => (k.includes('CPU') ? min / Math.max(1e-9, of) : of / Math.max(1e-9, min));
      const ratio = (of: Record<string, number>) => Object.fromEntries(Object.keys(minimal).map((k) => [k, share(k, of[k] ?? 0, minimal[k] ?? 0)]));
      out[scenario] = { minimal, dialtone, 'dialtone --dashboard': dashboard, ratio: ratio(dialtone), ratio_dashboard: ratio(dashboard) };
    }
  } finally {
    target?.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
  return out;
}

/** The table `npm run bench` prints: per scenario and figure, minimal, dialtone, ratio, and the dashboard's cost. */
export function ratioTable(r: Awaited<ReturnType<typeof benchLoad>>): string {
  const rows = ['| scenario | figure | minimal k6 | dialtone | ratio | dialtone --dashboard | ratio | dashboard cost |', '|---|---|---|---|---|---|---|---|'];
  for (const [scenario, v] of Object.entries(r)) {
    for (const k of Object.keys(v.minimal)) {
      const cost = 1 - (v.ratio_dashboard[k] ?? 0) / Math.max(1e-9, v.ratio[k] ?? 0);
      const d = k.includes('CPU') ? 3 : 1;
      rows.push(
        `| ${scenario} | ${k} | ${v.minimal[k]?.toFixed(d)} | ${v.dialtone[k]?.toFixed(d)} | ${v.ratio[k]?.toFixed(2)} | ` +
          `${v['dialtone --dashboard'][k]?.toFixed(d)} | ${v.ratio_dashboard[k]?.toFixed(2)} | ${(cost * 100).toFixed(1)} % |`,
      );
    }
  }
  return rows.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { only: { type: 'string' }, rounds: { type: 'string' }, seconds: { type: 'string' } } });
  const r = await benchLoad({
    only: values.only?.split(','),
    rounds: values.rounds ? Number(values.rounds) : undefined,
    seconds: values.seconds ? Number(values.seconds) : undefined,
  });
  console.log(ratioTable(r));
  console.log(JSON.stringify(r));
}
