import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startVitest } from 'vitest/node';
import type { LoadedProfile } from '../profile/load.js';
import { toCaseResults, toRuleResults, totalsOf } from '../report/aggregate.js';
import type { Results } from '../report/results.js';
import { ruleList } from '../spec/index.js';
import { PROFILE_ENV, secretEnv } from './context.js';
import { globToPattern, matchesGlob, surfacesOf } from './glob.js';
import { CollectingReporter } from './reporter.js';

export interface SuiteRun {
  /** Project root: where conformance/vitest.config.ts lives. */
  readonly root: string;
  readonly loaded: LoadedProfile;
  /** Rule-id glob; undefined runs every case. */
  readonly only?: string;
}

/** Writes the profile where vitest workers can read it, and exports its secrets to their environment. */
function handOver(loaded: LoadedProfile): void {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-'));
  const path = join(dir, 'profile.json');
  // Only references go to disk; the values travel in the environment the workers inherit.
  writeFileSync(path, JSON.stringify({ ...loaded.profile, env_file: undefined }), { mode: 0o600 });
  process.env[PROFILE_ENV] = path;
  Object.assign(process.env, secretEnv(loaded));
}

/**
 * Runs the conformance suite once against a profile and returns its results.
 *
 * @example
 * const results = await runSuite({ root, loaded, only: 'chat.*' });
 * results.gate // 'pass' | 'fail'
 */
export async function runSuite(run: SuiteRun): Promise<Results> {
  const started = Date.now();
  handOver(run.loaded);
  const collector = new CollectingReporter();
  const exitCode = process.exitCode;
  // Load only the case files of the surfaces the filter names: collecting every file costs seconds.
  const files = surfacesOf(run.only)?.map((surface) => `conformance/${surface}/`) ?? [];
  const vitest = await startVitest(
    'test',
    files,
    {
      root: run.root,
      config: join(run.root, 'conformance', 'vitest.config.ts'),
      watch: false,
      reporters: [collector],
      ...(run.only ? { testNamePattern: globToPattern(run.only) } : {}),
    },
    {},
  );
  await vitest?.close();
  process.exitCode = exitCode; // the gate decides the exit code, not vitest
  // Cases the name filter left out come back as skipped; they were not run, so they are not reported.
  const cases = toCaseResults(collector.cases).filter((c) => matchesGlob(c.rule, run.only));
  const rules = toRuleResults(
    ruleList.filter((r) => matchesGlob(r.id, run.only)),
    cases,
  );
  const totals = totalsOf(cases, rules);
  const p = run.loaded.profile;
  return {
    tool: 'dialtone',
    kind: 'conformance',
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    target: {
      name: p.name,
      kind: p.kind,
      environment: p.environment,
      hosts: Object.fromEntries(Object.entries(p.hosts).filter(([, v]) => v)) as Record<string, string>,
    },
    filter: run.only ?? null,
    gate: totals.fail > 0 || collector.errors.length > 0 ? 'fail' : 'pass',
    totals,
    cases,
    rules,
    errors: collector.errors,
  };
}
