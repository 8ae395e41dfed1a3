// The gate's report files, shared by the plain gate and the gate under load (an interrupted one writes them too). Loaded
// before a run starts: after a Ctrl-C to the process group, tsx's esbuild service is gone and nothing more can load.
import { join } from 'node:path';
import type { Interruption } from '../load/interrupt.js';
import type { LoadedProfile } from '../profile/load.js';
import { conformancePage } from '../report/conformance-page.js';
import { writeIndexPage } from '../report/index-page.js';
import { junitXml } from '../report/junit.js';
import type { Results } from '../report/results.js';
import { writeReportFiles } from '../report/write.js';

/** The results of a gate a stop signal cut short: it fails, and says which rules got no finished case. */
export function interruptedResults(r: Results, cut: Interruption): Results {
  const notRun = r.rules.filter((x) => x.cases === 0 || r.cases.every((c) => c.rule !== x.id || c.outcome === 'skip')).map((x) => x.id);
  return {
    ...r,
    gate: 'fail',
    interrupted: { signal: cut.signal, at: cut.at, rules_not_run: notRun },
    errors: [
      ...r.errors,
      `interrupted by ${cut.signal} at ${cut.at}: ${r.cases.filter((c) => c.outcome !== 'skip').length} cases finished, ` +
        `${notRun.length} rules got no finished case`,
    ],
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
