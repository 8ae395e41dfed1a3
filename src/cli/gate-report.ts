// The gate's report files, shared by the plain gate and the gate under load (an interrupted one writes them too). Loaded
// before a run starts: after a Ctrl-C to the process group, tsx's esbuild service is gone and nothing more can load.
import { join } from 'node:path';
import type { Interruption } from '../load/interrupt.js';
import type { LoadedProfile } from '../profile/load.js';
import { conformancePage } from '../report/conformance-page.js';
import { writeIndexPage } from '../report/index-page.js';
import { junitXml } from '../report/junit.js';
import type { CaseResult, Results } from '../report/results.js';
import { writeReportFiles } from '../report/write.js';

/**
 * A case the stop signal cut: vitest reports it skipped with no reason (src/suite/aggregate.ts), where a case that
 * skips itself always names why.
 */
const unfinished = (c: CaseResult) => c.outcome === 'skip' && c.detail === 'skipped';

/**
 * The results of a gate a stop signal cut short: it fails, its cases are the ones that finished (a cut case is not
 * counted as skipped), and each rule with a case but no finished one is `not_run`, never skipped or covered.
 *
 * @example
 * interruptedResults(results, { signal: 'SIGINT', at }).totals; // { pass: 125, fail: 0, skip: 0, observed: 19, uncovered: 1, not_run: 352 }
 */
export function interruptedResults(r: Results, cut: Interruption): Results {
  const cases = r.cases.filter((c) => !unfinished(c));
  const finished = new Set(cases.map((c) => c.rule));
  const notRun = r.rules.filter((x) => x.outcome !== 'uncovered' && !finished.has(x.id)).map((x) => x.id);
  const cutRules = new Set(notRun);
  const count = (o: CaseResult['outcome']) => cases.filter((c) => c.outcome === o).length;
  return {
    ...r,
    gate: 'fail',
    cases,
    rules: r.rules.map((x) => (cutRules.has(x.id) ? { ...x, outcome: 'not_run' as const } : x)),
    totals: {
      pass: count('pass'),
      fail: count('fail'),
      skip: count('skip'),
      observed: count('observed'),
      uncovered: r.totals.uncovered,
      not_run: notRun.length,
    },
    interrupted: { signal: cut.signal, at: cut.at, rules_not_run: notRun },
    errors: [...r.errors, `interrupted by ${cut.signal} at ${cut.at}: ${cases.length} cases finished, ${notRun.length} rules got no finished case`],
  };
}

/** Writes DIR/conformance/{index.html,results.json,junit.xml} and the reports' index; returns the conformance folder. */
export function writeGateReport(reportDir: string, results: Results, loaded: LoadedProfile): string {
  const secrets = Object.values(loaded.secrets).filter((s): s is string => typeof s === 'string');
  const dir = join(reportDir, 'conformance');
  writeReportFiles(
    dir,
    { 'index.html': conformancePage(results), 'results.json': `${JSON.stringify(results, null, 2)}\n`, 'junit.xml': junitXml(results) },
    secrets,
  );
  writeIndexPage(reportDir);
  return dir;
}
