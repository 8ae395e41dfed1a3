import { relative, resolve } from 'node:path';
import { engineName } from '../../core/engine-version.js';
import { EXIT } from '../../errors.js';
import type { EngineChoice } from '../../load/engine.js';
import { type Interruption, interruption, onInterrupt } from '../../load/interrupt.js';
import type { LoadedProfile } from '../../profile/load.js';
import type { DefectId } from '../../reference-target/defects.js';
import type { Results } from '../../report/results.js';
import { interruptedResults, writeGateReport } from '../gate-report.js';
import { usableReportDir } from '../report-dir.js';
import { ROOT } from '../root.js';
import { catchInterruptsDrawing } from '../stop-signals.js';
import { openTarget } from '../target-session.js';

/**
 * `dialtone conformance --under-load SCENARIO@RATE`: the gate idle, then while the scenario holds
 * the target at RATE. Exit 0 when both gates pass, 1 when a rule failed in either, 5 when the idle gate passed but the
 * engine completed less than 90 % of RATE while the gate ran (the load was not delivered).
 */
export async function conformanceUnderLoad(request: {
  underLoad: string;
  target?: string | undefined;
  only?: string | undefined;
  reportDir?: string | undefined;
  defects: DefectId[];
  /** --engine: the user's k6 or the built-in engine (default: DIALTONE_ENGINE, then auto). */
  engine?: EngineChoice | undefined;
  /** --dashboard: the live dashboard of the load (src/load/dashboard/). */
  dashboard?: boolean | undefined;
}): Promise<number> {
  const [{ parseUnderLoad, gateUnderLoad, DELIVERED_SHARE }, { planAgainst, planLoad }, { EXIT_LOAD_NOT_DELIVERED }] = await Promise.all([
    import('../../capacity/under-load.js'),
    import('../../load/plan.js'),
    import('../../load/delivery.js'),
  ]);
  const { scenario, rate } = parseUnderLoad(request.underLoad);
  // Before the target is probed or started: the scenario, the live refusal, the profile's expectations, the engine
  // (--engine k6 without a k6 stops here, exit 3, saying how to install one).
  const plan = planLoad({ command: 'conformance --under-load', root: ROOT, scenario, workload: 'nightly', target: request.target, engine: request.engine });
  const reportDir = usableReportDir(request.reportDir);
  const { dashboardOfRun } = await import('../../load/dashboard/open.js');
  const dashboard = await dashboardOfRun(request.dashboard, plan.engine.kind, `conformance under load (${scenario} at ${rate}/s)`);
  let reportFile: string | undefined;
  const { SuiteRunner } = await import('../../suite/run.js');
  const session = await openTarget(plan.loaded, request.defects);
  const runner = await SuiteRunner.create(ROOT);
  // A stop signal cancels the gate it is in and stops the load; a gate cut short gives no verdict on either.
  await catchInterruptsDrawing();
  const stopped = new AbortController();
  const offInterrupt = onInterrupt(() => stopped.abort());
  let gates = 0;
  try {
    const ran = await gateUnderLoad({
      plan: planAgainst(plan, session.loaded),
      rate,
      reportDir,
      runSuite: () => {
        // Each gate's progress, as the plain gate prints it, named so the idle gate's lines are told from the other's.
        const label = gates++ === 0 ? 'idle' : 'under load';
        return runner.run(session.loaded, request.only, { signal: stopped.signal, progress: (line) => process.stderr.write(`${label}: ${line}\n`) });
      },
    }).catch((e: unknown) => {
      if (interruption()) return undefined;
      throw e;
    });
    const cut = interruption();
    if (!ran || cut) {
      if (ran && cut) await reportInterrupted(ran, cut, reportDir, session.loaded);
      else console.log(`conformance under load (${scenario} at ${rate}/s): interrupted by ${cut?.signal}; no verdict`);
      return EXIT.interrupted;
    }
    const { result } = ran;
    console.log(
      `conformance under load (${scenario} at ${rate}/s on ${engineName(result.engine)}, which held ${result.achieved_rate.toFixed(1)}/s) against ${session.loaded.profile.name}: idle gate ${result.idle_gate}, gate under load ${result.under_load_gate}`,
    );
    for (const id of result.failed_only_under_load) console.log(`  FAIL UNDER LOAD ${id} (passed idle)`);
    for (const id of result.failed_in_both) console.log(`  FAIL ${id} (idle too)`);
    console.log(`report: ${relative(process.cwd(), resolve(reportDir, 'conformance', 'under-load.html'))}`);
    reportFile = resolve(reportDir, 'conformance', 'under-load.html');
    if (result.idle_gate !== 'pass') return EXIT.failed;
    // A gate under a lighter load than asked is no verdict on that load, whatever it found.
    if (!result.load_delivered) {
      console.error(
        `dialtone: conformance: the load was not delivered: the engine held ${result.achieved_rate.toFixed(1)}/s of the ${rate}/s asked while the gate ran (at least ${DELIVERED_SHARE * 100} % needed)`,
      );
      return EXIT_LOAD_NOT_DELIVERED;
    }
    return result.under_load_gate === 'pass' ? EXIT.ok : EXIT.failed;
  } finally {
    await dashboard?.finish(reportFile);
    offInterrupt();
    await runner.close();
    await session.close();
  }
}

/**
 * A stop signal ended the gate under load: the gate it was in (or the one about to start, with no case finished) is
 * reported as the plain gate reports one, failing; under-load.json already holds what the load delivered until then.
 */
async function reportInterrupted(
  ran: { result: import('../../capacity/under-load.js').UnderLoadResult; idle: Results; underLoad: Results | undefined },
  cut: Interruption,
  reportDir: string,
  loaded: LoadedProfile,
): Promise<void> {
  const { result } = ran;
  const during = result.interrupted?.during ?? 'the idle gate';
  const gate = during === 'the idle gate' ? ran.idle : (ran.underLoad ?? noCaseRun(ran.idle));
  const results = interruptedResults(gate, cut);
  const dir = writeGateReport(reportDir, results, loaded);
  const load = result.measured_s > 0 ? `the load delivered ${result.achieved_rate.toFixed(1)}/s until then` : 'no load had started';
  console.log(
    `conformance under load (${result.scenario} at ${result.rate}/s): interrupted by ${cut.signal} during ${during}; ${load}; ${results.totals.pass} pass, ${results.totals.fail} fail, ${results.interrupted?.rules_not_run.length} rules not run; no verdict`,
  );
  console.log(`gate: fail; report: ${relative(process.cwd(), resolve(dir, 'index.html'))}, ${relative(process.cwd(), resolve(dir, 'under-load.html'))}`);
}

/** The gate under load before its first case: the idle gate's rules, none of them run. */
function noCaseRun(idle: Results): Results {
  return {
    ...idle,
    started_at: new Date().toISOString(),
    duration_ms: 0,
    cases: [],
    rules: idle.rules.map((r) => ({ ...r, cases: 0, outcome: r.outcome === 'uncovered' ? 'uncovered' : 'skip' })),
    totals: { pass: 0, fail: 0, skip: 0, observed: 0, uncovered: idle.totals.uncovered },
    errors: [],
  };
}
