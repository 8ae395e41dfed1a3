import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { dialtoneInProcess as dialtone } from './in-process-cli.js';
import { syntheticHistory, writeHistory } from './synthetic-history.js';

// `dialtone verdict` judges the latest run of a history file again, as `dialtone load` judged it. The histories are
// synthetic (tests/synthetic-history.ts): a p95 near 100 ms with 5 % noise a night, one run a night from 2026-10-13.
let dir = '';
const file = (name: string) => join(dir, name);
/** Exactly one line on stderr: the usage errors' promise. */
const oneLine = (s: string) => expect(s.trim().split('\n')).toHaveLength(1);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dialtone-verdict-'));
  // Creeps 2 % a night from night 20 (2026-11-02) to night 60: the band walks along with it.
  writeHistory(file('creep.jsonl'), syntheticHistory({ seed: 7, nights: 61, creep: { from: 20, perNight: 0.02 } }));
  writeHistory(file('noise.jsonl'), syntheticHistory({ seed: 8, nights: 61 }));
  // The creep, then one smoke run (another workload) recorded after it, and a line that is not a run.
  const smoke = syntheticHistory({ seed: 9, nights: 1, workload: 'smoke' });
  writeFileSync(file('mixed.jsonl'), `${readFileSync(file('creep.jsonl'), 'utf8')}{"truncated":\n${JSON.stringify(smoke[0])}\n`);
  // Pinned as 1.4 at night 10, stepped up 20 % at night 40.
  writeHistory(file('tagged.jsonl'), syntheticHistory({ seed: 3, nights: 61, step: { at: 40, by: 1.2 }, tags: { 10: '1.4' } }));
  writeFileSync(file('empty.jsonl'), '\n');
});

describe('dialtone verdict', () => {
  it('exits 6 under --fail-on-regression on a history whose p95 crept 2 % a night, naming the night the drift started', async () => {
    const r = await dialtone(['verdict', '--history', file('creep.jsonl'), '--fail-on-regression']);
    expect(r.code, r.stderr).toBe(6);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(`chat-turns (nightly) on dialtone built-in engine v0.1.0, the run of 2026-12-12T02:17:00.000Z (${file('creep.jsonl')})`);
    // The band alone sees nothing: it walked along with the creep.
    expect(lines[1]).toBe('verdict: regressed against 14 earlier runs (3 of 3 metrics within their band, 1 drifted over 61 runs)');
    const started = /^ {2}regressed http_req_duration p95: drifted \+[\d.]+ % since night (2026-11-\d\d) \(run (\d+) of 61\), /.exec(lines[2] ?? '');
    expect(started, lines[2]).not.toBeNull();
    // The creep began on night 20 (run 21, 2026-11-02); the first change point comes a few nights into it.
    expect(Number(started?.[2])).toBeGreaterThanOrEqual(21);
    expect(Number(started?.[2])).toBeLessThanOrEqual(27);
    expect(started?.[1]).toBe(new Date(Date.UTC(2026, 9, 13 + Number(started?.[2]) - 1)).toISOString().slice(0, 10));
  });

  it('exits 0 on the same history without --fail-on-regression, still printing the verdict', async () => {
    const r = await dialtone(['verdict', '--history', file('creep.jsonl')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}regressed http_req_duration p95: drifted/m);
  });

  it('exits 0 on a history of pure noise, under --fail-on-regression too', async () => {
    const r = await dialtone(['verdict', '--history', file('noise.jsonl'), '--fail-on-regression']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')[1]).toBe('verdict: unchanged against 14 earlier runs (3 of 3 metrics within their band)');
  });

  it('judges the latest run of the workload asked for, else of the latest run, skipping lines that are not runs', async () => {
    const latest = await dialtone(['verdict', '--history', file('mixed.jsonl'), '--fail-on-regression']);
    expect(latest.code, latest.stderr).toBe(0);
    expect(latest.stdout).toContain('chat-turns (smoke) on dialtone built-in engine v0.1.0, the run of 2026-10-13T02:17:00.000Z');
    expect(latest.stdout).toContain('verdict: no baseline yet (0 earlier runs of this workload; 7 needed)');
    const nightly = await dialtone(['verdict', '--history', file('mixed.jsonl'), '--workload', 'nightly', '--fail-on-regression']);
    expect(nightly.code, nightly.stderr).toBe(6);
  });

  it('prints one line per pinned baseline, and the verdict as JSON with --json', async () => {
    const r = await dialtone(['verdict', '--history', file('tagged.jsonl'), '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.run).toMatchObject({ scenario: 'chat-turns', workload: 'nightly', started_at: '2026-12-12T02:17:00.000Z' });
    expect(out.verdict.status).toBe('regressed');
    expect(out.verdict.tags).toMatchObject([{ tag: '1.4', at: { run: 11, started_at: '2026-10-23T02:17:00.000Z' }, status: 'regressed' }]);
    const text = await dialtone(['verdict', '--history', file('tagged.jsonl')]);
    expect(text.stdout).toMatch(/^ {2}vs 1\.4 \(night 2026-10-23, run 11 of 61\): regressed: http_req_duration p95 \+[\d.]+ % /m);
  });

  it('refuses, with one line and exit 2, no history, a missing or empty one, and a workload it does not hold', async () => {
    const cases: [string[], string][] = [
      [[], 'dialtone: verdict: name the history file, e.g. dialtone verdict --history reports/load/chat-turns/history.jsonl'],
      [['--history', file('none.jsonl')], `dialtone: verdict: no history file at ${file('none.jsonl')}`],
      [['--history', dir], `dialtone: verdict: ${dir} is not a file`],
      [['--history', file('empty.jsonl')], `dialtone: verdict: ${file('empty.jsonl')} holds no runs`],
      [
        ['--history', file('mixed.jsonl'), '--workload', 'capacity'],
        `dialtone: verdict: no run of workload 'capacity' in ${file('mixed.jsonl')}; its workloads: 'nightly', 'smoke'`,
      ],
      [['--history', file('noise.jsonl'), 'extra'], "dialtone: verdict: unexpected argument 'extra'"],
    ];
    for (const [args, message] of cases) {
      const r = await dialtone(['verdict', ...args]);
      expect(r.code, message).toBe(2);
      oneLine(r.stderr);
      expect(r.stderr.trim()).toBe(message);
    }
  });

  it('refuses a --baseline-tag a shell would split before merging anything', async () => {
    const r = await dialtone(['merge', file('seg'), '--baseline-tag', 'my tag']);
    expect(r.code).toBe(2);
    oneLine(r.stderr);
    expect(r.stderr).toContain("merge: --baseline-tag must be 1 to 64 letters, digits, '.', '_', '+' or '-', starting with a letter or digit, got 'my tag'");
  });
});
