// npm run soak [-- --duration 30m --dir .dialtone/soak]: a benchmark, not a test. chat-turns and messaging-sockets
// together at their nightly rates against one reference target in its own process, on loopback. Prints events lost
// and repeated (must be 0), the target's RSS after warm-up and at the end, and each scenario's http_req_duration p95
// over the first and the last 5 minutes (a third of the run when it is shorter than 15 minutes).
// The load runs use `dialtone load SCENARIO --target PROFILE --workload nightly --duration D --out csv=FILE`, on the engine
// DIALTONE_ENGINE names (else auto: the user's k6 when installed, else the built-in engine).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnTarget } from '../src/fuzz/target-process.js';
import { windowedP95 } from '../src/soak/windows.js';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '30m' }, dir: { type: 'string', default: '.dialtone/soak' } } });
const m = /^(\d+)(s|m|h)$/.exec(values.duration);
if (!m) {
  console.error(`soak: --duration must look like 30s, 5m or 1h, got '${values.duration}'`);
  process.exit(2);
}
const seconds = Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] as 's' | 'm' | 'h'];
const dir = resolve(values.dir);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const SCENARIOS = ['chat-turns', 'messaging-sockets'] as const;
const bin = resolve('bin/dialtone.mjs');

// With V8's defaults the target's RSS swings by a third with no change in what it holds: the old space grows to about
// twice what is live before a full GC, and a page is compacted only when most of it (70 %) is free, so free space piles
// up in part-used pages. A 4 MB young generation, a 5 % growth step and --optimize-for-size (compact a page at 20 %
// free) keep the RSS near what the target keeps, so a leak shows. With the first two alone free pages still grew 6 MB a
// minute.
const TARGET_NODE_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=5', '--optimize-for-size'];
const target = await spawnTarget(join(dir, 'target.json'), 30_000, TARGET_NODE_FLAGS);
const warmupS = Math.min(120, seconds / 5);
const rss: [number, number][] = [];
const t0 = Date.now();
const sampler = setInterval(() => target.alive() && rss.push([(Date.now() - t0) / 1000, target.rssMb()]), 5000);
console.log(
  `soak: ${SCENARIOS.join(' + ')} at nightly rates for ${values.duration} against the target (pid ${target.pid}, node ${TARGET_NODE_FLAGS.join(' ')})`,
);

const run = (scenario: string) =>
  new Promise<number | null>((done) => {
    const child = spawn(
      process.execPath,
      [
        bin,
        'load',
        scenario,
        '--target',
        target.profilePath,
        '--workload',
        'nightly',
        '--duration',
        values.duration,
        '--report-dir',
        join(dir, 'reports'),
        '--out',
        `csv=${join(dir, `${scenario}.csv.gz`)}`,
      ],
      { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('exit', (code) => done(code));
  });
const codes = await Promise.all(SCENARIOS.map(run));
clearInterval(sampler);
const alive = target.alive();
const rssEnd = target.alive() ? target.rssMb() : Number.NaN;
await target.stop();

const afterWarmup = rss.find(([t]) => t >= warmupS)?.[1] ?? Number.NaN;
const windowS = Math.min(300, Math.floor(seconds / 3));
const resultOf = (s: string) => {
  const p = join(dir, 'reports', 'load', s, 'result.json');
  return existsSync(p) ? (JSON.parse(readFileSync(p, 'utf8')) as { figures: Record<string, number>; passed: boolean; k6_exit_code: number }) : undefined;
};
const msg = resultOf('messaging-sockets');
const lost = msg?.figures.events_lost;
const repeated = msg?.figures.events_duplicated;
console.log(
  `soak ${values.duration}: dialtone load exit codes ${SCENARIOS.map((s, i) => `${s} ${codes[i]}`).join(', ')}; target ${alive ? 'alive' : `died (${target.exit()})`}`,
);
console.log(`events lost ${lost ?? '?'}, repeated ${repeated ?? '?'} (messaging-sockets)`);
console.log(`target RSS after ${warmupS.toFixed(0)} s warm-up ${afterWarmup.toFixed(0)} MB, at the end ${rssEnd.toFixed(0)} MB`);
// From minute 5 (or a third of a shorter run) to the end: a target that keeps what it served grows here; a bounded one stays flat.
const flatFrom = Math.min(300, seconds / 3);
const later = rss.filter(([t]) => t >= flatFrom).map(([, mb]) => mb);
if (later.length > 0) {
  const [lo, hi] = [Math.min(...later), Math.max(...later)];
  console.log(`target RSS from ${flatFrom.toFixed(0)} s to the end: ${lo.toFixed(0)} to ${hi.toFixed(0)} MB (${(((hi - lo) / lo) * 100).toFixed(1)} % apart)`);
}
writeFileSync(join(dir, 'rss.csv'), `seconds,rss_mb\n${rss.map(([t, mb]) => `${t.toFixed(0)},${mb.toFixed(1)}`).join('\n')}\n`);
for (const s of SCENARIOS) {
  const file = join(dir, `${s}.csv.gz`);
  if (!existsSync(file)) {
    console.log(`${s}: no CSV output at ${file}`);
    continue;
  }
  const w = await windowedP95(file, 'http_req_duration', windowS);
  console.log(
    `${s}: http_req_duration p95 first ${w.windowS} s ${w.firstP95Ms.toFixed(1)} ms, last ${w.windowS} s ${w.lastP95Ms.toFixed(1)} ms (${w.samples} requests)`,
  );
}
// A run the engine did not finish (cut short, crashed: it exited with anything but 0, or 99 for a failed threshold) soaked less
// than asked. dialtone load's own code may also be 5 (load not delivered): a finding, not a cut.
const engineCode = (s: string) => resultOf(s)?.k6_exit_code;
const unfinished = SCENARIOS.filter((s) => engineCode(s) !== 0 && engineCode(s) !== 99);
if (unfinished.length) {
  console.log(
    `soak: ${unfinished.map((s) => `${s} (engine exit ${engineCode(s) ?? 'unknown'})`).join(', ')} did not run to the end: these figures cover less than ${values.duration}`,
  );
}
process.exit(lost === 0 && repeated === 0 && alive && unfinished.length === 0 ? 0 : 1);
