// The main thread of a run, as `k6 run` does it: the init context once, the options planned, setup(), the scenarios on
// worker threads (their samples aggregated, abortOnFail judged while they run), teardown(), then what k6 writes: the
// summary export, the outputs, the end-of-test summary, the exit code. Each step is a module of run/; this is their order.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BUILTIN_ENGINE_VERSION } from '../core/engine-version.js';
import { archiveOf, isArchive, type OpenedArchive, openArchive } from './archive.js';
import type { Failures } from './ran-as-written.js';
import { networkThenCache } from './remote-modules.js';
import { newRun, type RunArgs } from './run/context.js';
import { drive } from './run/drive.js';
import { EXIT, Fatal, orFatal } from './run/exit-codes.js';
import { bundle, initVu, printHeader } from './run/init.js';
import { type EngineIo, redactedIo, written } from './run/io.js';
import { LiveCounts } from './run/live.js';
import { openLiveFeed } from './run/live-feed.js';
import { logLine } from './run/log.js';
import { planRun } from './run/plan.js';
import { type Served, serve } from './run/serve.js';
import { runSetup } from './run/setup.js';
import { watchStopRequests } from './run/stop.js';
import { exitCode, writeResults } from './run/summarise.js';
import { runTeardown } from './run/teardown.js';
import { loadSecretSources, redactor, type SecretSources, secretValues } from './secrets.js';

export { handleSummaryData } from './metrics/summary-data.js';
export type { RunArgs } from './run/context.js';
export { EXIT } from './run/exit-codes.js';
export type { EngineIo } from './run/io.js';

/**
 * Runs a script as `k6 run` does, in this process, and resolves k6's exit code; `io` is its outside world (cli.ts
 * gives the process's).
 *
 * @example
 * const code = await runEngine(parseRunArgs(['--summary-export', 'summary.json', 'script.js']), processIo());
 */
export async function runEngine(args: RunArgs, rawIo: EngineIo): Promise<number> {
  let secrets: SecretSources;
  try {
    secrets = loadSecretSources(args.secretSources ?? [], rawIo.cwd);
  } catch (e) {
    rawIo.stderr.write(logLine(0, 'error', (e as Error).message));
    return EXIT.invalidConfig;
  }
  // "values from secret sources are automatically redacted from k6 logs" (/using-k6/secret-source/): every line the run
  // writes, its summary and errors included.
  const io = secretValues(secrets).length > 0 ? redactedIo(rawIo, redactor(secrets)) : rawIo;
  // `k6 run archive.tar`: the archive's files extracted for the run, its remote modules read from it (archive.ts).
  let opened: OpenedArchive | undefined;
  if (isArchive(args.script)) {
    try {
      opened = openArchive(args.script, networkThenCache(io.env));
    } catch (e) {
      return newRun(args, io, secrets).log.fatal(EXIT.scriptException, (e as Error).message);
    }
    args = {
      ...args,
      script: opened.script,
      env: { ...opened.env, ...args.env },
      archive: { path: args.script, root: opened.root, modules: opened.modules, options: opened.options },
    };
  }
  const run = newRun(args, io, secrets);
  const served: Served = { outputs: [], rest: undefined };
  let unwatch = () => {};
  let endFeed = () => {};
  try {
    if (args.consoleOutput) orFatal(EXIT.invalidConfig, () => run.log.consoleTo(written(io, args.consoleOutput as string)), '--console-output: ');
    // Asked to stop from the start, bundling and init included.
    unwatch = watchStopRequests(run);
    const init = await initVu(run, await bundle(run));
    const plan = planRun(run, init);
    printHeader(run, init.segment, plan.plans);
    const live = new LiveCounts();
    await serve(run, plan, live, served);
    endFeed = openLiveFeed(run, plan, live);
    const setup = await runSetup(run, init.vu0);
    const failures: Failures = { count: 0 };
    await drive(run, init, plan, setup, live, failures);
    await runTeardown(init.vu0, setup);
    plan.store.end();
    unwatch();
    endFeed();
    endFeed = () => {};
    const verdicts = await writeResults(run, init, plan, served);
    return exitCode(run, init, plan, verdicts, failures);
  } catch (e) {
    if (e instanceof Fatal) return run.log.fatal(e.code, e.message);
    throw e;
  } finally {
    // A run that ended early leaves nothing listening: the process's handlers, the REST API's port, the console file.
    unwatch();
    endFeed();
    await served.rest?.close();
    run.log.close();
    opened?.close();
  }
}

/**
 * `k6 archive`: the script bundled (its remote modules fetched), its init context run once to learn what it open()s,
 * and the archive written to `out` (archive.ts). Resolves k6's exit code: 0, or 107 for a script that cannot run.
 *
 * @example
 * const code = await archiveEngine(parseRunArgs(['script.js']), 'archive.tar', processIo());
 */
export async function archiveEngine(args: RunArgs, out: string, io: EngineIo): Promise<number> {
  const run = newRun(args, io);
  try {
    const bundled = await bundle(run);
    const opened = new Set<string>();
    const init = await initVu(run, bundled, { onOpen: (f) => opened.add(f) });
    await init.vu0.close();
    const made = orFatal(EXIT.scriptException, () =>
      archiveOf({
        script: resolve(args.script),
        bundle: bundled,
        opened,
        options: init.options,
        env: { ...args.env },
        cwd: io.cwd ?? process.cwd(),
        engine: `dialtone-engine ${BUILTIN_ENGINE_VERSION}`,
      }),
    );
    orFatal(EXIT.invalidConfig, () => writeFileSync(resolve(io.cwd ?? process.cwd(), out), made), `--archive-out: cannot write ${out}: `);
    io.stdout.write(`archive ${out}: ${bundled.files.length} script file(s), ${opened.size} open()ed, ${bundled.remote.size} remote module(s)\n`);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof Fatal) return run.log.fatal(e.code, e.message);
    throw e;
  } finally {
    run.log.close();
  }
}
