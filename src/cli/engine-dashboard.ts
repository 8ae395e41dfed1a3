// The built-in engine run by itself with K6_WEB_DASHBOARD=true, as `k6 run` is: it serves the live dashboard while the
// run goes and writes the final page to K6_WEB_DASHBOARD_EXPORT. The engine may import nothing of dialtone's report
// (ARCHITECTURE.md), so this entry, which may import both, runs the engine in its own process with a feed that goes to
// the dashboard directly instead of over an IPC channel. Under dialtone (LIVE_FEED_ENV set) dialtone serves the page.
import { isLiveFeed, LIVE_FEED_ENV } from '../core/live-feed.js';
import { main as engineMain, parseRunArgs, processIo } from '../engine/cli.js';
import type { EngineIo } from '../engine/run/io.js';
import { EXIT, runEngine } from '../engine/run.js';
import type { LiveDashboard } from '../load/dashboard/server.js';
import { dashboardSettings, K6_PERIOD } from '../load/dashboard/settings.js';

/**
 * Whether this start of the engine serves a dashboard of its own: `run` with K6_WEB_DASHBOARD=true, started by itself.
 * dialtone starts every engine with an IPC channel and serves the page itself when asked (LIVE_FEED_ENV set then); an
 * engine it starts without one (a run that asked for no dashboard) must not serve one on 5665 beside it.
 *
 * @example
 * servesOwnDashboard(['run', 'script.js'], { K6_WEB_DASHBOARD: 'true' }, false); // true
 */
export function servesOwnDashboard(argv: readonly string[], env: NodeJS.ProcessEnv, hasChannel: boolean): boolean {
  return argv[0] === 'run' && env.K6_WEB_DASHBOARD === 'true' && env[LIVE_FEED_ENV] === undefined && !hasChannel;
}

/** Opens the dashboard for `title`; a bad setting or a port taken is one line and k6's invalid-config code. */
async function open(title: string, env: NodeJS.ProcessEnv): Promise<LiveDashboard | number> {
  try {
    const settings = dashboardSettings(env, K6_PERIOD);
    const { openLiveDashboard } = await import('../load/dashboard/server.js');
    return await openLiveDashboard(title, settings);
  } catch (e) {
    console.error(`dialtone-engine: ${(e as Error).message}`);
    return EXIT.invalidConfig;
  }
}

/**
 * The engine's command line, with k6's web dashboard when K6_WEB_DASHBOARD asks for it; else the engine's own.
 *
 * @example
 * const code = await main(process.argv.slice(2));
 */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  hasChannel: boolean = process.channel !== undefined,
  ioOf: () => EngineIo = processIo,
): Promise<number> {
  if (!servesOwnDashboard(argv, env, hasChannel)) return engineMain(argv);
  let args: ReturnType<typeof parseRunArgs>;
  try {
    args = parseRunArgs(argv.slice(1), env);
  } catch {
    return engineMain(argv);
  }
  const title = `dialtone-engine run ${args.script}`;
  const dash = await open(title, env);
  if (typeof dash === 'number') return dash;
  const base = ioOf();
  // k6 prints the address in its header: "web dashboard: http://127.0.0.1:5665" (/results-output/web-dashboard/).
  if (dash.url) base.stdout.write(`\n  web dashboard: ${dash.url}\n`);
  const io: EngineIo = {
    ...base,
    // The feed's period, as dialtone gives it to an engine it starts; its messages come here instead of over IPC.
    env: { ...env, ...dash.env },
    send: (m: unknown) => {
      if (isLiveFeed(m)) dash.take(m);
    },
  };
  try {
    return await runEngine(args, io);
  } finally {
    const { finalPage } = await import('../load/dashboard/page.js');
    await dash.finishWith(await finalPage(title, dash.view()));
  }
}
