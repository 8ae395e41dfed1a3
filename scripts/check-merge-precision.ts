// A distributed run merged from its histograms against the exact figures of its raw samples: N segments of a scenario
// (`dialtone load SCENARIO --segments N --raw-samples`, against the reference target dialtone starts), then every trend
// key's p95 and p99 from the segments' histograms.json joined (what `dialtone merge` reads) beside k6's exact
// percentile over the union of the raw samples, and the files' sizes; then the same run LONGER times as long without
// raw samples, to show the histograms' size does not grow with it. Exits 1 when a percentile is off by more than the
// histograms' relative error, or when the longer run's histograms grew as much as the run did.
//
//   node --import tsx scripts/check-merge-precision.ts [--scenario chat-turns] [--segments 4] [--rate 250] [--seconds 60] [--longer 10]
//
// --rate is per segment (conversations/s for chat-turns); --longer 0 skips the longer run. Run it alone on the machine.
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { createGunzip } from 'node:zlib';
import { type Acc, belongsTo, type HistogramFile, joinAcc, loadAcc } from '../src/core/histogram-series.js';
import { quantile, RELATIVE_ERROR } from '../src/core/log-histogram.js';
import { percentile } from '../src/core/percentile.js';
import { HISTOGRAMS_FILE, RAW_FILE } from '../src/load/extras.js';
import { mergeSegments, readSegment } from '../src/load/merge.js';

const ROOT = new URL('..', import.meta.url).pathname;
/** Floating-point rounding on top of the histograms' bound: not a precision the check should fail on. */
const FLOAT_SLACK = 1e-9;
const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'chat-turns' },
    segments: { type: 'string', default: '4' },
    rate: { type: 'string', default: '250' },
    seconds: { type: 'string', default: '60' },
    longer: { type: 'string', default: '10' },
  },
});
const scenario = values.scenario as string;
const segments = Number(values.segments);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const longer = Number(values.longer);

/** Runs the scenario in segments into a fresh report directory; returns each segment's directory. */
function runSegments(runSeconds: number, raw: boolean): string[] {
  const reportDir = mkdtempSync(join(tmpdir(), 'dialtone-precision-'));
  const args = ['bin/dialtone.mjs', 'load', scenario, '--segments', String(segments), '--rate', String(rate * segments)];
  args.push('--duration', `${runSeconds}s`, '--report-dir', reportDir, ...(raw ? ['--raw-samples'] : []));
  console.log(`$ node ${args.join(' ')}`);
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  // 99 (a threshold failed) and 5 (load not delivered) still leave every segment's files.
  if (![0, 5, 99].includes(r.status ?? -1)) throw new Error(`dialtone load exited ${r.status}`);
  return Array.from({ length: segments }, (_, i) => join(reportDir, 'load', scenario, 'segments', `${i + 1}-of-${segments}`, 'load', scenario));
}

const size = (files: readonly string[]) => files.filter(existsSync).reduce((n, f) => n + statSync(f).size, 0);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** Every trend sample of the raw files under each trend key of the histograms (k6's JSON output). */
async function rawTrends(files: readonly string[], keys: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(keys.map((k) => [k, []]));
  const seen = new Map<string, number[][]>();
  for (const f of files) {
    const input = createReadStream(f).pipe(createGunzip());
    for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
      if (!line.includes('"Point"')) continue;
      const p = JSON.parse(line) as { metric: string; data: { value: number; tags?: Record<string, string> | null } };
      // A run repeats a few tag sets many times: the keys of each are found once.
      const id = `${p.metric} ${JSON.stringify(p.data.tags ?? {})}`;
      let mine = seen.get(id);
      if (!mine) {
        mine = keys.flatMap((k) => (belongsTo(k, p.metric, p.data.tags ?? {}) ? [out.get(k) as number[]] : []));
        seen.set(id, mine);
      }
      for (const values of mine) values.push(p.data.value);
    }
  }
  return out;
}

const dirs = runSegments(seconds, true);
const files = dirs.map((d) => JSON.parse(readFileSync(join(d, HISTOGRAMS_FILE), 'utf8')) as HistogramFile);
const joined = new Map<string, Acc>();
for (const f of files)
  for (const [k, m] of Object.entries(f.metrics)) {
    if (m.kind !== 'trend') continue;
    const a = joined.get(k);
    if (a) joinAcc(a, loadAcc(m));
    else joined.set(k, loadAcc(m));
  }
const exact = await rawTrends(
  dirs.map((d) => join(d, RAW_FILE)),
  [...joined.keys()],
);
const merged = await mergeSegments(dirs.map(readSegment));
let worst = 0;
let failed = 0;
console.log(`\n${segments} segments of ${scenario} at ${rate}/s each for ${seconds} s: p95 and p99 from histograms against the exact`);
console.log(['key', 'samples', 'p95 exact', 'p95 hist', 'error', 'p99 exact', 'p99 hist', 'error'].join('\t'));
for (const [k, a] of joined) {
  const all = (exact.get(k) ?? []).sort((x, y) => x - y);
  if (all.length === 0 || !a.hist) continue;
  const cells: string[] = [k, String(all.length)];
  for (const p of [0.95, 0.99]) {
    const want = percentile(all, p);
    const got = quantile(a.hist, p) as number;
    const err = want === 0 ? Math.abs(got) : Math.abs(got - want) / want;
    worst = Math.max(worst, err);
    if (err > RELATIVE_ERROR + FLOAT_SLACK) failed++;
    cells.push(want.toFixed(3), got.toFixed(3), `${(err * 100).toFixed(3)} %${err > RELATIVE_ERROR + FLOAT_SLACK ? ' OVER' : ''}`);
    // What `dialtone merge` reports is the same reading of the same histograms.
    const reported = merged.metrics[k]?.[`p(${p * 100})`];
    if (typeof reported === 'number' && reported !== got) {
      console.log(`${k} p(${p * 100}): merge reported ${reported}, the joined histograms read ${got}`);
      failed++;
    }
  }
  console.log(cells.join('\t'));
}
const histBytes = size(dirs.map((d) => join(d, HISTOGRAMS_FILE)));
const rawBytes = size(dirs.map((d) => join(d, RAW_FILE)));
console.log(`\nworst error ${(worst * 100).toFixed(3)} % (stated precision ${RELATIVE_ERROR * 100} %); ${failed} over`);
console.log(`histograms.json, all segments: ${kb(histBytes)}; raw.json.gz, all segments: ${kb(rawBytes)}`);
let grew = false;
if (longer > 0) {
  const long = runSegments(seconds * longer, false);
  const longBytes = size(long.map((d) => join(d, HISTOGRAMS_FILE)));
  const ratio = longBytes / histBytes;
  grew = ratio >= longer;
  console.log(`a run ${longer}x longer (${seconds * longer} s): histograms.json, all segments: ${kb(longBytes)}, ${ratio.toFixed(2)}x the size`);
}
process.exit(failed > 0 || grew ? 1 : 0);
