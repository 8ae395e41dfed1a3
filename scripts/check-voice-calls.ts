// The must-show figures of voice calls without a browser (#46), each against a reference target in a process of its
// own. Run alone on the machine:
//
//   node --import tsx scripts/check-voice-calls.ts latency [--calls 10] [--seconds 120]
//     voice-calls against `--latency voice.reply=lognormal:p50=800ms,p95=1.5s`: the turn latency's p50 and p95 the
//     callers measured against the spec's. The callers' bias: the gateway sends on a 20 ms frame clock (+10 ms on
//     average), the reply's first frame is heard once decoded, plus the one-way trip and either side's event-loop
//     delay (voice.reply=fixed:800ms shows it alone). A draw under the 400 ms pause
//     that ends a turn replies when the turn ends (the low tail, not p50 or p95).
//   node --import tsx scripts/check-voice-calls.ts bias [--calls 10] [--seconds 60]
//     the same against voice.reply=fixed:800ms: the callers' own bias, p50 and p95 less 800 ms.
//   node --import tsx scripts/check-voice-calls.ts capacity [--known 12]
//     dialtone capacity voice-calls --model closed against --capacity voice=N (N calls at once): known, found, error.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnTarget } from '../src/fuzz/target-process.js';

const ROOT = new URL('..', import.meta.url).pathname;
const DIALTONE = join(ROOT, 'bin', 'dialtone.mjs');
const SPEC = { p50: 800, p95: 1500 };

async function latency(calls: number, seconds: number, fixed = false): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-voice-latency-'));
  const spec = fixed ? `voice.reply=fixed:${SPEC.p50}ms` : `voice.reply=lognormal:p50=${SPEC.p50}ms,p95=${SPEC.p95}ms`;
  const t = await spawnTarget(join(dir, 'ref.json'), 30_000, [], ['--no-voice-client-page', '--latency', spec]);
  try {
    const args = ['load', 'voice-calls', '--target', t.profilePath, '--engine', 'builtin', '--workload', 'nightly'];
    spawnSync(process.execPath, [DIALTONE, ...args, '--rate', String(calls), '--duration', `${seconds}s`, '--report-dir', dir], { stdio: 'inherit' });
    const m = JSON.parse(readFileSync(join(dir, 'load', 'voice-calls', 'result.json'), 'utf8')).metrics;
    const turns = JSON.parse(readFileSync(join(dir, 'load', 'voice-calls', 'summary.json'), 'utf8')).metrics.voice_call_turns?.count;
    const rows = [['p50', 'voice_call_turn_latency med', SPEC.p50] as const, ['p95', 'voice_call_turn_latency p95', fixed ? SPEC.p50 : SPEC.p95] as const];
    for (const [label, key, want] of rows) {
      if (fixed) {
        console.log(`callers' bias at ${label}: ${((m[key]?.value as number) - want).toFixed(1)} ms over the fixed ${want} ms`);
        continue;
      }
      const got = m[key]?.value as number;
      const err = (got - want) / want;
      console.log(
        `turn latency ${label}: spec ${want} ms, measured ${got.toFixed(0)} ms, ` +
          `error ${(err * 100).toFixed(1)} % (${Math.abs(err) <= 0.1 ? 'within' : 'OUTSIDE'} 10 %)`,
      );
    }
    console.log(`${turns} turns measured; report: ${join(dir, 'load', 'voice-calls', 'index.html')}`);
  } finally {
    await t.stop();
  }
}

function capacity(known: number): void {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-voice-capacity-'));
  // From half the known figure, doubling: the coarse steps bracket it, the refinement finds the boundary.
  const args = ['capacity', 'voice-calls', '--model', 'closed', '--capacity', `voice=${known}`, '--engine', 'builtin'];
  const run = spawnSync(process.execPath, [DIALTONE, ...args, '--start-rate', String(Math.max(1, Math.floor(known / 2))), '--report-dir', dir], {
    stdio: 'inherit',
  });
  const result = JSON.parse(readFileSync(join(dir, 'capacity', 'voice-calls', 'capacity.json'), 'utf8'));
  const found = result.analysis.max_sustainable_rate as number | null;
  const interval = result.analysis.interval as { low: number; high: number } | undefined;
  const err = found === null ? null : (found - known) / known;
  console.log(
    `known ${known} calls at once; found ${found ?? 'none'} held` +
      `${interval ? ` (boundary between ${interval.low} and ${interval.high})` : ''}; ` +
      `error ${err === null ? '-' : `${(err * 100).toFixed(1)} %`} ` +
      `(${err !== null && Math.abs(err) <= 0.15 ? 'within' : 'OUTSIDE'} ±15 %); exit ${run.status}`,
  );
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { calls: { type: 'string' }, seconds: { type: 'string' }, known: { type: 'string' } },
});
if (positionals[0] === 'latency') await latency(Number(values.calls ?? '10'), Number(values.seconds ?? '120'));
else if (positionals[0] === 'bias') await latency(Number(values.calls ?? '10'), Number(values.seconds ?? '60'), true);
else if (positionals[0] === 'capacity') capacity(Number(values.known ?? '12'));
else {
  console.error('usage: check-voice-calls.ts latency|bias [--calls N] [--seconds S] | capacity [--known N]');
  process.exitCode = 2;
}
