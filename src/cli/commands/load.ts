import { relative, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { LOAD_PROFILES, type LoadConfig, type LoadProfileName } from '../../load/config.js';
import { checkScenario } from '../../load/scenarios.js';
import { verdictLines } from '../../nightly/verdict.js';
import { loadProfile } from '../../profile/load.js';
import { parse } from '../args.js';
import { usableReportDir } from '../report-dir.js';
import { ROOT } from '../root.js';
import { exitWithVerdict, LOAD_EXTRA_OPTIONS, LOAD_EXTRA_USAGE, loadExtrasOf, type ParsedExtras } from './load-extras.js';

export const usage = `dialtone load SCENARIO [--target PROFILE] [--profile smoke|nightly|capacity] [--report-dir DIR] [--allow-live] [--rate N] [--duration 30s] [--out OUTPUT]... [--history FILE] [--fail-on-regression] [--segments N | --segment i/N]
  Bundles scenarios/SCENARIO.ts, runs it with the pinned k6 and writes DIR/load/SCENARIO/.
  Exit 0 when every threshold held, 99 (k6's code) when one failed, 6 for a regression under --fail-on-regression, 2 for usage, 3 when k6 or the target is missing.
  A profile whose environment is live is refused unless --allow-live is given.
  --rate/--duration replace the profile's arrival rate (iterations per second) and length.
${LOAD_EXTRA_USAGE}`;

/** Parses a load profile name; an unknown one is a usage error listing the known ones. */
export function loadProfileName(v: string | undefined): LoadProfileName {
  const name = v ?? 'smoke';
  if (!(LOAD_PROFILES as readonly string[]).includes(name)) throw new UsageError(`unknown load profile '${name}'; known: ${LOAD_PROFILES.join(', ')}`);
  return name as LoadProfileName;
}

/** Runs one k6 scenario and prints its headline. */
export async function load(argv: string[]): Promise<number> {
  const { values, positionals } = parse(
    'load',
    argv,
    {
      target: { type: 'string' },
      profile: { type: 'string' },
      'report-dir': { type: 'string' },
      'allow-live': { type: 'boolean' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      ...LOAD_EXTRA_OPTIONS,
    },
    true,
  );
  const [scenario, ...extra] = positionals;
  if (!scenario) throw new UsageError('load: name a scenario, e.g. dialtone load chat-turns');
  if (extra.length) throw new UsageError(`load: unexpected argument '${extra[0]}'`);
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  if (rate !== undefined && !(Number.isInteger(rate) && rate > 0)) throw new UsageError(`load: --rate must be a positive integer, got '${values.rate}'`);
  if (values.duration !== undefined && !/^\d+(s|m|h)$/.test(values.duration)) {
    throw new UsageError(`load: --duration must look like 30s, 5m or 1h, got '${values.duration}'`);
  }
  return runLoadCommand({
    scenario,
    target: values.target,
    profile: loadProfileName(values.profile),
    reportDir: values['report-dir'],
    allowLive: values['allow-live'] ?? false,
    overrides: rate || values.duration ? { rate, duration: values.duration } : undefined,
    ...loadExtrasOf(values),
  });
}

export async function runLoadCommand(
  o: {
    scenario: string;
    target?: string | undefined;
    profile: LoadProfileName;
    reportDir?: string | undefined;
    allowLive?: boolean;
    overrides?: LoadConfig['overrides'];
  } & Partial<ParsedExtras>,
): Promise<number> {
  checkScenario(ROOT, o.scenario); // before starting anything: an unknown scenario is a usage error
  const reportDir = usableReportDir(o.reportDir);
  // Refuse live before touching the network: a config decision, not a reachability one.
  if (o.target && loadProfile(o.target).profile.environment === 'live' && !o.allowLive) {
    throw new UsageError(`refusing a load run against the live environment of '${o.target}'; pass --allow-live to do it on purpose`);
  }
  // Heavy modules (fastify, esbuild, faker) load only once the arguments are known to be good.
  const [{ runLoad }, { openTarget }] = await Promise.all([import('../../load/run.js'), import('../target-session.js')]);
  const session = await openTarget(o.target);
  try {
    const run = {
      root: ROOT,
      scenario: o.scenario,
      profile: o.profile,
      loaded: session.loaded,
      reportDir,
      allowLive: o.allowLive ?? false,
      overrides: o.overrides,
      extras: o.extras,
    };
    const { exitCode, result, dir, verdict } = o.segments ? await (await import('../../load/segments.js')).runSegments(run, o.segments) : await runLoad(run);
    console.log(`load ${o.scenario} (${o.profile}) against ${result.target}: ${result.passed ? 'thresholds held' : `threshold failed (k6 exit ${exitCode})`}`);
    for (const line of result.headline) console.log(`  ${line}`);
    for (const t of result.thresholds.filter((x) => !x.passed)) console.log(`  FAIL ${t.metric} ${t.expression} (value ${t.value ?? 'n/a'})`);
    if (!o.extras?.segment) for (const line of verdictLines(verdict)) console.log(line);
    console.log(`report: ${relative(process.cwd(), resolve(dir, 'index.html'))}`);
    return exitWithVerdict(exitCode, verdict, o.failOnRegression ?? false);
  } finally {
    await session.close();
  }
}
