// The engine's command line: the part of k6's that dialtone uses, with k6's flags and exit codes
// (/using-k6/k6-options/reference/, /get-started/running-k6/).
import { BUILTIN_ENGINE_VERSION } from '../core/engine-version.js';
import { flagsFromEnv, takeFlag } from './cli-options.js';
import type { EngineIo, SignalSource, StopEvent } from './run/io.js';
import { archiveEngine, EXIT, type RunArgs, runEngine } from './run.js';

const USAGE = `usage: dialtone-engine run [--quiet] [--no-color] [--summary-export FILE] [--out json=FILE|csv=FILE]... [--address HOST:PORT]
       [--execution-segment A:B --execution-segment-sequence S] [--no-thresholds] [--workers N]
       [-e K=V]... [-u VUS] [-d DURATION] [-i ITERATIONS] [-s DURATION:TARGET]... [--tag NAME=VALUE]...
       [--summary-trend-stats avg,p(99),…] [--summary-mode compact|full|disabled] [--no-summary]
       [--include-system-env-vars[=false]] [--console-output FILE] [--secret-source KIND=CONFIG]... [-v]
       [-c CONFIG.json] [--insecure-skip-tls-verify] SCRIPT
       dialtone-engine run ARCHIVE.tar [flags]
       dialtone-engine archive [-O archive.tar] [flags as for run] SCRIPT
       dialtone-engine version`;

/** Flags that take a value, by every name k6 gives them. */
const VALUED: Readonly<Record<string, keyof RunArgs>> = {
  '--summary-export': 'summaryExport',
  '--out': 'outs',
  '-o': 'outs',
  '--address': 'address',
  '-a': 'address',
  '--execution-segment': 'segment',
  '--execution-segment-sequence': 'sequence',
  '--workers': 'workers',
};
const SWITCHES: Readonly<Record<string, keyof RunArgs | null>> = {
  '--quiet': 'quiet',
  '-q': 'quiet',
  '--no-color': 'noColor',
  '--no-usage-report': null,
  '--no-thresholds': 'noThresholds',
};

/** Parses `run`'s arguments, over the K6_* variables of `env`; an Error with one line for anything else. */
export function parseRunArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): RunArgs {
  const flags = flagsFromEnv(env);
  const o: Record<string, unknown> = { quiet: false, outs: [], noThresholds: false, noColor: false };
  let script: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const took = takeFlag(flags, argv, i);
    if (took > 0) {
      i += took - 1;
      continue;
    }
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const valued = VALUED[name];
    if (valued) {
      const v = eq > 0 ? arg.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new Error(`${name} needs a value`);
      if (valued === 'outs') (o.outs as string[]).push(v);
      else if (valued === 'workers') {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`--workers must be a whole number from 1 to 64, got '${v}'`);
        o.workers = n;
      } else o[valued] = v;
    } else if (name in SWITCHES) {
      const key = SWITCHES[name];
      if (key) o[key] = true;
    } else if (arg.startsWith('-') && arg !== '-') throw new Error(`unknown flag ${arg}`);
    else if (script === undefined) script = arg;
    else throw new Error(`one script only, got '${script}' and '${arg}'`);
  }
  if (!script) throw new Error('run needs a script');
  const { stagesFromEnv: _, ...k6 } = flags;
  return { script, ...k6, ...o } as unknown as RunArgs;
}

/** Runs the engine's command line; resolves its exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'version' || command === '--version') {
    console.log(`dialtone-engine ${BUILTIN_ENGINE_VERSION} (k6 JavaScript API, k6 v2.2 semantics)`);
    return 0;
  }
  if (command === 'archive') return archiveCommand(rest);
  if (command !== 'run') {
    console.error(command === undefined || command === 'help' || command === '--help' ? USAGE : `unknown command '${command}'\n${USAGE}`);
    return command === undefined || command === 'help' || command === '--help' ? 0 : EXIT.invalidConfig;
  }
  let args: RunArgs;
  try {
    args = parseRunArgs(rest);
  } catch (e) {
    console.error(`dialtone-engine: ${(e as Error).message}\n${USAGE}`);
    return EXIT.invalidConfig;
  }
  return runEngine(args, processIo());
}

/**
 * `archive [-O FILE] [run's flags] SCRIPT`: k6's archive command (`-O`/`--archive-out`, default archive.tar), the
 * run's option flags recorded in the archive's options.
 */
async function archiveCommand(argv: readonly string[]): Promise<number> {
  let out = 'archive.tar';
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-O' || arg === '--archive-out') out = argv[++i] ?? '';
    else if (arg.startsWith('--archive-out=')) out = arg.slice('--archive-out='.length);
    else rest.push(arg);
  }
  let args: RunArgs;
  try {
    if (!out) throw new Error('-O needs a file name');
    args = parseRunArgs(rest);
  } catch (e) {
    console.error(`dialtone-engine: ${(e as Error).message.replace(/^run needs/, 'archive needs')}\n${USAGE}`);
    return EXIT.invalidConfig;
  }
  return archiveEngine(args, out, processIo());
}

/**
 * The process's signals as a run's signal source; `disconnect` only where the process has an IPC channel to lose (one
 * already lost counts at once), and that channel no longer keeps the process alive.
 */
const processSignals: SignalSource = {
  on(event: StopEvent, listener: () => void) {
    if (event !== 'disconnect') return process.on(event, listener);
    if (process.channel === undefined) return process;
    process.on('disconnect', listener);
    process.channel.unref();
    if (!process.connected) listener();
    return process;
  },
  off: (event: StopEvent, listener: () => void) => process.off(event, listener),
};

/**
 * The engine's process as a run's outside world.
 *
 * @example
 * await runEngine(parseRunArgs(argv), processIo());
 */
export function processIo(): EngineIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    clock: { now: () => Date.now() },
    signals: processSignals,
    exitNow: (code) => process.exit(code),
    // A channel the starting process closed takes nothing more: the run goes on without it.
    ...(process.send ? { send: (m: unknown) => void (process.connected && process.send?.(m, undefined, undefined, () => {})) } : {}),
  };
}
