import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The longest line dialtone's code, comments, README.md, CONTRIBUTING.md and ARCHITECTURE.md may hold. */
export const MAX_LINE = 160;

/** Files the check reads: code in every language dialtone is written in, and the pages a newcomer reads first. */
const CHECKED = /\.(ts|tsx|mts|cts|js|mjs|cjs)$|^(README|CONTRIBUTING|ARCHITECTURE)\.md$/;

/**
 * Files that may keep some lines over the limit, each with how many at most. Nearly all are one template literal of a
 * page's markup or a report line, which cut by concatenation would read worse than it does long; src/cli, which
 * another change was rewriting when the limit came in, counts as one folder. A count may only go down: lower it,
 * or drop the file, when its lines get shorter.
 */
export const LONG_LINE_ALLOWANCE: Readonly<Record<string, number>> = {
  'scripts/bench-capacity.ts': 1,
  'scripts/bench-engine.ts': 1,
  'scripts/bench-sockets.ts': 1,
  'scripts/bench-voice.ts': 1,
  'scripts/bench.ts': 1,
  'scripts/soak.ts': 2,
  'src/capacity/headroom.ts': 1,
  'src/capacity/report.ts': 11,
  'src/capacity/search.ts': 2,
  'src/capacity/under-load.ts': 2,
  'src/capacity/wrapper.ts': 1,
  'src/cli/': 38,
  'src/clients/chat.ts': 1,
  'src/contract/exporter.ts': 1,
  'src/engine/blocking.test.ts': 1,
  'src/engine/blocking.ts': 2,
  'src/engine/metrics/outputs.test.ts': 1,
  'src/engine/modules/http/http.ts': 1,
  'src/engine/ran-as-written.ts': 1,
  'src/engine/run.test.ts': 4,
  'src/engine/run.ts': 1,
  'src/engine/threads.test.ts': 1,
  'src/fuzz/ws-frames.ts': 1,
  'src/load/delivery.test.ts': 3,
  'src/load/engine.ts': 1,
  'src/load/metric-tables.ts': 1,
  'src/load/page.ts': 6,
  'src/load/run-verdict.ts': 1,
  'src/load/timeline-file.test.ts': 3,
  'src/load/junit.ts': 1,
  'src/nightly/metrics.ts': 1,
  'src/nightly/trend-plots.ts': 3,
  'src/nightly/verdict.test.ts': 1,
  'src/nightly/verdict.ts': 1,
  'src/report/capacity-index.ts': 1,
  'src/report/conformance-page.ts': 13,
  'src/report/html.ts': 1,
  'src/report/index-page.ts': 3,
  'src/report/junit.ts': 1,
  'src/voice-client/page.ts': 1,
  'tests/contract.test.ts': 1,
  'tests/k6-corpus/execution.js': 1,
  'tests/layers.test.ts': 2,
  'tests/package-runs.test.ts': 1,
  'tests/traffic-roundtrip.test.ts': 1,
  'tests/voice-calls.test.ts': 1,
};

/** One line over the limit: where it is and how long. */
export interface LongLine {
  file: string;
  line: number;
  length: number;
}

/**
 * The lines of `text` longer than `max` characters (code points, so `·` or `→` counts once).
 *
 * @example
 * longLines('a.ts', `${'x'.repeat(161)}\nshort\n`) // [{ file: 'a.ts', line: 1, length: 161 }]
 */
export function longLines(file: string, text: string, max = MAX_LINE): LongLine[] {
  return text.split('\n').flatMap((l, i) => {
    const length = [...l].length;
    return length > max ? [{ file, line: i + 1, length }] : [];
  });
}

/**
 * The files under `root` the check reads: those git tracks, as a fresh clone holds them (a file still being written
 * counts once it is added), read as they are on disk.
 */
export function checkedFiles(root: string): string[] {
  const listed = execFileSync('git', ['ls-files', '--cached'], { cwd: root, encoding: 'utf8' });
  return [...new Set(listed.split('\n'))].filter((f) => CHECKED.test(f)).sort();
}

/** The allowance a file counts against: its own entry, else the first folder entry (ending in `/`) it lies under. */
function allowanceKey(file: string, allowance: Readonly<Record<string, number>>): string {
  return file in allowance ? file : (Object.keys(allowance).find((k) => k.endsWith('/') && file.startsWith(k)) ?? file);
}

/**
 * The allowances exceeded, each with its long lines: a file's own, or a folder's, counted over every file under it. A
 * file that is gone is skipped, since git still lists a deletion nobody committed yet.
 *
 * @example
 * overAllowance(root, ['src/cli/a.ts', 'src/b.ts'], { 'src/cli/': 2 }) // [[{ file: 'src/b.ts', line: 3, length: 170 }]] when b.ts has one
 */
export function overAllowance(root: string, files: readonly string[], allowance = LONG_LINE_ALLOWANCE): LongLine[][] {
  const byKey = new Map<string, LongLine[]>();
  for (const f of files) {
    let text: string;
    try {
      text = readFileSync(join(root, f), 'utf8');
    } catch {
      continue;
    }
    const key = allowanceKey(f, allowance);
    byKey.set(key, [...(byKey.get(key) ?? []), ...longLines(f, text)]);
  }
  return [...byKey].filter(([key, long]) => long.length > (allowance[key] ?? 0)).map(([, long]) => long);
}
