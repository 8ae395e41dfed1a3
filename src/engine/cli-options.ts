// `k6 run`'s flags that set options and __ENV (/using-k6/k6-options/reference/, /using-k6/environment-variables/),
// and how they join the script's options: "command-line flags have the highest order of precedence"
// (/using-k6/k6-options/how-to/).
import { parseDuration } from '../core/duration.js';
import { checkTrendStats } from './metrics/sink.js';

/** What the flags asked for; undefined where a flag was not given. */
export interface K6Flags {
  /** `-e/--env K=V`, repeatable. */
  readonly env: Readonly<Record<string, string>>;
  /** `--include-system-env-vars`: k6 run passes the system's variables by default. */
  readonly includeSystemEnvVars: boolean;
  readonly vus: number | undefined;
  readonly duration: string | undefined;
  readonly iterations: number | undefined;
  /** `-s/--stage D:T`, repeatable, or comma-separated. */
  readonly stages: readonly { duration: string; target: number }[];
  readonly summaryTrendStats: readonly string[] | undefined;
  /** `--tag NAME=VALUE`, repeatable. */
  readonly tags: Readonly<Record<string, string>>;
  /** `--summary-mode`, `--no-summary` (v1's name for `disabled`). */
  readonly summaryMode: 'compact' | 'full' | 'disabled';
  /** `-v/--verbose`: console.debug prints. */
  readonly verbose: boolean;
  /** `--console-output FILE`: console.* lines go to the file, not to stderr. */
  readonly consoleOutput: string | undefined;
  /** `--secret-source KIND=CONFIG`, repeatable (/using-k6/secret-source/); K6_SECRET_SOURCE gives one more, first. */
  readonly secretSources: readonly string[];
  /** `-c/--config FILE`: options in JSON, under the script's ("defaults < config file < script options"). */
  readonly config: string | undefined;
  /** `--insecure-skip-tls-verify`: insecureSkipTLSVerify from the command line. */
  readonly insecureSkipTlsVerify: boolean | undefined;
}

export const NO_FLAGS: K6Flags = {
  env: {},
  includeSystemEnvVars: true,
  vus: undefined,
  duration: undefined,
  iterations: undefined,
  stages: [],
  summaryTrendStats: undefined,
  tags: {},
  summaryMode: 'compact',
  verbose: false,
  consoleOutput: undefined,
  secretSources: [],
  config: undefined,
  insecureSkipTlsVerify: undefined,
};

/** The flags that take a value, by every name k6 gives them, and what each does with it. */
const VALUED: Readonly<Record<string, (f: Mutable, v: string) => void>> = {
  '-e': (f, v) => Object.assign(f.env, pair(v, '--env')),
  '--env': (f, v) => Object.assign(f.env, pair(v, '--env')),
  '-u': (f, v) => (f.vus = whole(v, '--vus')),
  '--vus': (f, v) => (f.vus = whole(v, '--vus')),
  '-d': (f, v) => (f.duration = duration(v, '--duration')),
  '--duration': (f, v) => (f.duration = duration(v, '--duration')),
  '-i': (f, v) => (f.iterations = whole(v, '--iterations')),
  '--iterations': (f, v) => (f.iterations = whole(v, '--iterations')),
  '-s': (f, v) => addStages(f, v),
  '--stage': (f, v) => addStages(f, v),
  '--summary-trend-stats': (f, v) => (f.summaryTrendStats = trendStats(v)),
  '--tag': (f, v) => Object.assign(f.tags, pair(v, '--tag')),
  '--summary-mode': (f, v) => (f.summaryMode = summaryMode(v)),
  '--console-output': (f, v) => (f.consoleOutput = v),
  '--secret-source': (f, v) => f.secretSources.push(v),
  '-c': (f, v) => (f.config = v),
  '--config': (f, v) => (f.config = v),
};

/** Boolean flags; `--name=false` turns one off. */
const SWITCHES: Readonly<Record<string, (f: Mutable, on: boolean) => void>> = {
  '--include-system-env-vars': (f, on) => (f.includeSystemEnvVars = on),
  '--no-summary': (f, on) => (f.summaryMode = on ? 'disabled' : 'compact'),
  '-v': (f, on) => (f.verbose = on),
  '--verbose': (f, on) => (f.verbose = on),
  '--insecure-skip-tls-verify': (f, on) => (f.insecureSkipTlsVerify = on),
};

type Mutable = { -readonly [K in keyof K6Flags]: K6Flags[K] } & {
  env: Record<string, string>;
  tags: Record<string, string>;
  stages: { duration: string; target: number }[];
  secretSources: string[];
  /** The stages came from K6_STAGES: the first --stage replaces them. */
  stagesFromEnv?: boolean;
};

/** A fresh set of flags to fill. */
export function newFlags(): Mutable {
  return { ...NO_FLAGS, env: {}, tags: {}, stages: [], secretSources: [] };
}

function addStages(f: Mutable, v: string): void {
  if (f.stagesFromEnv) {
    f.stages = [];
    f.stagesFromEnv = false;
  }
  f.stages.push(...stages(v));
}

/** The K6_* variables that set these options, and the flag whose value each is. */
const ENV_FLAGS: Readonly<Record<string, string>> = {
  K6_VUS: '--vus',
  K6_DURATION: '--duration',
  K6_ITERATIONS: '--iterations',
  K6_STAGES: '--stage',
  K6_SUMMARY_TREND_STATS: '--summary-trend-stats',
  K6_SUMMARY_MODE: '--summary-mode',
  K6_NO_SUMMARY: '--no-summary',
  K6_INCLUDE_SYSTEM_ENV_VARS: '--include-system-env-vars',
  K6_CONSOLE_OUTPUT: '--console-output',
  // k6 PR #5724: "K6_SECRET_SOURCE is treated as a single complete source spec — equivalent to one --secret-source flag".
  K6_SECRET_SOURCE: '--secret-source',
  K6_CONFIG: '--config',
};

/**
 * Flags filled from the K6_* variables of `env`, for the command line's flags to go over: "k6 uses the environment
 * variable (if set)" after the script's options, then "the value from the CLI flag (if set)" (options how-to).
 * A bad value is a one-line error naming the variable.
 *
 * @example
 * flagsFromEnv({ K6_ITERATIONS: '120' }).iterations; // 120
 */
export function flagsFromEnv(env: Readonly<Record<string, string | undefined>>): Mutable {
  const f = newFlags();
  for (const [name, flag] of Object.entries(ENV_FLAGS)) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    try {
      takeFlag(f, [`${flag}=${v}`], 0);
    } catch (e) {
      throw new Error(`${name}: ${(e as Error).message}`);
    }
  }
  f.stagesFromEnv = f.stages.length > 0;
  return f;
}

/**
 * Reads `argv[i]` if it is one of these flags (and its value, `--name=v` or the next argument); returns how many
 * arguments it took, 0 when it is not one of them. Throws a one-line error for a bad value.
 *
 * @example
 * const f = newFlags(); takeFlag(f, ['-e', 'HOST=x'], 0); // 2, f.env = { HOST: 'x' }
 */
export function takeFlag(f: Mutable, argv: readonly string[], i: number): number {
  const arg = argv[i] as string;
  const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
  const name = eq > 0 ? arg.slice(0, eq) : arg;
  const valued = VALUED[name];
  if (valued) {
    const v = eq > 0 ? arg.slice(eq + 1) : argv[i + 1];
    if (v === undefined) throw new Error(`${name} needs a value`);
    valued(f, v);
    return eq > 0 ? 1 : 2;
  }
  const sw = SWITCHES[name];
  if (sw) {
    const v = eq > 0 ? arg.slice(eq + 1) : 'true';
    if (v !== 'true' && v !== 'false') throw new Error(`${name} is true or false, got '${v}'`);
    sw(f, v === 'true');
    return 1;
  }
  return 0;
}

function pair(v: string, flag: string): Record<string, string> {
  const eq = v.indexOf('=');
  if (eq <= 0) throw new Error(`${flag} takes NAME=VALUE, got '${v}'`);
  return { [v.slice(0, eq)]: v.slice(eq + 1) };
}

function whole(v: string, flag: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) throw new Error(`${flag} must be a whole number ≥ 0, got '${v}'`);
  return n;
}

function duration(v: string, flag: string): string {
  try {
    if (parseDuration(v) < 0) throw new Error('negative');
  } catch {
    throw new Error(`${flag} must be a duration (30s, 1m30s), got '${v}'`);
  }
  return v;
}

/** `5s:10,5m:20`: stages of duration:target. */
function stages(v: string): { duration: string; target: number }[] {
  return v.split(',').map((s) => {
    const colon = s.lastIndexOf(':');
    if (colon <= 0) throw new Error(`--stage takes DURATION:TARGET (10s:100), got '${s}'`);
    return { duration: duration(s.slice(0, colon), '--stage'), target: whole(s.slice(colon + 1), '--stage') };
  });
}

function trendStats(v: string): string[] {
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  checkTrendStats(list);
  return list;
}

function summaryMode(v: string): K6Flags['summaryMode'] {
  if (v === 'compact' || v === 'full' || v === 'disabled') return v;
  throw new Error(`--summary-mode is compact, full or disabled, got '${v}'`);
}

/**
 * `__ENV`: the system's variables (unless `--include-system-env-vars=false`), then the `-e` values over them
 * ("-e / --env … provides variables to the script"; it configures no option).
 */
export function scriptEnv(flags: K6Flags, system: NodeJS.ProcessEnv): Record<string, string> {
  const base = flags.includeSystemEnvVars ? (Object.fromEntries(Object.entries(system).filter(([, v]) => v !== undefined)) as Record<string, string>) : {};
  return { ...base, ...flags.env };
}

/**
 * The script's options with the flags over them. A flag among `--duration`, `--iterations`, `--stage` replaces every
 * execution shortcut and the `scenarios` of the script (said in the returned warning); `--vus` replaces `vus`, and
 * with nothing else to end the run gives N iterations shared among the N VUs (k6 v2.1, k6#5794).
 *
 * @example
 * withFlags({ scenarios: { … } }, { ...NO_FLAGS, vus: 10, duration: '30s' }).options; // { vus: 10, duration: '30s' }
 */
export function withFlags(script: Readonly<Record<string, unknown>>, flags: K6Flags): { options: Record<string, unknown>; warning?: string } {
  const o: Record<string, unknown> = { ...script };
  let warning: string | undefined;
  const shortcut = flags.duration !== undefined || flags.iterations !== undefined || flags.stages.length > 0;
  const scenarios = o.scenarios as Record<string, unknown> | undefined;
  const hasScenarios = scenarios !== undefined && Object.keys(scenarios).length > 0;
  if (shortcut && hasScenarios) {
    delete o.scenarios;
    warning = "the --duration, --iterations or --stage flags replace the script's scenarios";
  } else if (flags.vus !== undefined && hasScenarios) warning = "--vus sets no scenario's VUs: the script's scenarios set their own";
  if (shortcut) {
    delete o.duration;
    delete o.iterations;
    delete o.stages;
    if (flags.duration !== undefined) o.duration = flags.duration;
    if (flags.iterations !== undefined) o.iterations = flags.iterations;
    if (flags.stages.length > 0) o.stages = flags.stages.map((s) => ({ ...s }));
  }
  if (flags.vus !== undefined) {
    o.vus = flags.vus;
    if (o.duration === undefined && o.iterations === undefined && o.stages === undefined && !hasScenarios) o.iterations = flags.vus;
  }
  if (flags.summaryTrendStats) o.summaryTrendStats = [...flags.summaryTrendStats];
  if (Object.keys(flags.tags).length > 0) o.tags = { ...flags.tags };
  if (flags.insecureSkipTlsVerify !== undefined) o.insecureSkipTLSVerify = flags.insecureSkipTlsVerify;
  return warning ? { options: o, warning } : { options: o };
}
