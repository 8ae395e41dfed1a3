import { relative, resolve } from 'node:path';
import { growthLine } from '../../capacity/growth.js';
import { headroomLine, type ObservedPeak } from '../../capacity/headroom.js';
import { capacityVerdictLine } from '../../capacity/history.js';
import { closedModelOf } from '../../capacity/prepare.js';
import { perOf } from '../../capacity/result.js';
import { DEFAULT_SEARCH, type SearchOptions } from '../../capacity/search.js';
import type { StepResult } from '../../capacity/step.js';
import { closedWorkOf, SCENARIO_UNITS, searchDefaultsFor, unitOf } from '../../capacity/units.js';
import { EnvironmentError, EXIT, UsageError } from '../../errors.js';
import { dashboardOfRun } from '../../load/dashboard/open.js';
import { SCENARIO_DEFAULTS } from '../../load/defaults.js';
import { EXIT_LOAD_NOT_DELIVERED } from '../../load/delivery.js';
import { ENGINE_CHOICES, engineChoice, engineName } from '../../load/engine.js';
import { planAgainst, planLoad, planWith } from '../../load/plan.js';
import { scenarioNames } from '../../load/scenarios.js';
import { readModel } from '../../traffic/model-file.js';
import { defineCommand, parseCommand } from '../command.js';
import { durationSeconds } from '../flag-values.js';
import { ALLOW_LIVE_FLAG, ENGINE_FLAG, FAIL_ON_REGRESSION_FLAG, LIVE_DASHBOARD_FLAG, REPORT_DIR_FLAG, TARGET_FLAG } from '../flags.js';
import { startProgress } from '../progress.js';
import { usableReportDir } from '../report-dir.js';
import { ROOT } from '../root.js';
import { catchInterruptsDrawing } from '../stop-signals.js';
import { DEFAULT_TRAFFIC_FILE, LEARNED, learnedOf } from './learned.js';

/** Above this many of the scenario's units a second, a search against a target that is not the reference target asks first. */
export const LARGE_MAX_RATE = 50;

/** Each scenario's unit as the rate of a search counts it: `chat-turns conversations/s, …`. */
const unitsSentence = (): string =>
  Object.entries(SCENARIO_UNITS)
    .map(([name, u]) => `${name} ${u.unit}/s`)
    .join(', ');

/** A search against the reference target at a known capacity (chat=16 requests/s: about 2.3 conversations/s), as it printed. */
const CAPACITY_EXAMPLE = `$ npx dialtone capacity chat-turns --capacity chat=16 --start-rate 1 --precision 0.25 --step 6s --warmup 2s
step 0 (coarse) offered 1.00 conversations/s: throughput 1.00/s: SLOs held, dropped 0, VUs 1, engine CPU 0.21 cores
step 1 (coarse) offered 2.00 conversations/s: throughput 2.00/s: SLOs held, dropped 0, VUs 2, engine CPU 0.16 cores
step 2 (coarse) offered 4.00 conversations/s: throughput 1.25/s: SLOs broke, dropped 0, VUs 17, engine CPU 0.13 cores
step 3 (refine) offered 3.00 conversations/s: throughput 1.50/s: SLOs broke, dropped 0, VUs 9, engine CPU 0.16 cores
step 4 (refine) offered 2.50 conversations/s: throughput 1.75/s: SLOs held, dropped 0, VUs 6, engine CPU 0.13 cores
capacity chat-turns on dialtone built-in engine v0.1.0 against reference: Sustains 2.50 conversations/s with every SLO
  held; at 3.00/s the target broke http_req_duration{op:chat.respond} p(95)<500 (605.82); … The boundary lies between
  2.50 and 3.00 conversations/s (9.1 % either side of 2.75; one step each, the search's bracket).
capacity verdict: no baseline yet: 2.50 conversations/s is the first search of this scenario, target and engine kind
report: reports/capacity/chat-turns/index.html`;

/** A duration default as help writes it: whole minutes in minutes, else seconds. */
const inSeconds = (s: number): string => (s >= 60 && s % 60 === 0 ? `${s / 60}m` : `${s}s`);

/** The search options that are numbers (every one a flag sets). */
type NumericOption = { [K in keyof SearchOptions]-?: SearchOptions[K] extends number ? K : never }[keyof SearchOptions];

/**
 * A search flag's default as help says it, from the table the search reads (searchDefaultsFor): the generic value,
 * then each scenario's own where it differs.
 */
function searchDefault(field: NumericOption, text: (v: number) => string = String): string {
  const own = Object.keys(SCENARIO_UNITS).flatMap((name) => {
    const v = searchDefaultsFor(name)[field];
    return v === DEFAULT_SEARCH[field] ? [] : [`${name} ${text(v)}`];
  });
  return `${text(DEFAULT_SEARCH[field])}${own.length ? ` (${own.join(', ')})` : ''}`;
}

/** The scenarios --model closed accepts (those whose defaults declare a closed model), with their words. */
const CLOSED_SCENARIOS = Object.entries(SCENARIO_DEFAULTS).flatMap(([name, d]) =>
  d.closedModel ? [{ name, model: d.closedModel, work: closedWorkOf(name) }] : [],
);

/** --model's help: what each closed-model scenario holds and its work's default pace, from each one's declaration (scenarios/NAME.scenario.ts). */
function closedModelHelp(): string {
  const each = CLOSED_SCENARIOS.map(({ name, model, work }) => `${name} holds ${work.held}, ${work.pace(model.sockets, model.messageRate)} by default`);
  const how = 'each VU holds one for the whole step, its work asked at --message-rate';
  const holds = 'a step holds when its SLOs hold and the work answered keeps up with the work asked';
  return `closed searches how many are held at once, not an arrival rate: ${how}, and ${holds}. ${each.join('; ')}; other scenarios have no closed model.`;
}

/** --message-rate's help: what the rate counts for each closed-model scenario. */
const messageRateHelp = (): string =>
  `with --model closed, the pace of each held one's work: ${CLOSED_SCENARIOS.map(({ name, work }) => `${work.rate} for ${name}`).join(', ')}.`;

/** --message-rate's default: each closed-model scenario's own. */
const closedMessageRates = (): string => CLOSED_SCENARIOS.map(({ name, model }) => `${model.messageRate} for ${name}`).join(', ');

export const spec = defineCommand({
  name: 'capacity',
  summary: 'finds the highest arrival rate at which every SLO of a scenario holds, and who limited it',
  positionals: 'SCENARIO',
  description: `Finds the highest arrival rate at which every SLO of the scenario holds: steps at a constant rate,
  multiplied by --factor until one breaks, then bisected to --precision. Each step runs --step long, its first --warmup
  is discarded, and the engine gives running iterations --graceful-stop to finish. The rate is in the scenario's own
  unit, one iteration each: ${unitsSentence()}. Each flag's default is the generic one, then each scenario's own where
  its iterations need another; a closed-model search (--model closed) and a learned one (--workload learned) have
  defaults of their own. Against a shared environment (staging), every step is real load on everything that shares it:
  set --max-rate to what it may take; above ${LARGE_MAX_RATE} a second against a target that is not the reference
  target, the search asks first (--yes confirms). With --traffic FILE, a model learned from the platform's records, it
  also says when the traffic's growth reaches the capacity found, a date with its range. Writes
  DIR/capacity/SCENARIO/{index.html,capacity.json,steps.csv}; docs/capacity.md says how to read them and plan from them.`,
  example: CAPACITY_EXAMPLE,
  flags: {
    target: TARGET_FLAG,
    engine: ENGINE_FLAG,
    'report-dir': REPORT_DIR_FLAG,
    'allow-live': ALLOW_LIVE_FLAG,
    dashboard: LIVE_DASHBOARD_FLAG,
    capacity: {
      type: 'string',
      multiple: true,
      value: 'SURFACE=N',
      help: '(only without --target) starts the reference target with that surface at a known capacity.',
    },
    'start-rate': { type: 'string', value: 'N', kind: 'positive-number', help: 'the first rate offered.', defaultText: searchDefault('startRate') },
    'max-rate': {
      type: 'string',
      value: 'N',
      kind: 'positive-number',
      help:
        "never offers more than this, in the scenario's units a second. Against a shared environment set it to what the environment may take: " +
        `above ${LARGE_MAX_RATE}, a search against a target that is not the reference target asks for confirmation (--yes gives it).`,
      defaultText: searchDefault('maxRate'),
    },
    yes: { type: 'boolean', help: `confirms a --max-rate above ${LARGE_MAX_RATE} against a target that is not the reference target, without asking.` },
    factor: { type: 'string', value: 'N', kind: 'number', above: 1, help: 'coarse steps multiply the rate by this.', defaultText: searchDefault('factor') },
    precision: {
      type: 'string',
      value: 'F',
      kind: 'positive-number',
      help: 'refinement stops once (broken - held) / held is at most this.',
      defaultText: searchDefault('precision'),
    },
    step: { type: 'string', value: 'DURATION', kind: 'duration', help: 'how long each step runs.', defaultText: searchDefault('stepSeconds', inSeconds) },
    warmup: {
      type: 'string',
      value: 'DURATION',
      kind: 'duration',
      help: 'the start of each step whose samples are left out.',
      defaultText: searchDefault('warmupSeconds', inSeconds),
    },
    'graceful-stop': {
      type: 'string',
      value: 'DURATION',
      kind: 'duration',
      help: 'how long the engine gives running iterations to finish at the end of a step.',
      defaultText: searchDefault('gracefulStopSeconds', inSeconds),
    },
    'max-steps': { type: 'string', value: 'N', kind: 'positive-integer', help: 'the step budget.', defaultText: searchDefault('maxSteps') },
    'max-time': {
      type: 'string',
      value: 'DURATION',
      kind: 'duration',
      help: 'the wall-time budget: no step starts after it is spent.',
      defaultText: searchDefault('maxSeconds', inSeconds),
    },
    'max-vus': { type: 'string', value: 'N', kind: 'positive-integer', help: 'the VUs a step may start at most.', defaultText: searchDefault('maxVUs') },
    repeats: {
      type: 'string',
      value: 'N',
      kind: 'integer',
      min: 0,
      max: 5,
      help: 'steps each boundary rate N more times once refined, going down one --precision when the rate that held breaks on a repeat; the report gives the interval the boundary lies in, and says when it is too wide to plan on (over 25 % of its low end).',
      defaultText: searchDefault('repeats'),
    },
    history: {
      type: 'string',
      value: 'FILE',
      help: "keeps one line per search and judges the capacity found against the median of the last 5 searches of the scenario against the same target on the same kind of engine: regressed when lower by more than 10 % (or the search's --precision, when coarser), improved when higher by as much.",
      defaultText: 'DIR/capacity/SCENARIO/history.jsonl',
    },
    'fail-on-regression': { ...FAIL_ON_REGRESSION_FLAG, help: 'exits 6 when the capacity regressed.' },
    model: {
      type: 'string',
      choices: ['open', 'closed'],
      help: closedModelHelp(),
      default: 'open',
    },
    'message-rate': {
      type: 'string',
      value: 'N',
      kind: 'positive-number',
      help: messageRateHelp(),
      defaultText: closedMessageRates(),
    },
    workload: {
      type: 'string',
      choices: [LEARNED],
      help: "learned (chat-turns) searches with the traffic model's conversations (--traffic), so the share compares like with like: the rate searched is conversations arriving, each turn waiting for the answer and a think time drawn from the model. Steps default to a warm-up of the model's p95 conversation duration (at most 2 min) and 30 s after it.",
    },
    traffic: {
      type: 'string',
      value: 'FILE',
      help:
        "(chat-turns) puts the busiest hour of a traffic model ('dialtone traffic learn') beside the capacity found: the share of what holds the SLOs it uses, across the boundary's interval; " +
        'and, from its daily peaks (14 whole days or more), when their growth reaches the capacity: a date with the range of a 95 % prediction interval, or ' +
        "why there is none (too few days, not growing beyond the days' spread, not within 365 days). With --workload learned, the model searched.",
      defaultText: `${DEFAULT_TRAFFIC_FILE} with --workload learned`,
    },
  },
  exits: {
    [EXIT.ok]: 'the search completed, whatever it found (the load generator may be the limit: the report says so)',
    [EXIT.environment]: 'Chromium or the target is missing (or k6, under --engine k6)',
    [EXIT.internal]: 'the search could not complete: a step the engine could not run, its step or time budget ran out before the knee, or an internal error',
    [EXIT_LOAD_NOT_DELIVERED]: 'under --workload learned, the load generator was the limit (the conversations asked were not delivered: no headroom)',
    [EXIT.regressed]: 'capacity regressed, under --fail-on-regression',
    [EXIT.interrupted]: 'a signal stopped the search: its finished steps are written, no capacity is claimed',
  },
  accepts: () => ({ scenarios: scenarioNames(ROOT), engines: ENGINE_CHOICES }),
});

/**
 * The busiest hour of a traffic model, its daily peaks and the records it was learned from, for the headroom and growth
 * lines; chat-turns only (its unit is a conversation).
 *
 * @example
 * observedPeak('chat-turns', 'traffic-model.json').daily_peaks?.length // 30
 */
export function observedPeak(scenario: string, file: string): ObservedPeak {
  if (scenario !== 'chat-turns') throw new UsageError(`capacity: --traffic sets conversations beside chat-turns' capacity, not ${scenario}'s`);
  const m = readModel(file, 'capacity: --traffic');
  return {
    file,
    busiest_hour_start: m.arrivals.busiest_hour.start,
    per_second: m.arrivals.busiest_hour.per_second,
    concurrency_peak: m.concurrency.peak,
    per_hour_of_day: m.arrivals.per_hour_of_day,
    daily_peaks: m.arrivals.daily_peaks,
    records: { base_url: m.source.base_url, since: m.source.since, until: m.source.until, conversations: m.source.conversations },
  };
}

/** The search's flags as the command took them (the declaration checked each), absent ones undefined. */
interface SearchFlags {
  readonly 'start-rate'?: number | undefined;
  readonly 'max-rate'?: number | undefined;
  readonly factor?: number | undefined;
  readonly precision?: number | undefined;
  readonly step?: string | undefined;
  readonly warmup?: string | undefined;
  readonly 'graceful-stop'?: string | undefined;
  readonly 'max-steps'?: number | undefined;
  readonly 'max-time'?: string | undefined;
  readonly 'max-vus'?: number | undefined;
  readonly repeats?: number | undefined;
}

/** The search options: each flag given, else the scenario's default; then the checks that relate two flags. */
function searchOptions(v: SearchFlags, defaults: SearchOptions): SearchOptions {
  const secs = (text: string | undefined, fallback: number) => (text === undefined ? fallback : durationSeconds(text));
  const o: SearchOptions = {
    ...defaults,
    startRate: v['start-rate'] ?? defaults.startRate,
    maxRate: v['max-rate'] ?? defaults.maxRate,
    factor: v.factor ?? defaults.factor,
    precision: v.precision ?? defaults.precision,
    stepSeconds: secs(v.step, defaults.stepSeconds),
    warmupSeconds: secs(v.warmup, defaults.warmupSeconds),
    gracefulStopSeconds: secs(v['graceful-stop'], defaults.gracefulStopSeconds),
    maxSteps: v['max-steps'] ?? defaults.maxSteps,
    maxSeconds: secs(v['max-time'], defaults.maxSeconds),
    maxVUs: v['max-vus'] ?? defaults.maxVUs,
    repeats: v.repeats ?? defaults.repeats,
  };
  if (o.warmupSeconds >= o.stepSeconds) throw new UsageError(`capacity: --warmup (${o.warmupSeconds}s) must be shorter than --step (${o.stepSeconds}s)`);
  if (o.startRate > o.maxRate) throw new UsageError(`capacity: --start-rate (${o.startRate}) is above --max-rate (${o.maxRate})`);
  return o;
}

/** --model and --message-rate: the closed model's message rate, or undefined for the open model (the default). */
function closedOf(scenario: string, model: string | undefined, rate: number | undefined): { messageRate: number } | undefined {
  if (model !== 'closed') {
    if (rate !== undefined) throw new UsageError('capacity: --message-rate needs --model closed');
    return undefined;
  }
  return { messageRate: rate ?? closedModelOf(scenario).messageRate };
}

/**
 * A step's load as the command prints it, in the scenario's own words (its declaration's unit): the arrival rate, or
 * (the closed model) what was held and its work a second, asked and answered.
 *
 * @example
 * offeredLine('voice-calls', true)(step); // 'held 20 calls (taking turns at 5.0/s, 4.8/s answered)'
 */
export function offeredLine(scenario: string, closed: boolean): (s: StepResult) => string {
  const { unit } = unitOf(scenario);
  const work = closedWorkOf(scenario);
  const held = closed ? work.held : unit;
  return (s) =>
    s.messages
      ? `held ${s.offered_rate} ${held} (${work.doing} ${s.messages.offered_per_s.toFixed(1)}/s, ${s.messages.answered_per_s.toFixed(1)}/s answered)`
      : s.conversations
        ? `asked ${s.offered_rate.toFixed(2)} conversations/s: started ${s.conversations.started_per_s.toFixed(2)}/s, completed ${s.conversations.completed_per_s.toFixed(2)}/s`
        : `offered ${s.offered_rate.toFixed(2)} ${unit}/s: throughput ${s.throughput.toFixed(2)}/s`;
}

/**
 * The confirmation a large --max-rate needs against a real environment, often a shared one: --yes, or a "y" typed at
 * the prompt on a terminal; without a terminal (CI) a one-line usage error says to pass --yes or lower --max-rate.
 *
 * @example
 * await confirmLargeRate('chat-turns', 1000, 'staging', false); // throws UsageError off a terminal
 */
export async function confirmLargeRate(scenario: string, maxRate: number, target: string, yes: boolean, tty = process.stdin.isTTY === true): Promise<void> {
  if (yes || maxRate <= LARGE_MAX_RATE) return;
  const { unit, requestsPerIteration } = unitOf(scenario);
  const requests = requestsPerIteration ? ` (about ${Math.round(maxRate * requestsPerIteration).toLocaleString('en-US')} requests/s)` : '';
  const what = `capacity: the search may offer up to ${maxRate} ${unit}/s${requests} to '${target}', which is not the reference target`;
  if (!tty) throw new UsageError(`${what}: pass --yes to go on, or a --max-rate of ${LARGE_MAX_RATE} or less`);
  const { createInterface } = await import('node:readline/promises');
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await prompt.question(`${what}; everything sharing it feels the load. Go on? [y/N] `);
  prompt.close();
  if (!/^y(es)?$/i.test(answer.trim()))
    throw new UsageError('capacity: not confirmed; nothing was sent (--yes confirms, a lower --max-rate needs no confirmation)');
}

/** Runs the capacity search for one scenario and prints one line per step and the verdict. */
export async function capacity(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(spec, argv);
  const [scenario, ...extra] = positionals;
  if (!scenario) throw new UsageError('capacity: name a scenario, e.g. dialtone capacity chat-turns');
  if (extra.length) throw new UsageError(`capacity: unexpected argument '${extra[0]}'`);
  // Before anything connects: the scenario, the live refusal, the profile's expectations and dialogues, the engine.
  const planned = planLoad({
    command: 'capacity',
    root: ROOT,
    scenario,
    // The nightly shape is the constant-arrival-rate one with no abort-on-fail; each step replaces its rate.
    workload: 'nightly',
    target: values.target,
    allowLive: values['allow-live'],
    engine: values.engine === undefined ? undefined : engineChoice(values.engine, 'capacity: --engine'),
  });
  const closed = closedOf(scenario, values.model, values['message-rate']);
  if (values.workload === LEARNED && closed)
    throw new UsageError('capacity: --workload learned is an open model (conversations arrive); leave out --model closed');
  const learned = values.workload === LEARNED ? learnedOf(scenario, { traffic: values.traffic }, 'capacity') : undefined;
  const search = {
    ...searchOptions(values, searchDefaultsFor(scenario, closed !== undefined, learned)),
    closed,
  };
  if (values.capacity?.length && values.target) throw new UsageError('capacity: --capacity sets up the reference target; it cannot be used with --target');
  const profile = planned.loaded?.profile;
  if (profile && profile.kind !== 'reference') await confirmLargeRate(scenario, search.maxRate, profile.name, values.yes ?? false);
  const [{ parseCapacity }, { SURFACES }] = await Promise.all([import('../../reference-target/capacity.js'), import('../../reference-target/surfaces.js')]);
  const known = parseCapacity(values.capacity ?? [], Object.keys(SURFACES));
  if ('error' in known) throw new UsageError(`capacity: ${known.error}`);
  const plan = learned ? planWith(planned, { overrides: { learned } }) : planned;
  const { engine } = plan;

  // A learned search always has its model's busiest hour to set beside what it finds.
  const observed = learned ? observedPeak(scenario, learned.file) : values.traffic === undefined ? undefined : observedPeak(scenario, values.traffic);
  const reportDir = usableReportDir(values['report-dir']);
  // From here a stop signal ends the search after the step it cut short; the finished steps are written.
  await catchInterruptsDrawing();
  const [{ runCapacity }, { capacityExit }, { verdict, noHeadroom }, { openTarget }, { startTarget }] = await Promise.all([
    import('../../capacity/run.js'),
    import('../../capacity/exit.js'),
    import('../../capacity/report.js'),
    import('../target-session.js'),
    import('../../reference-target/server.js'),
  ]);
  const dashboard = await dashboardOfRun(values.dashboard, engine.kind, `capacity ${scenario}`);
  let reportFile: string | undefined;
  const session = plan.loaded
    ? await openTarget(plan.loaded)
    : await startTarget({ capacity: known.settings }).then((t) => ({ loaded: t.loaded, close: () => t.close() }));
  // A step runs for 20 s to minutes with the engine quiet: the search says it is alive, its steps of the budget and its wall time.
  const offered = offeredLine(scenario, closed !== undefined);
  const steps = startProgress(`capacity ${scenario}: steps`, search.maxSteps, process.stdout);
  try {
    const { result, dir } = await runCapacity({
      plan: planAgainst(plan, session.loaded),
      reportDir,
      search,
      history: values.history,
      observed,
      onStep: (s) => {
        steps.tick();
        steps.note(
          `step ${s.index} (${s.stage}) ${offered(s)}: SLOs ${s.slo_held ? 'held' : 'broke'}, dropped ${s.dropped_iterations}, VUs ${s.vus_in_use}, engine CPU ${s.generator_cpu_cores?.toFixed(2) ?? 'n/a'} cores`,
        );
      },
    });
    steps.end();
    console.log(`capacity ${scenario} on ${engineName(engine)} against ${result.target}: ${verdict(result)}`);
    if (result.verdict) console.log(capacityVerdictLine(result.verdict, perOf(result)));
    const cap = result.analysis.max_sustainable_rate;
    if (result.headroom && cap !== null) console.log(headroomLine(result.headroom, result.unit, cap));
    if (result.headroom?.growth) console.log(growthLine(result.headroom.growth, result.unit, result.headroom.file));
    else if (observed) console.log(`headroom: none, ${noHeadroom(result)}`);
    console.log(`report: ${relative(process.cwd(), resolve(dir, 'index.html'))}`);
    reportFile = resolve(dir, 'index.html');
    const end = capacityExit(result, { learned: learned !== undefined, failOnRegression: values['fail-on-regression'] ?? false });
    if (end.error) console.error(`dialtone: capacity: ${end.error}`);
    return end.code;
  } catch (e) {
    if (e instanceof UsageError || e instanceof EnvironmentError) throw e;
    console.error(`dialtone: capacity: the search could not complete: ${(e as Error).message?.split('\n')[0] ?? e}`);
    return EXIT.internal;
  } finally {
    steps.end();
    await dashboard?.finish(reportFile);
    await session.close();
  }
}
