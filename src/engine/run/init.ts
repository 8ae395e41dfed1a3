// The init context, once, in the main thread: the script bundled, the VU that reads the options and custom metrics and
// later runs setup() and teardown(), and k6's header.
import { readFileSync } from 'node:fs';
import { formatDuration } from '../../core/duration.js';
import { scriptEnv, withFlags } from '../cli-options.js';
import { vuConsole } from '../console.js';
import { hostsLookup } from '../hosts.js';
import { type Bundle, bundleScript } from '../loader.js';
import { importsOf } from '../modules/descriptions.js';
import { moduleTable } from '../modules/index.js';
import { headerLine, maxVusOf, type ScenarioPlan, scheduledMs } from '../options.js';
import { compileScript, opener } from '../script.js';
import { type Part, parseSegment } from '../segments.js';
import { instanceReadings, type SharedCounters } from '../shared-counters.js';
import type { EngineTls, SampleSink } from '../types.js';
import { unimplementedOptions } from '../unimplemented-options.js';
import { errorText, type RunState, Vu } from '../vu.js';
import type { RunContext } from './context.js';
import { EXIT, Fatal, orFatal } from './exit-codes.js';
import { ForwardSink } from './forward-sink.js';

/** The script as every VU runs it, and the part of the run this instance runs. */
export interface Bundled {
  readonly code: string;
  /** What the script sends requests with (ran-as-written.ts). */
  readonly sends: readonly string[];
  readonly imports: readonly string[];
  readonly segment: Part;
  /** The local files and remote modules the bundle holds (an archive writes them). */
  readonly files: Bundle['files'];
  readonly remote: Bundle['remote'];
}

/** What the init context gave: its VU, the options and the trust they set, the script's environment. */
export interface Initialised extends Bundled {
  readonly vu0: Vu;
  readonly options: Record<string, unknown>;
  readonly tls: EngineTls;
  /** __ENV: the system's variables and the -e values (cli-options.ts). */
  readonly env: Record<string, string>;
  /** Where the init context's samples wait for the store. */
  readonly forward: ForwardSink;
  /** exec.instance in the init context, setup and teardown: what every worker counted, once they share counters. */
  readonly instance: { counters?: SharedCounters };
}

/** The TLS trust k6 would use: SSL_CERT_FILE replaces the system roots (Go reads it), K6_INSECURE_SKIP_TLS_VERIFY turns checks off. */
export function tlsFromEnv(env: NodeJS.ProcessEnv, options: Record<string, unknown>): EngineTls {
  const file = env.SSL_CERT_FILE;
  const insecure = env.K6_INSECURE_SKIP_TLS_VERIFY === 'true' || options.insecureSkipTLSVerify === true;
  return { ca: file ? readFileSync(file, 'utf8') : undefined, insecure };
}

/**
 * The options of a `--config` file: "Specify the config file in JSON format"; they sit under the script's ("defaults <
 * config file < script options < environment variables < command-line flags", options how-to). k6's 104 when the file
 * cannot be read or is not a JSON object.
 */
export function configFileOptions(path: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new Fatal(EXIT.invalidConfig, `--config ${path}: ${why}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Fatal(EXIT.invalidConfig, `--config ${path}: not a JSON object of options`);
  return parsed as Record<string, unknown>;
}

/**
 * Bundles the script and reads the execution segment: k6's 107 for a script that does not build, 104 for a bad segment.
 *
 * @example
 * const bundled = await bundle(run);
 */
export async function bundle(run: RunContext): Promise<Bundled> {
  let built: Bundle;
  try {
    built = await bundleScript(run.args.script, { env: run.io.env, modules: run.args.archive?.modules });
  } catch (e) {
    throw new Fatal(EXIT.scriptException, (e as Error).message);
  }
  const segment = orFatal(EXIT.invalidConfig, () => parseSegment(run.args.segment, run.args.sequence));
  return { ...built, imports: importsOf(built.code), segment };
}

/** The run's state as the script sees it in the init context, setup and teardown (exec.test.abort, fail, t0). */
function runState(run: RunContext, instance: { counters?: SharedCounters }): RunState {
  return Object.defineProperties(
    {
      t0: () => run.started,
      abort: (m?: string) => {
        run.outcome.aborted = m ?? 'aborted by the script';
        throw new Error(`test aborted${m ? `: ${m}` : ''}`);
      },
      fail: (m?: string) => {
        run.outcome.failed = m ?? 'failed by the script';
      },
    } as RunState,
    instanceReadings(() => instance.counters),
  );
}

/**
 * Runs the init context once: the VU that holds the options (the command line's flags over them) and later runs
 * setup() and teardown(). An init that throws is k6's 107; one that calls exec.test.abort() is 108.
 *
 * @example
 * const init = await initVu(run, await bundle(run));
 */
export async function initVu(run: RunContext, bundled: Bundled, hooks: { onOpen?: (path: string) => void } = {}): Promise<Initialised> {
  const { args, io, log, outcome } = run;
  const forward = new ForwardSink();
  const instance: { counters?: SharedCounters } = {};
  const env = scriptEnv(args, io.env);
  const configured = args.config === undefined ? {} : configFileOptions(args.config);
  // setup() and teardown() emit iteration_duration ("including time spent in setup and teardown") but no `iterations`:
  // that is "The aggregate number of times the VUs execute the JS script (the default function)" (metrics reference).
  const setupSink: SampleSink = {
    declare: (m) => forward.declare(m),
    emit: (metric, value, tags, time) => {
      if (metric !== 'iterations') forward.emit(metric, value, tags, time);
    },
  };
  // A k6 module the engine lacks is a refusal with what to do next, not an init error with the engine's frames.
  const table = await moduleTable(bundled.imports, { scriptPath: args.script, secrets: run.secrets }).catch((e: Error) => {
    throw new Fatal(EXIT.scriptException, `${e.message}; run the script on k6 (dialtone load --engine k6, or k6 run)`);
  });
  try {
    const bare = compileScript(bundled.code, args.script);
    // vu.ts hands the script the global console: the init context, setup and teardown get k6's for as long as vu0 is made.
    const nodeConsole = globalThis.console;
    globalThis.console = vuConsole((level, line) => log.console(level, line));
    let vu0: Vu;
    try {
      vu0 = new Vu(0, 0, {
        sink: setupSink,
        tls: tlsFromEnv(io.env, {}),
        options: {},
        baseEnv: env,
        script: bare,
        modules: (vu) => table(vu),
        open: opener(args.script, hooks.onOpen, args.archive?.root),
        log: (level, message, fields) => log.log(level, message, fields),
        run: runState(run, instance),
      });
      // A script with top-level await: its init context ends here, k6's console still in place.
      if (vu0.ready) await vu0.ready;
    } finally {
      globalThis.console = nodeConsole;
    }
    // An archive's options (what the command line and the script gave when it was made) over the script's own.
    const archived = Object.fromEntries(Object.entries(args.archive?.options ?? {}).filter(([, v]) => v !== null));
    const flagged = withFlags({ ...configured, ...((vu0.exports.options ?? {}) as Record<string, unknown>), ...archived }, args);
    const options = flagged.options;
    if (flagged.warning) log.log('warn', flagged.warning);
    for (const line of unimplementedOptions(options)) log.write('warn', line);
    orFatal(EXIT.invalidConfig, () => hostsLookup(options.hosts));
    const tls = tlsFromEnv(io.env, options);
    // k6 2.3 (@types/k6 2.3.0): tlsAIAFetch fetches a chain's missing intermediates. Node has no AIA fetching; say so
    // rather than fail a handshake k6 would complete.
    if (options.tlsAIAFetch === true && !tls.insecure)
      log.write('warn', 'tlsAIAFetch is not supported by the built-in engine: a server must send its whole chain, or its CA must be trusted (SSL_CERT_FILE)');
    return { ...bundled, vu0, options, tls, env, forward, instance };
  } catch (e) {
    if (e instanceof Fatal) throw e;
    // exec.test.abort() in the init context ends the run with k6's 108, not as an exception.
    if (outcome.aborted) throw new Fatal(EXIT.scriptAborted, `test aborted: ${outcome.aborted}`);
    throw new Fatal(EXIT.scriptException, `the script's init code failed: ${errorText(e)}`);
  }
}

/**
 * k6's header on stdout: dialtone's generator watch reads the scenario lines.
 *
 * @example
 * printHeader(run, init.segment, plan.plans);
 */
export function printHeader(run: RunContext, segment: Part, plans: readonly ScenarioPlan[]): void {
  const { args } = run;
  const most = plans.reduce((n, p) => n + maxVusOf(p), 0);
  const longest = plans.reduce((t, p) => Math.max(t, p.startTimeMs + scheduledMs(p) + p.gracefulStopMs), 0);
  run.io.stdout.write(
    [
      '',
      '  execution: local (dialtone built-in engine)',
      `     script: ${args.archive?.path ?? args.script}`,
      `     output: ${args.outs.length ? args.outs.join(', ') : '-'}`,
      '',
      `  scenarios: (${(100 / segment.count).toFixed(2)}%) ${plans.length} scenario${plans.length === 1 ? '' : 's'}, ${most} max VUs, ` +
        `${formatDuration(longest)} max duration (incl. graceful stop):`,
      ...plans.map(headerLine),
      '',
      '',
    ].join('\n'),
  );
}
