import { type DefectId, Defects } from '../reference-target/defects.js';
import { startTarget } from '../reference-target/server.js';
import { issueCredentials } from '../reference-target/tenancy.js';
import type { DefectVerdict } from '../report/results.js';
import { SuiteRunner } from './run.js';

/**
 * The defect self-test: for each defect, start the reference target with it, run the cases of its
 * surface, and check that exactly the rules the defect breaks failed.
 */
export async function runSelftest(
  root: string,
  ids: readonly DefectId[] = Object.keys(Defects) as DefectId[],
  onVerdict?: (v: DefectVerdict) => void,
): Promise<DefectVerdict[]> {
  const verdicts: DefectVerdict[] = [];
  // One vitest for every defect, and one set of credentials for every target it runs against.
  const runner = await SuiteRunner.create(root);
  const credentials = issueCredentials();
  try {
    for (const id of ids) {
      const defect = Defects[id];
      const target = await startTarget({ defects: [id], credentials });
      try {
        const results = await runner.run(target.loaded, `${defect.surface}.*`);
        const failed = [...new Set(results.cases.filter((c) => c.outcome === 'fail').map((c) => c.rule))].sort();
        const breaks = [...defect.breaks].sort();
        const verdict: DefectVerdict = {
          id,
          surface: defect.surface,
          description: defect.description,
          breaks,
          failed_rules: failed,
          caught: breaks.every((b) => failed.includes(b)),
          exact: JSON.stringify(failed) === JSON.stringify(breaks),
        };
        verdicts.push(verdict);
        onVerdict?.(verdict);
      } finally {
        await target.close();
      }
    }
  } finally {
    await runner.close();
  }
  return verdicts;
}
