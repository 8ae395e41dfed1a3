// Runs k6's own examples/ folder on the built-in engine against local stand-ins of the hosts they call, and counts
// how many ran as k6 documents, how many were refused, and how many diverged. k6 is AGPL, and so is jslib.k6.io: both
// are read from copies fetched at run time (--examples, --jslib), never kept in this repository.
//
//   node --import tsx scripts/k6-examples.ts --examples /tmp/k6/examples --jslib /tmp/jslib/lib [--only NAME] [--json FILE]
//
// Stand-ins: quickpizza.grafana.com (scripts/k6-examples/quickpizza.ts), httpbin.org (go-httpbin, a pinned Go tool),
// example.com; jslib.k6.io's modules are put in a fresh module cache, as a machine with no network finds them. The
// hosts reach them through k6's own `hosts` option, given by a --config file, and their certificates through
// SSL_CERT_FILE, as k6 reads both: the scripts run exactly as written.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ModuleCache } from '../src/engine/remote-modules.js';
import { makeTlsMaterial } from '../src/reference-target/tls.js';
import { ensureGoTool } from '../src/tools/go-tools.js';
import { startEcho } from './k6-examples/echo.js';
import { EXPECTED, type Expectation, SHORTENED } from './k6-examples/expected.js';
import { startHttpbin } from './k6-examples/httpbin.js';
import { startQuickPizza } from './k6-examples/quickpizza.js';
import { startRouteGuide } from './k6-examples/route-guide.js';

const ROOT = join(import.meta.dirname, '..');
const ENGINE = join(ROOT, 'bin', 'dialtone-engine.mjs');
/** A script still running then is stopped (SIGINT, then SIGKILL): a hang is a divergence, not a stuck run. */
const GUARD_MS = 90_000;

const { values } = parseArgs({
  options: {
    examples: { type: 'string' },
    jslib: { type: 'string' },
    only: { type: 'string' },
    from: { type: 'string' },
    json: { type: 'string' },
    jobs: { type: 'string', default: '2' },
    show: { type: 'boolean', default: false },
  },
});
if (!values.examples || !existsSync(values.examples)) {
  console.error("k6-examples: --examples DIR (a fetched copy of k6's examples/ folder) is required");
  process.exit(2);
}
const examples = values.examples;

/** Every script k6 would run: a file with a default export or options (not a module the others import). */
function scripts(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...scripts(p));
    else if (/\.(js|ts)$/.test(name) && /export\s+(default|(const|let|var)\s+options)/.test(readFileSync(p, 'utf8'))) out.push(p);
  }
  return out;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

async function waitFor(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/get`).then(
      () => true,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`go-httpbin did not start on ${port}`);
}

/** jslib.k6.io's modules the scripts import, read from the fetched copy into the module cache. */
function seedModules(cacheDir: string, all: readonly string[]): number {
  if (!values.jslib) return 0;
  const cache = new ModuleCache(cacheDir);
  let n = 0;
  for (const file of all)
    for (const [url] of readFileSync(file, 'utf8').matchAll(/https:\/\/jslib\.k6\.io\/[^'"\s]+/g)) {
      const local = join(values.jslib, url.slice('https://jslib.k6.io/'.length));
      if (!existsSync(local)) continue;
      cache.write(url, { url, text: readFileSync(local, 'utf8') });
      n++;
    }
  return n;
}

/**
 * The flags a script's own comment says to run it with (`// k6 run --secret-source=file=file.secret secrets.test.js`):
 * the first such line that ends in the script's name, split as a shell splits words.
 */
export function documentedFlags(text: string): string[] {
  const line = /^\s*\/\/\s*k6 run (.+?)\s+\S+\.(?:js|ts)\s*$/m.exec(text)?.[1];
  if (!line) return [];
  return [...line.matchAll(/(?:[^\s'"]+|"[^"]*"|'[^']*')+/g)].map((m) => m[0].replace(/"([^"]*)"|'([^']*)'/g, '$1$2'));
}

interface Group {
  readonly checks?: Record<string, { fails?: number }> | { name: string; fails?: number }[];
  readonly groups?: Record<string, Group> | Group[];
}

/** The names of the checks that failed at least once, from the summary export's groups. */
function failedChecks(g: Group | undefined): string[] {
  if (!g) return [];
  const checks = Array.isArray(g.checks) ? g.checks : Object.entries(g.checks ?? {}).map(([name, c]) => ({ name, ...c }));
  const groups = Array.isArray(g.groups) ? g.groups : Object.values(g.groups ?? {});
  return [...checks.filter((c) => (c.fails ?? 0) > 0).map((c) => `'${c.name}'`), ...groups.flatMap(failedChecks)];
}

interface Outcome {
  readonly script: string;
  readonly code: number | null;
  readonly checks: { passes: number; fails: number } | undefined;
  readonly verdict: 'ran' | 'on purpose' | 'refused' | 'diverged' | 'not run';
  readonly why: string;
}

function judge(script: string, code: number | null, checks: Outcome['checks'], stderr: string, expect: Expectation): Outcome {
  const firstError = stderr.split('\n').find((l) => /level=error|error|refus|not supported|unknown/i.test(l)) ?? '';
  const base = { script, code, checks };
  if (expect.skip) return { ...base, verdict: 'not run', why: expect.skip };
  if (code === 104 || (code === 107 && /k6 module|run the script on k6|not supported/.test(stderr)))
    return { ...base, verdict: 'refused', why: firstError.trim().slice(0, 200) };
  if (expect.onPurpose && code === expect.onPurpose.exit) return { ...base, verdict: 'on purpose', why: expect.onPurpose.why };
  const wantCode = expect.exit ?? 0;
  const wantFails = expect.checkFails ?? 0;
  if ((wantCode === 'any' || code === wantCode) && (wantFails === 'any' || (checks?.fails ?? 0) === wantFails))
    return { ...base, verdict: 'ran', why: expect.note ?? '' };
  return {
    ...base,
    verdict: 'diverged',
    why: `exit ${code} (k6: ${wantCode}), failed checks ${checks?.fails ?? 0} (k6: ${wantFails}); ${firstError.trim().slice(0, 200)}`,
  };
}

async function runOne(script: string, env: NodeJS.ProcessEnv, config: string, work: string): Promise<Outcome> {
  const rel = relative(examples, script);
  const expect = EXPECTED[rel] ?? {};
  if (expect.skip) return judge(rel, null, undefined, '', expect);
  const dir = mkdtempSync(join(work, 'run-'));
  const summary = join(dir, 'summary.json');
  const args = [
    ENGINE,
    'run',
    '--no-color',
    '--quiet',
    '--config',
    config,
    '--summary-export',
    summary,
    ...documentedFlags(readFileSync(script, 'utf8')),
    ...(SHORTENED[rel] ?? []),
    ...(expect.args ?? []),
    script,
  ];
  const child = spawn(process.execPath, args, { cwd: dirname(script), env: { ...env, ...(expect.env ?? {}) } });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  const guard = setTimeout(() => {
    child.kill('SIGINT');
    setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
  }, GUARD_MS);
  const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
  clearTimeout(guard);
  if (values.show) console.log(`--- ${rel} exited ${code}\n${stderr}`);
  const exported = existsSync(summary) ? JSON.parse(readFileSync(summary, 'utf8')) : undefined;
  const checks = exported?.metrics?.checks as Outcome['checks'];
  const o = judge(rel, code, checks, stderr, expect);
  const failed = failedChecks(exported?.root_group);
  return o.verdict === 'diverged' && failed.length > 0 ? { ...o, why: `${o.why}; failed: ${failed.join(', ')}` } : o;
}

async function main(): Promise<void> {
  const all = scripts(examples).filter((s) => {
    const rel = relative(examples, s);
    return (!values.only || rel.includes(values.only)) && (!values.from || rel >= values.from);
  });
  const work = mkdtempSync(join(tmpdir(), 'dialtone-k6-examples-'));
  const tls = await makeTlsMaterial(2, ['quickpizza.grafana.com', 'httpbin.org', 'example.com', 'echo.websocket.org', '127.0.0.1', 'localhost']);
  const caFile = join(work, 'ca.pem');
  writeFileSync(caFile, tls.ca);

  const pizza = await startQuickPizza(tls);
  const goHttpbin = ensureGoTool(ROOT, 'go-httpbin');
  const upstream = await freePort();
  const bins = [spawn(goHttpbin, ['-host', '127.0.0.1', '-port', String(upstream), '-log-level', 'OFF'], { stdio: 'ignore' })];
  await waitFor(upstream);
  const httpbin = await startHttpbin(tls, upstream);
  const echo = await startEcho(tls);
  // The route_guide.proto k6's gRPC examples load, from the same fetched copy of k6's repository (../internal/…).
  const proto = join(examples, '..', 'internal', 'lib', 'testutils', 'grpcservice', 'route_guide.proto');
  const routeGuide = existsSync(proto) ? await startRouteGuide(proto) : undefined;
  const example = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><html><head><title>Example Domain</title></head><body><h1>Example Domain</h1></body></html>');
  });
  const examplePort = await new Promise<number>((r) => example.listen(0, '127.0.0.1', () => r((example.address() as AddressInfo).port)));

  const hosts = {
    'quickpizza.grafana.com:443': `127.0.0.1:${pizza.httpsPort}`,
    'quickpizza.grafana.com:80': `127.0.0.1:${pizza.httpPort}`,
    'httpbin.org:443': `127.0.0.1:${httpbin.httpsPort}`,
    'httpbin.org:80': `127.0.0.1:${httpbin.httpPort}`,
    'echo.websocket.org:443': `127.0.0.1:${echo.port}`,
    'echo.websocket.org:80': `127.0.0.1:${echo.plainPort}`,
    'example.com:80': `127.0.0.1:${examplePort}`,
    'example.com:443': `127.0.0.1:${pizza.httpsPort}`,
  };
  const config = join(work, 'config.json');
  writeFileSync(config, JSON.stringify({ hosts }));
  const cacheDir = join(work, 'modules');
  mkdirSync(cacheDir);
  const seeded = seedModules(cacheDir, scripts(examples));
  const chromium = spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
  const env: NodeJS.ProcessEnv = {
    ...(routeGuide ? { GRPC_ADDR: `127.0.0.1:${routeGuide.port}`, GRPC_PROTO_PATH: proto } : {}),
    PATH: process.env.PATH,
    HOME: work,
    SSL_CERT_FILE: caFile,
    DIALTONE_MODULE_CACHE: cacheDir,
    K6_NO_USAGE_REPORT: 'true',
    ...(chromium ? { K6_BROWSER_EXECUTABLE_PATH: chromium } : {}),
    K6_BROWSER_HEADLESS: 'true',
    // The stand-ins' certificates are the project's own CA, which Chromium does not read from SSL_CERT_FILE.
    K6_BROWSER_ARGS: 'no-sandbox,ignore-certificate-errors',
  };
  console.log(`k6-examples: ${all.length} scripts; ${seeded} jslib imports cached; stand-ins on 127.0.0.1`);

  // A few at a time (--jobs), browser scripts one at a time: each launches its own Chromium.
  const outcomes: Outcome[] = [];
  const queue = [...all];
  const lane = async (browser: boolean) => {
    for (let s = take(browser); s; s = take(browser)) {
      const o = await runOne(s, env, config, work);
      outcomes.push(o);
      console.log(`${o.verdict.padEnd(8)} ${o.script}${o.why ? `  — ${o.why}` : ''}`);
    }
  };
  const isBrowser = (s: string) => /k6\/browser/.test(readFileSync(s, 'utf8'));
  const take = (browser: boolean) => {
    const i = queue.findIndex((s) => isBrowser(s) === browser);
    return i < 0 ? undefined : queue.splice(i, 1)[0];
  };
  const jobs = Math.max(1, Number(values.jobs));
  await Promise.all([lane(true), ...Array.from({ length: Math.max(0, jobs - 1) }, () => lane(false)), ...(jobs === 1 ? [lane(false)] : [])]);
  outcomes.sort((a, b) => a.script.localeCompare(b.script));
  for (const b of bins) b.kill();
  await Promise.all([pizza.close(), httpbin.close(), echo.close(), routeGuide?.close()]);
  example.close();

  const count = (v: Outcome['verdict']) => outcomes.filter((o) => o.verdict === v).length;
  console.log(
    `\nran as k6 documents: ${count('ran')}; differs on purpose: ${count('on purpose')}; refused: ${count('refused')}; ` +
      `diverged: ${count('diverged')}; not run here: ${count('not run')} (of ${outcomes.length})`,
  );
  if (values.json) writeFileSync(values.json, `${JSON.stringify(outcomes, null, 2)}\n`);
}

await main();
