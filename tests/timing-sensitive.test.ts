import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TIMING_PROJECTS, TIMING_SENSITIVE } from './timing-sensitive.js';

const ROOT = join(import.meta.dirname, '..');

/** Every *.test.ts under src/ and tests/, relative to the root. */
function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

/** Files that name those commands only to see them refused before anything starts (usage errors, a missing k6). */
const REFUSED_BEFORE_STARTING = ['tests/cli-errors.test.ts', 'src/cli/flag-values.test.ts', 'tests/live-refusal.test.ts'];

/** What starts load whose outcome depends on time: a capacity search, the gate under load, the engine as a process. */
const STARTS_TIMED_LOAD = [/dialtone\(\s*\[\s*'capacity'/, /'--under-load'/, /runEngine(Process)?\(/];

describe('the timing-sensitive project', () => {
  it('lists only files that exist', () => {
    for (const f of TIMING_SENSITIVE) expect(existsSync(join(ROOT, f)), f).toBe(true);
  });

  it('has npm test run every project of its lists, so a lane added there is never left out of npm test', () => {
    const script = readFileSync(join(ROOT, 'scripts', 'test.mjs'), 'utf8');
    const run = [...script.matchAll(/vitest\('([^']+)'\)/g)].map((m) => m[1]);
    expect(Object.keys(TIMING_PROJECTS).filter((name) => !run.includes(name))).toEqual([]);
  });

  it('puts each file in one list only, so no file runs twice or beside itself', () => {
    expect(TIMING_SENSITIVE.filter((f, i) => TIMING_SENSITIVE.indexOf(f) !== i)).toEqual([]);
  });

  it('holds every test file that starts a capacity search, the gate under load or the engine as a process', () => {
    const outside = [...testFiles('src'), ...testFiles('tests')].filter(
      (f) => !TIMING_SENSITIVE.includes(f) && !REFUSED_BEFORE_STARTING.includes(f) && f !== 'tests/timing-sensitive.test.ts',
    );
    const starting = outside.filter((f) => STARTS_TIMED_LOAD.some((re) => re.test(readFileSync(join(ROOT, f), 'utf8'))));
    expect(starting).toEqual([]);
  });
});
