import { join, relative } from 'node:path';
import { ruleList } from '../../contract/index.js';
import { EXIT, UsageError } from '../../errors.js';
import { ENGINE_CHOICES, engineChoice } from '../../load/engine.js';
import { catchInterrupts, interruption, onInterrupt } from '../../load/interrupt.js';
import { scenarioNames } from '../../load/scenarios.js';
import type { Defect } from '../../reference-target/defect.js';
import { type DefectId, Defects } from '../../reference-target/defects.js';
import type { IssuedCredentials } from '../../reference-target/tenancy.js';
import { type DefectVerdict, type Results, type RuleProofRow, WAITS_REPORTED } from '../../report/results.js';
import { matchesGlob } from '../../suite/glob.js';
import { defineCommand, parseCommand } from '../command.js';
import { ENGINE_FLAG, LIVE_DASHBOARD_FLAG, REPORT_DIR_FLAG, TARGET_FLAG } from '../flags.js';
import { type Progress, startProgress, wallTime } from '../progress.js';
import { usableReportDir } from '../report-dir.js';
import { ROOT } from '../root.js';
import { defectIds, openTarget } from '../target-session.js';

export const spec = defineCommand({
  name: 'conformance',
  summary: 'runs the conformance suite: one case per documented rule, a JUnit file and a report',
  description: `Runs the conformance suite against the target and writes DIR/conformance/{index.html,results.json,junit.xml}.
  Without --target it starts the reference target on this machine.`,
  flags: {
    target: TARGET_FLAG,
    only: { type: 'string', value: 'GLOB', help: 'runs only the rules whose ids match (chat.*, agents.branch.create).' },
    'report-dir': REPORT_DIR_FLAG,
    defect: {
      type: 'string',
      multiple: true,
      value: 'ID',
      help: 'starts the reference target with this defect, to see the suite catch it (without --target).',
    },
    selftest: {
      type: 'boolean',
      help: 'also starts the reference target once per defect and checks the suite fails exactly the broken rules.',
    },
    slow: {
      type: 'boolean',
      help: 'also runs the real-time variants of the time-based rules (session expiry, access-token lifetime, outbound status retention), which wait as long as the documents say: the run takes about 2 h 15 min.',
    },
    'under-load': {
      type: 'string',
      value: 'SCENARIO@RATE',
      help: 'runs the gate idle, then again while the load scenario holds the target at RATE iterations per second, and lists the rules that passed idle but failed under load (DIR/conformance/under-load.html).',
    },
    engine: { ...ENGINE_FLAG, help: `with --under-load, the engine that holds the load. ${ENGINE_FLAG.help}` },
    dashboard: { ...LIVE_DASHBOARD_FLAG, help: `with --under-load, ${LIVE_DASHBOARD_FLAG.help}` },
  },
  exits: {
    [EXIT.ok]: 'no documented rule failed (and, with --selftest, every defect was caught exactly)',
    [EXIT.failed]: 'a documented rule failed, or a defect was not caught exactly',
    [EXIT.environment]: 'the target is unreachable',
    [EXIT.internal]: 'a fault in dialtone itself, never read as a failed rule: the gate is no verdict (set DIALTONE_DEBUG=1 for the stack)',
    [EXIT.loadNotDelivered]: 'under --under-load, the engine completed less than 90 % of RATE while the gate ran: a gate under a lighter load is no verdict',
    [EXIT.interrupted]: 'a signal stopped it: the cases that finished are reported and the gate fails',
  },
  accepts: () => ({ defects: Object.keys(Defects), scenarios: scenarioNames(ROOT), engines: ENGINE_CHOICES }),
});

export interface ConformanceOutcome {
  readonly results: Results;
  readonly reportDir: string;
  /** Why the target counts as gone mid-run (cases could not reach it and it still does not answer), if it does. */
  readonly targetDied?: string | undefined;
}

/** Runs the suite (and optionally the defect self-test), writes the reports, prints a summary. */
export async function conformance(argv: string[]): Promise<number> {
  const { values } = parseCommand(spec, argv);
  // Checked before anything starts: a filter that selects no rule, or a report directory that cannot be written.
  if (values.only !== undefined && !ruleList.some((r) => matchesGlob(r.id, values.only))) {
    throw new UsageError(`conformance: --only '${values.only}' selects no rule; rule ids look like chat.close.success-true`);
  }
  const engine = values.engine === undefined ? undefined : engineChoice(values.engine, 'conformance: --engine');
  if (engine !== undefined && values['under-load'] === undefined)
    throw new UsageError('conformance: --engine picks the engine of --under-load; give --under-load SCENARIO@RATE');
  if (values.dashboard && values['under-load'] === undefined)
    throw new UsageError('conformance: --dashboard shows the load of --under-load; give --under-load SCENARIO@RATE');
  if (values['under-load'] !== undefined) {
    const { conformanceUnderLoad } = await import('./conformance-under-load.js');
    return conformanceUnderLoad({
      underLoad: values['under-load'],
      target: values.target,
      only: values.only,
      reportDir: values['report-dir'],
      defects: defectIds(values.defect ?? []),
      engine,
      dashboard: values.dashboard,
    });
  }
  const reportDir = usableReportDir(values['report-dir']);
  const out = await runConformance({
    target: values.target,
    only: values.only,
    reportDir,
    defects: defectIds(values.defect ?? []),
    selftest: values.selftest ?? false,
    slow: values.slow ?? false,
  });
  if (out.results.interrupted) return EXIT.interrupted; // never green, and never read as a failed rule
  if (out.targetDied) return EXIT.environment; // a target that went away mid-run is an environment failure, not a verdict
  // A gate that checked nothing is no pass: every selected case was skipped (a profile without that surface, say).
  const t = out.results.totals;
  if (t.pass + t.fail + t.observed === 0) {
    const why = out.results.cases.find((c) => c.outcome === 'skip')?.detail;
    console.error(`dialtone: conformance: no case ran, so nothing was checked${why ? ` (every selected case was skipped: ${why})` : ''}`);
    return EXIT.usage;
  }
  return out.results.gate === 'pass' && (out.results.selftest?.defects.every((d) => d.exact) ?? true) && proofHolds(out.results) ? EXIT.ok : EXIT.failed;
}

/**
 * The self-test's wall time and its slowest defects, so a slow defect is seen where it costs: ` in 1 min 38 s; slowest:
 * a 20.3 s, …`. Defects run in lanes side by side, so their own times add up to more than the wall time.
 */
function selftestTimes(defects: readonly DefectVerdict[], wallMs: number | undefined): string {
  const timed = defects.filter((d) => d.duration_ms !== undefined).sort((a, b) => (b.duration_ms ?? 0) - (a.duration_ms ?? 0));
  const s = (ms = 0) => `${(ms / 1000).toFixed(1)} s`;
  const wall = wallMs === undefined ? '' : ` in ${wallTime(wallMs)} (wall time)`;
  if (timed.length === 0) return wall;
  return `${wall}; slowest: ${timed
    .slice(0, 3)
    .map((d) => `${d.id} ${s(d.duration_ms)}`)
    .join(', ')}`;
}

/** Every registered mutation that ran proved its rule (a rule whose case was skipped proves nothing either way). */
export function proofHolds(results: Results): boolean {
  return (results.proof?.rules ?? []).every((r) => !r.mutation || r.proven || r.skipped);
}

/** What else fails the command when the gate passes, for its last line: `; self-test: 1 of 90 defects not caught exactly`. */
function alsoFailed(results: Results): string {
  const s = results.selftest;
  const missed = s ? s.total - s.caught : 0;
  const unproven = (results.proof?.rules ?? []).filter((r) => r.mutation && !r.proven && !r.skipped).length;
  return [
    ...(missed > 0 && s ? [`; self-test: ${missed} of ${s.total} defects not caught exactly`] : []),
    ...(unproven > 0 ? [`; ${unproven} rule${unproven === 1 ? '' : 's'} not proven able to fail`] : []),
  ].join('');
}

export async function runConformance(request: {
  target?: string | undefined;
  only?: string | undefined;
  reportDir?: string | undefined;
  defects?: DefectId[];
  selftest?: boolean;
  /** Run the real-time variants of the time-based rules too (they wait as long as the documents say). */
  slow?: boolean;
}): Promise<ConformanceOutcome> {
  const reportDir = usableReportDir(request.reportDir);
  // The profile first, so a bad one is one line before vitest and the report writers load (about 2.5 s of CPU at every
  // start); they load once the arguments and the profile are known to be good.
  const session = await openTarget(request.target, request.defects ?? []);
  const [proof, { runSuite }, { runSelftest }, { interruptedResults, writeGateReport }] = await Promise.all([
    import('../../suite/proof.js'),
    import('../../suite/run.js'),
    import('../../suite/selftest.js'),
    import('../gate-report.js'),
  ]);
  if (request.slow) console.log('--slow: the real-time cases wait as long as the rules they check; each wait is announced with its end.');
  let results: Results;
  let targetDied: string | undefined;
  let proofRun: { rows: RuleProofRow[]; durationMs: number } = { rows: [], durationMs: 0 };
  let verdicts: DefectVerdict[] | undefined;
  // The defects of the surfaces the filter selects (the rules that match it are the gate's rules).
  const ids = (Object.keys(Defects) as DefectId[]).filter(
    (id) => !(Defects[id] as Defect).onlyUnderLoad && ruleList.some((r) => r.surface === Defects[id].surface && matchesGlob(r.id, request.only)),
  );
  // The self-test takes one more lane once the suite's own run and the mutation proof have ended (src/suite/selftest.ts).
  let suiteEnded = () => {};
  const suiteAndProofEnded = new Promise<void>((resolve) => {
    suiteEnded = resolve;
  });
  // The self-test's own progress and wall time: it runs for minutes, much of it after the suite's last line.
  let selftestProgress: Progress | undefined;
  let selftestWallMs: number | undefined;
  const defects = async (credentials?: IssuedCredentials) => {
    selftestProgress = startProgress('defect self-test', ids.length);
    const verdicts = await runSelftest(
      ROOT,
      ids,
      (v) => {
        selftestProgress?.tick();
        for (const u of v.beside_others ?? [])
          console.log(`  defect ${v.id}: ${u.rule} failed beside the other lanes, then held in a run of the defect by itself: ${u.detail}`);
        if (v.exact) return;
        console.log(`  defect ${v.id}: ${v.caught ? 'caught, but other rules failed too' : 'NOT caught'} (failed: ${v.failed_rules.join(', ') || 'none'})`);
        for (const u of v.unexpected ?? []) console.log(`    ${u.rule}: ${u.detail}`);
      },
      { ...(credentials ? { credentials } : {}), oneMoreLaneAfter: suiteAndProofEnded },
    );
    selftestWallMs = selftestProgress.end();
    return verdicts;
  };
  // Against the embedded reference target the defects' targets take its credentials, so every run shares one set of
  // secret values and the defects start at once, beside the suite and the mutation proof; against a profile's target
  // they run after both.
  const reference = session.reference?.context.credentials;
  // A stop signal cancels the suite: the cases that finished are reported, and nothing else starts. Caught before the
  // self-test starts: each suite runner it makes drops the signal handlers that appeared while vitest started.
  catchInterrupts();
  const early = request.selftest && reference ? defects(reference) : undefined;
  early?.catch(() => {}); // awaited below; this only keeps a failure meanwhile from going unhandled
  const stopped = new AbortController();
  const offInterrupt = onInterrupt(() => stopped.abort());
  try {
    results = await runSuite({
      root: ROOT,
      loaded: session.loaded,
      ...(request.only ? { only: request.only } : {}),
      slow: request.slow ?? false,
      // On a terminal the self-test's progress line is rewritten in place: a file's line goes above it.
      progress: (line) => (selftestProgress ? selftestProgress.note(line) : process.stderr.write(`${line}\n`)),
      signal: stopped.signal,
      // Against a target of its own (a profile) the cases mostly wait on the network: side by side. The embedded reference
      // target runs in this process, beside the self-test's lanes when asked: there they would only compete with it.
      concurrent: session.reference === undefined,
    });
    const cut = interruption();
    if (cut) results = interruptedResults(results, cut);
    else targetDied = await (await import('../../suite/target-died.js')).targetDied(results, session.loaded);
    if (request.selftest && !cut) {
      // The mutation proof runs against the target under test itself, a real environment included.
      const proofing = targetDied ? undefined : proof.runMutationProof(ROOT, session.loaded, request.only);
      proofRun = (await proofing) ?? proofRun;
      suiteEnded();
      verdicts = await (early ?? defects());
    }
  } finally {
    offInterrupt();
    selftestProgress?.end();
    suiteEnded(); // a suite that threw leaves no lane waiting for it
    await session.close();
  }
  if (verdicts) {
    const caught = verdicts.filter((v) => v.exact).length;
    results = { ...results, selftest: { defects: verdicts, caught, total: verdicts.length, mutation_score: verdicts.length ? caught / verdicts.length : 0 } };
    results = { ...results, proof: proof.summarizeProof(proof.withDefects(proofRun.rows, verdicts), proofRun.durationMs) };
  }
  const dir = writeGateReport(reportDir, results, session.loaded);
  const t = results.totals;
  console.log(
    `conformance against ${results.target.name}: ${t.pass} pass, ${t.fail} fail, ${t.skip} skip, ${t.observed} observed, ${t.uncovered} rules uncovered` +
      `${t.not_run === undefined ? '' : `, ${t.not_run} rules not run (interrupted)`} (${(results.duration_ms / 1000).toFixed(1)} s)`,
  );
  for (const [key, { field, label }] of Object.entries(WAITS_REPORTED)) {
    const wait = results.target[field];
    if (wait?.source === 'profile') console.log(`  ${label.toLowerCase()}: ${wait.ms} ms (the profile's waits.${key})`);
  }
  // A rule's real-time variant (--slow) says so in its title: name it, so its line differs from the control variant's.
  for (const c of results.cases.filter((x) => x.outcome === 'fail')) {
    console.log(`  FAIL ${c.rule}${c.title.includes(' in real time: ') ? ' (in real time)' : ''}: ${c.detail}`);
  }
  for (const e of results.errors) console.log(`  ERROR ${e.split('\n')[0]}`);
  if (results.selftest) {
    const s = results.selftest;
    const again = s.defects.filter((d) => d.beside_others !== undefined).length;
    console.log(
      `defect self-test: ${s.caught}/${s.total} defects caught exactly (mutation score ${(s.mutation_score * 100).toFixed(0)}%)${again ? `; ${again} run again by itself after other rules failed beside the other lanes` : ''}${selftestTimes(s.defects, selftestWallMs)}`,
    );
  }
  if (targetDied) console.log(targetDied);
  if (results.proof) for (const line of proof.proofLines(results.proof)) console.log(line);
  console.log(`gate: ${results.gate}${alsoFailed(results)}; report: ${relative(process.cwd(), join(dir, 'index.html')) || join(dir, 'index.html')}`);
  return { results, reportDir, targetDied };
}
