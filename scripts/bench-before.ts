// chat-turns on the built-in engine, this checkout against an earlier one, side by side in one run: CPU per request at
// one rate, the two alternating (before, after, before, …) against one reference target of this checkout's, each run in
// a process of its own whose CPU is read from its result.json. `npm run bench -- --before DIR` runs it alone:
//   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && node scripts/build.mjs)
//   npm run bench -- --before /tmp/before [--rate 600] [--seconds 20] [--rounds 3]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatTurnsRow, chatTurns, startTarget, stopTarget } from './bench-engine.js';

export interface BeforeAfter {
  readonly rate: number;
  readonly seconds: number;
  readonly before: readonly ChatTurnsRow[];
  readonly after: readonly ChatTurnsRow[];
  /** Median CPU ms per request, after over before. */
  readonly ratio: number;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

export async function benchBefore(beforeRoot: string, o: { rate?: number; seconds?: number; rounds?: number } = {}): Promise<BeforeAfter> {
  const rate = o.rate ?? 600;
  const seconds = o.seconds ?? 20;
  const work = mkdtempSync(join(tmpdir(), 'dialtone-bench-before-'));
  const target = await startTarget(join(work, 'target'));
  const before: ChatTurnsRow[] = [];
  const after: ChatTurnsRow[] = [];
  try {
    for (let i = 0; i < (o.rounds ?? 3); i++) {
      before.push(await chatTurns(target, rate, seconds, work, beforeRoot));
      after.push(await chatTurns(target, rate, seconds, work));
    }
  } finally {
    await stopTarget(target);
  }
  const cpu = (rows: readonly ChatTurnsRow[]) => median(rows.map((r) => r.engine_cpu_ms_per_request));
  return { rate, seconds, before, after, ratio: cpu(after) / cpu(before) };
}

const med = (rows: readonly ChatTurnsRow[], f: (r: ChatTurnsRow) => number) => median(rows.map(f));

export function beforeTable(r: BeforeAfter, beforeRoot: string): string {
  const row = (name: string, rows: readonly ChatTurnsRow[]) =>
    `| ${name} | ${rows.map((x) => x.engine_cpu_ms_per_request.toFixed(3)).join(', ')} | ${med(rows, (x) => x.engine_cpu_ms_per_request).toFixed(3)} ` +
    `| ${med(rows, (x) => x.delivered_conversations_per_s).toFixed(0)} | ${med(rows, (x) => x.requests_per_s).toFixed(0)} ` +
    `| ${med(rows, (x) => x.dropped_share * 100).toFixed(1)} % |`;
  return [
    `chat-turns at ${r.rate} conversations/s for ${r.seconds} s on the built-in engine, alternating (before = ${beforeRoot}):`,
    '',
    '| checkout | engine CPU ms per request, each run | median | conversations/s delivered | requests/s | dropped |',
    '| --- | --- | --- | --- | --- | --- |',
    row('before', r.before),
    row('this one', r.after),
    '',
    `CPU per request, this checkout over before: ${r.ratio.toFixed(3)}`,
  ].join('\n');
}
