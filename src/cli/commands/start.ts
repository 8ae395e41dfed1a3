import { relative, resolve } from 'node:path';
import { EXIT } from '../../errors.js';
import { defineCommand, parseCommand } from '../command.js';
import { REPORT_DIR_FLAG } from '../flags.js';
import { usableReportDir } from '../report-dir.js';
import { proofHolds, runConformance } from './conformance.js';
import { runLoadCommand } from './load.js';

export const spec = defineCommand({
  name: 'start',
  summary: 'the first run on a new machine: the reference target, the gate with its self-test, a short load',
  description: `The first run on a new machine: starts the reference target, runs the conformance suite with the
  defect self-test and a short chat-turns load run (on the user's k6 when installed, else the built-in engine), and
  writes DIR/index.html.`,
  flags: { 'report-dir': REPORT_DIR_FLAG },
  exits: {
    [EXIT.ok]: 'the gate passed, every defect was caught exactly and the load held its thresholds',
    [EXIT.failed]: 'a rule failed, a defect was not caught exactly, or the load did not hold',
    [EXIT.interrupted]: 'a signal stopped it: what ran is reported',
  },
});

/** Conformance (with self-test) then a smoke load run, against the reference target. */
export async function start(argv: string[]): Promise<number> {
  const { values } = parseCommand(spec, argv);
  const reportDir = usableReportDir(values['report-dir']);
  const { results } = await runConformance({ reportDir, selftest: true });
  // Stopped during the gate: nothing more starts.
  if (results.interrupted) return EXIT.interrupted;
  const loadCode = await runLoadCommand({ scenario: 'chat-turns', workload: 'smoke', reportDir });
  if (loadCode === EXIT.interrupted) return loadCode;
  const selftestOk = (results.selftest?.defects.every((d) => d.exact) ?? true) && proofHolds(results);
  console.log(`\nall reports: ${relative(process.cwd(), resolve(reportDir, 'index.html'))}`);
  return results.gate === 'pass' && selftestOk && loadCode === 0 ? EXIT.ok : EXIT.failed;
}
