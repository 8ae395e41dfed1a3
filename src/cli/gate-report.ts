// The gate's report files, shared by the plain gate and the gate under load (an interrupted one writes them too).
import { join } from 'node:path';
import type { Interruption } from '../load/interrupt.js';
import type { LoadedProfile } from '../profile/load.js';
import type { Results } from '../report/results.js';

/** The results of a gate a stop signal cut short: it fails, and says which rules got no finished case. */
export function interruptedResults(r: Results, cut: Interruption): Results {
  const notRun = r.rules.filter((x) => x.cases === 0 || r.cases.every((c) => c.rule !== x.id || c.outcome === 'skip')).map((x) => x.id);
  return {
    ...r,
    gate: 'fail',
    interrupted: { signal: cut.signal, at: cut.at, rules_not_run: notRun },
    errors: [
      ...r.errors,
      `interrupted by ${cut.signal} at ${cut.at}: ${r.cases.filter((c) => c.outcome !== 'skip').length} cases finished, ${notRun.length} rules got no finished case`,
    ],
  };
}

/** Writes DIR/conformance/{index.html,results.json,junit.xml} and the reports' index; returns the conformance folder. */
export async function writeGateReport(reportDir: string, results: Results, loaded: LoadedProfile): Promise<string> {
  const [{ conformancePage }, { writeIndexPage }, { junitXml }, { writeReportFiles }] = await Promise.all([
    import('../report/conformance-page.js'),
    import('../report/index-page.js'),
    import('../report/junit.js'),
    import('../report/write.js'),
  ]);
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
