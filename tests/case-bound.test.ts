// How long one conformance case may take is the platform's to say (the profile's waits.case_ms): against a platform whose
// every answer takes a second, a case that sends some dozens of requests in turn needs more than the default 30 s, and a
// bound that ran out must say which setting to raise. The reference target slowed on purpose (DIALTONE_TARGET_DELAY_MS)
// writes a bound for its delay into its profile, as it writes the agent reply wait for its latency.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELAY_ENV } from '../src/reference-target/latency.js';
import type { Results } from '../src/report/results.js';
import { targetInProcess } from './in-process-target.js';
import { dialtone } from './run-cli.js';

/** A case of two requests in turn (create, close): with every answer 300 ms late it takes at least 600 ms. */
const CASE = 'chat.close.success-true';
const DELAY_MS = 300;

describe("a conformance case's bound, from the profile", () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-case-bound-'));
  const profile = join(work, 'slow.json');
  let target: Awaited<ReturnType<typeof targetInProcess>> | undefined;

  beforeAll(async () => {
    process.env[DELAY_ENV] = String(DELAY_MS);
    try {
      target = await targetInProcess(profile);
    } finally {
      delete process.env[DELAY_ENV];
    }
  });
  afterAll(async () => {
    await target?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  const results = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance', 'results.json'), 'utf8')) as Results;

  it('is written by a slowed reference target for its delay: 30 s and 40 times the delay', () => {
    expect(JSON.parse(readFileSync(profile, 'utf8')).waits).toEqual({ case_ms: 30_000 + 40 * DELAY_MS });
  });

  it("fails a case that outlasts the bound the profile names, names waits.case_ms, and says the bound was the profile's", async () => {
    const tight = join(work, 'tight.json');
    writeFileSync(tight, JSON.stringify({ ...JSON.parse(readFileSync(profile, 'utf8')), waits: { case_ms: DELAY_MS } }));
    const dir = join(work, 'tight');
    const run = await dialtone(['conformance', '--target', tight, '--only', CASE, '--report-dir', dir], { timeoutMs: 120_000 });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const written = results(dir);
    const failed = written.cases.filter((c) => c.outcome === 'fail');
    expect(failed.map((c) => c.rule)).toEqual([CASE]);
    expect(failed[0]?.detail).toMatch(new RegExp(`${DELAY_MS} ms (ran out )?\\(waits\\.case_ms\\)`));
    expect(run.stdout).toContain(`case bound: ${DELAY_MS} ms (the profile's waits.case_ms)`);
    expect(written.target.case_wait).toEqual({ ms: DELAY_MS, source: 'profile' });
    expect(readFileSync(join(dir, 'conformance', 'index.html'), 'utf8')).toContain(`Case bound: ${DELAY_MS} ms (from the profile, <code>waits.case_ms</code>)`);
  });
});
