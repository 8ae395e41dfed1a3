import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { unitOf } from '../../capacity/units.js';
import { EXIT, UsageError } from '../../errors.js';
import { type LoadConfig, WORKLOADS, type WorkloadName } from '../../load/config.js';
import { dashboardOfRun } from '../../load/dashboard/open.js';
import { SCENARIO_DEFAULTS } from '../../load/defaults.js';
import { EXIT_LOAD_NOT_DELIVERED, loadVerdict } from '../../load/delivery.js';
import { ENGINE_CHOICES, type EngineChoice, engineChoice, engineName, engineOfRun } from '../../load/engine.js';
import { interruption } from '../../load/interrupt.js';
import { controlPlan, type LoadPlan, planAgainst, planLoad } from '../../load/plan.js';
import { scenarioNames } from '../../load/scenarios.js';
import { isScriptPath, scriptRunName } from '../../load/script-run.js';
import { failLines } from '../../load/summary.js';
import { controlLines } from '../../nightly/control.js';
import { type Verdict, verdictLines } from '../../nightly/verdict.js';
import { defineCommand, type FlagValues, parseCommand } from '../command.js';
import { orList } from '../flag-values.js';
import { ALLOW_LIVE_FLAG, ENGINE_FLAG, REPORT_DIR_FLAG, TARGET_FLAG } from '../flags.js';
import { usableReportDir } from '../report-dir.js';
import { ROOT } from '../root.js';
import { catchInterruptsDrawing } from '../stop-signals.js';
import { COMPRESS_FLAG, DEFAULT_TRAFFIC_FILE, LEARNED, learnedOf } from './learned.js';
import { exitWithVerdict, LOAD_EXTRA_FLAGS, loadExtrasOf, type ParsedExtras } from './load-extras.js';

export const spec = defineCommand({
  name: 'load',
  summary: 'runs a load scenario on k6 or the built-in engine and judges it by its SLOs and its history',
  positionals: 'SCENARIO|SCRIPT',
  description: `Bundles scenarios/SCENARIO.ts, runs it on the engine (the user's k6 when installed, else dialtone's built-in engine)
  and writes DIR/load/SCENARIO/. A profile whose environment is live is refused unless --allow-live is given.
  A path to a k6 script of your own (./quickstart.js) runs that script with its own options and hosts, on either
  engine, and writes DIR/load/quickstart.js/: its thresholds judged as SLOs, the page, JUnit, history and verdict.`,
  flags: {
    target: TARGET_FLAG,
    engine: ENGINE_FLAG,
    workload: {
      type: 'string',
      choices: [...WORKLOADS, LEARNED],
      help: `how hard the run pushes. learned (chat-turns) plays a traffic model ('dialtone traffic learn', --traffic), judged by the nightly SLOs: conversations arrive at the busiest hour's rate for --duration (default 1h), or with --compress N the whole day's hourly rates N times faster; each turn waits for the answer, then a think time drawn from the model.`,
      default: 'smoke',
    },
    traffic: { type: 'string', value: 'FILE', help: 'the traffic model --workload learned plays.', defaultText: DEFAULT_TRAFFIC_FILE },
    compress: COMPRESS_FLAG,
    'report-dir': REPORT_DIR_FLAG,
    'allow-live': ALLOW_LIVE_FLAG,
    rate: { type: 'string', value: 'N', kind: 'positive-integer', help: rateHelp() },
    duration: { type: 'string', value: 'DURATION', kind: 'duration', help: "replaces the workload's length." },
    'max-vus': {
      type: 'string',
      value: 'N',
      kind: 'positive-integer',
      help: 'caps the VUs an arrival-rate scenario may start.',
      defaultText: '5 per iteration per second asked, at most 1000',
    },
    'max-start-lag': {
      type: 'string',
      value: 'MS',
      kind: 'positive-number',
      help: `marks the generator behind schedule (exit ${EXIT_LOAD_NOT_DELIVERED}) when arrival-rate iterations started more than MS milliseconds late at p99 (the built-in engine's iteration_start_lag; the headline reports it on every such run). Refused on k6, which reports no start lag.`,
    },
    dashboard: {
      type: 'boolean',
      help: "on the built-in engine, serves a live dashboard on http://127.0.0.1:5665 while the run goes, the report page its final state (K6_WEB_DASHBOARD=true does too; K6_WEB_DASHBOARD_HOST, _PORT, _PERIOD, _EXPORT and _OPEN set it as for k6). On k6, exports k6's own web dashboard. On either engine, also keeps the samples the page's run over time is drawn from on a capacity, --rate or longer-than-15-minute run; other smoke and nightly runs keep them without it.",
    },
    ...LOAD_EXTRA_FLAGS,
    control: {
      type: 'boolean',
      help: "(with --target) first runs the same scenario and workload against the reference target on this machine, with its own history (DIR/control/, or the --history file's .control.jsonl sibling), and reads tonight's verdict beside the control's: a metric that regressed in both moved with the runner, not the product.",
    },
  },
  exits: {
    [EXIT.ok]: 'every threshold held on the load asked for',
    [EXIT.usage]: 'a usage or profile error, or a script the engine refused before it ran (its one line says why)',
    [EXIT.environment]: 'the target is missing (or k6, under --engine k6)',
    [EXIT_LOAD_NOT_DELIVERED]: "the thresholds held but the load was not delivered (iterations dropped, VUs exhausted, the generator's CPU saturated)",
    [EXIT.regressed]: 'a regression, under --fail-on-regression',
    [EXIT.thresholds]: "a threshold failed (k6's code)",
    [EXIT.interrupted]: 'SIGINT, SIGTERM or SIGHUP stopped it: the part that ran is reported, marked interrupted; a second signal stops at once',
  },
  accepts: () => ({ scenarios: scenarioNames(ROOT), workloads: [...WORKLOADS, LEARNED], engines: ENGINE_CHOICES }),
});

/** The flags that shape a scenario's run against a profile; a script has its own options and hosts. */
const SCENARIO_ONLY = ['target', 'allow-live', 'rate', 'max-vus', 'traffic', 'compress', 'control', 'segments'] as const;

/** `dialtone load ./script.js`: a user's own k6 script, run and reported as a scenario is (src/load/script-run.ts). */
async function loadScript(script: string, values: FlagValues<(typeof spec)['flags']>): Promise<number> {
  if (!existsSync(script)) throw new UsageError(`load: no script at '${script}' (a scenario is named without a path: ${scenarioNames(ROOT).join(', ')})`);
  const given = values as Record<string, unknown>;
  const scenarioOnly = SCENARIO_ONLY.find((f) => given[f] !== undefined && given[f] !== false);
  if (scenarioOnly) throw new UsageError(`load: --${scenarioOnly} is for dialtone's scenarios; a script sets its own load and hosts in its options`);
  const reportDir = usableReportDir(values['report-dir']);
  const extras = loadExtrasOf(values);
  const engine = engineOfRun({
    root: ROOT,
    engine: values.engine === undefined ? undefined : engineChoice(values.engine, 'load: --engine'),
    extras: extras.extras,
  });
  const { runScript } = await import('../../load/script-run.js');
  await catchInterruptsDrawing();
  const dashboard = await dashboardOfRun(values.dashboard, engine.kind, `load ${scriptRunName(script)}`);
  const ran = runScript({
    script,
    reportDir,
    engine,
    duration: values.duration,
    extras: extras.extras,
    dashboard: values.dashboard,
    maxStartLagMs: values['max-start-lag'],
  });
  // The report page is the dashboard's final state; a run that wrote none leaves the live page as it stood.
  const { exitCode, result, dir, verdict } = await ran.catch(async (e: unknown) => {
    await dashboard?.finish(undefined);
    throw e;
  });
  await dashboard?.finish(resolve(dir, 'index.html'));
  console.log(`load ${scriptRunName(script)} on ${engineName(engine)}: ${loadVerdict(exitCode)}`);
  for (const line of result.headline) console.log(`  ${line}`);
  for (const line of failLines(result.thresholds)) console.log(`  ${line}`);
  if (!extras.extras.segment) for (const line of verdictLines(verdict)) console.log(line);
  console.log(`report: ${relative(process.cwd(), resolve(dir, 'index.html'))}`);
  return exitWithVerdict(exitCode, verdict, extras.failOnRegression ?? false);
}

/** A workload name the declaration's choices let through (how hard a run pushes), or smoke; an unknown one is a usage error. */
export function workloadName(v: string | undefined): WorkloadName {
  const name = v ?? 'smoke';
  if (!(WORKLOADS as readonly string[]).includes(name)) throw new UsageError(`unknown workload '${name}'; known: ${WORKLOADS.join(', ')}`);
  return name as WorkloadName;
}

/**
 * --rate's help, worded from each scenario's own workloads and unit: an arrival-rate workload reads it as iterations
 * a second, one that runs a number of VUs as VUs at once (browsers for voice-browser).
 */
function rateHelp(): string {
  const byVus = (vus: boolean) =>
    Object.entries(SCENARIO_DEFAULTS)
      .filter(([, d]) => Object.values(d.workloads).some((w) => !w.executor.endsWith('arrival-rate')) === vus)
      .map(([name]) => `${unitOf(name).unit} for ${name}`);
  return (
    `replaces the workload's rate: iterations a second where it is an arrival rate (${orList(byVus(false))}), ` +
    `VUs at once where it runs a number of VUs (${orList(byVus(true))}).`
  );
}

/** Runs one load scenario and prints its headline. */
export async function load(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(spec, argv);
  const [scenario, ...extra] = positionals;
  if (!scenario) throw new UsageError('load: name a scenario, e.g. dialtone load chat-turns');
  if (extra.length) throw new UsageError(`load: unexpected argument '${extra[0]}'`);
  if (isScriptPath(scenario)) return loadScript(scenario, values);
  const { rate, 'max-vus': maxVUs, 'max-start-lag': maxStartLagMs } = values;
  if (values.control && !values.target)
    throw new UsageError('load: --control runs the reference target beside --target; without --target the run is the control');
  if (values.control && (values.segment !== undefined || values.segments !== undefined))
    throw new UsageError('load: --control is for a whole run on one machine, not with --segment or --segments');
  const learned = values.workload === LEARNED ? learnedOf(scenario, values) : undefined;
  if (!learned && (values.traffic !== undefined || values.compress !== undefined))
    throw new UsageError('load: --traffic and --compress go with --workload learned');
  return runLoadCommand({
    scenario,
    target: values.target,
    workload: learned ? 'nightly' : workloadName(values.workload),
    reportDir: values['report-dir'],
    allowLive: values['allow-live'] ?? false,
    overrides: rate || values.duration || maxVUs || learned ? { rate, duration: learned ? undefined : values.duration, maxVUs, learned } : undefined,
    dashboard: values.dashboard,
    maxStartLagMs,
    engine: values.engine === undefined ? undefined : engineChoice(values.engine, 'load: --engine'),
    control: values.control ?? false,
    ...loadExtrasOf(values),
  });
}

export async function runLoadCommand(
  asked: {
    scenario: string;
    target?: string | undefined;
    workload: WorkloadName;
    reportDir?: string | undefined;
    allowLive?: boolean;
    overrides?: LoadConfig['overrides'];
    dashboard?: boolean | undefined;
    /** --max-start-lag: the p99 iteration start lag, ms, above which the generator is behind schedule. */
    maxStartLagMs?: number | undefined;
    /** --engine; default DIALTONE_ENGINE, then auto. */
    engine?: EngineChoice | undefined;
    /** --control: run the reference target first, as the control (src/nightly/control.ts). */
    control?: boolean;
  } & Partial<ParsedExtras>,
): Promise<number> {
  // Before anything connects: the scenario, the live refusal, the profile's expectations and dialogues, the engine.
  const plan = planLoad({
    command: 'load',
    root: ROOT,
    scenario: asked.scenario,
    workload: asked.workload,
    target: asked.target,
    allowLive: asked.allowLive,
    engine: asked.engine,
    overrides: asked.overrides,
    extras: asked.extras,
    dashboard: asked.dashboard,
    maxStartLagMs: asked.maxStartLagMs,
  });
  const reportDir = usableReportDir(asked.reportDir);
  // Heavy modules (fastify, esbuild, faker) load only once the arguments are known to be good.
  const [{ runLoad }, { openTarget }] = await Promise.all([import('../../load/run-load.js'), import('../target-session.js')]);
  // From here a stop signal is the run's to handle: the engine stops, and what ran is written, marked interrupted.
  await catchInterruptsDrawing();
  const control = asked.control ? await controlRun(plan, reportDir) : undefined;
  const cut = interruption();
  if (cut) {
    console.log(`load ${asked.scenario} (${asked.workload}): interrupted by ${cut.signal} during the control run; the run itself did not start`);
    return EXIT.interrupted;
  }
  const dashboard = await dashboardOfRun(asked.dashboard, plan.engine.kind, `load ${asked.scenario} (${asked.workload})`);
  const session = await openTarget(plan.loaded);
  let reportFile: string | undefined;
  const early = interruption();
  if (early) {
    await dashboard?.finish(undefined);
    await session.close();
    console.log(`load ${asked.scenario} (${asked.workload}): interrupted by ${early.signal} before the run started`);
    return EXIT.interrupted;
  }
  try {
    const run = planAgainst(plan, session.loaded);
    const out = { reportDir, control: control?.verdict };
    const { engine } = plan;
    const { exitCode, result, dir, verdict } = asked.segments
      ? await (await import('../../load/segments.js')).runSegments(run, out, asked.segments)
      : await runLoad(run, out);
    console.log(`load ${asked.scenario} (${asked.workload}) on ${engineName(engine)} against ${result.target}: ${loadVerdict(exitCode)}`);
    for (const line of result.headline) console.log(`  ${line}`);
    if (result.expectations) console.log(`  SLOs: ${result.expectations.slo_set}`);
    // An interrupted run is neither passed nor failed: its thresholds are said as they stood when it stopped.
    for (const line of failLines(result.thresholds)) console.log(`  ${result.interrupted ? line.replace(/^FAIL /, 'failing when interrupted: ') : line}`);
    if (!asked.extras?.segment) for (const line of verdictLines(verdict)) console.log(line);
    if (result.control) for (const line of controlLines(result.control)) console.log(line);
    console.log(`report: ${relative(process.cwd(), resolve(dir, 'index.html'))}`);
    reportFile = resolve(dir, 'index.html');
    return exitWithVerdict(exitCode, verdict, asked.failOnRegression ?? false);
  } finally {
    await dashboard?.finish(reportFile);
    await session.close();
  }
}

/**
 * The control: the same scenario and workload against the reference target on this machine, recorded in a history of
 * its own and judged like any run. Its thresholds and exit code are its own business; only its verdict is read.
 */
async function controlRun(plan: LoadPlan, reportDir: string): Promise<{ verdict: Verdict }> {
  const [{ runLoad }, { openTarget }] = await Promise.all([import('../../load/run-load.js'), import('../target-session.js')]);
  const session = await openTarget(undefined);
  try {
    const own = plan.extras?.history;
    const history = own === undefined ? undefined : `${own.replace(/\.jsonl$/, '')}.control.jsonl`;
    const extras = { outs: [], segment: undefined, history, baselineTag: undefined };
    const { exitCode, verdict } = await runLoad(planAgainst(controlPlan(plan, extras), session.loaded), { reportDir: resolve(reportDir, 'control') });
    console.log(`control ${plan.scenario} (${plan.workload}) against the reference target: ${loadVerdict(exitCode)}`);
    return { verdict };
  } finally {
    await session.close();
  }
}
