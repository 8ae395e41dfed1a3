import { spawn } from 'node:child_process';
import { appendFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../cli/errors.js';
import type { LoadedProfile } from '../profile/load.js';
import { redact } from '../profile/redact.js';
import { writeIndexPage } from '../report/index-page.js';
import { writeReportFiles } from '../report/write.js';
import { secretEnv } from '../suite/context.js';
import { bundleScenario } from './bundle.js';
import { browserEnv, ensureChromium, usesBrowser } from './chromium.js';
import { LOAD_ENV, type LoadConfig, type LoadProfileName } from './config.js';
import { dashboardEnv } from './dashboard.js';
import { writeChatData } from './data.js';
import { deliveryHeadline, exitWithDelivery, judgeDelivery } from './delivery.js';
import { FIGURES } from './figures.js';
import { GeneratorWatch } from './generator-watch.js';
import { ensureK6 } from './k6.js';
import { type LoadResult, loadPage } from './page.js';
import { recordsWindow } from './records-window.js';
import { checkScenario } from './scenarios.js';
import { type K6Summary, thresholdsOf } from './summary.js';

export interface LoadRun {
  readonly root: string;
  readonly scenario: string;
  readonly profile: LoadProfileName;
  readonly loaded: LoadedProfile;
  readonly reportDir: string;
  readonly allowLive?: boolean;
  readonly overrides?: LoadConfig['overrides'];
  /** --dashboard: export k6's web dashboard even on a run that pushes the limit (src/load/dashboard.ts). */
  readonly dashboard?: boolean;
  /** Extra seconds past the scenario's own length before the run is stopped. */
  readonly graceSeconds?: number;
}

/** Upper bound on a run's wall time per load profile: every loop is bounded in time. */
const MAX_SECONDS: Record<LoadProfileName, number> = { smoke: 120, nightly: 900, capacity: 1200 };

/**
 * Runs one scenario with the real k6 against a loaded profile and writes DIR/load/SCENARIO/.
 * Returns k6's exit code (99 when a threshold failed).
 */
export async function runLoad(o: LoadRun): Promise<{ exitCode: number; result: LoadResult; dir: string }> {
  checkScenario(o.root, o.scenario);
  const p = o.loaded.profile;
  if (p.environment === 'live' && !o.allowLive) {
    throw new UsageError(`refusing a load run against the live environment of '${p.name}'; pass --allow-live to do it on purpose`);
  }
  const k6 = ensureK6(o.root);
  // A browser scenario (one importing k6/browser) needs Chromium; without it the run stops here with how to install it.
  const browser = usesBrowser(o.root, o.scenario) ? browserEnv(ensureChromium()) : {};
  const dir = join(o.reportDir, 'load', o.scenario);
  mkdirSync(dir, { recursive: true });
  for (const f of ['summary.json', 'dashboard.html', 'k6.log']) rmSync(join(dir, f), { force: true });
  const work = join(dir, '.work');
  mkdirSync(work, { recursive: true });
  const script = await bundleScenario(o.root, o.scenario, join(work, 'script.js'));
  const dataFile = join(work, 'data.json');
  writeChatData(dataFile, 20261121, 500);

  const env = secretEnv(o.loaded);
  const config: LoadConfig = {
    scenario: o.scenario,
    profile: o.profile,
    target: {
      name: p.name,
      hosts: Object.fromEntries(Object.entries(p.hosts).filter(([, v]) => v)) as Record<string, string>,
      api_version: p.api_version,
      account_id: p.account_id,
      project_id: p.project_id,
      variant_id: p.variant_id,
      chat_script: p.chat_script,
      messaging_host: p.messaging_host,
      records_window: recordsWindow(p, Date.now()),
    },
    secretEnv: Object.fromEntries(Object.entries(p.credentials).map(([name, ref]) => [name, ref?.env ?? ''])),
    dataFile,
    overrides: o.overrides,
  };
  const started = Date.now();
  const log = createWriteStream(join(dir, 'k6.log'));
  const secrets = Object.values(env);
  const watch = new GeneratorWatch();
  const k6Exit = await new Promise<number>((resolveExit) => {
    const child = spawn(k6, ['run', '--no-color', '--summary-export', join(dir, 'summary.json'), script], {
      env: {
        ...process.env,
        ...env,
        ...browser,
        [LOAD_ENV]: JSON.stringify(config),
        K6_NO_USAGE_REPORT: 'true',
        ...dashboardEnv(o, join(dir, 'dashboard.html')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    watch.attach(child);
    const relay = (chunk: Buffer, to: NodeJS.WriteStream) => {
      const text = redact(chunk.toString('utf8'), secrets);
      log.write(text);
      to.write(text);
    };
    child.stdout.on('data', (c: Buffer) => relay(c, process.stdout));
    child.stderr.on('data', (c: Buffer) => relay(c, process.stderr));
    const limit = setTimeout(() => child.kill('SIGINT'), (MAX_SECONDS[o.profile] + (o.graceSeconds ?? 0)) * 1000);
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      resolveExit(code ?? (signal ? 130 : 1));
    });
  });
  await new Promise((r) => log.end(r));

  const summaryPath = join(dir, 'summary.json');
  const summary: K6Summary = existsSync(summaryPath) ? (JSON.parse(readFileSync(summaryPath, 'utf8')) as K6Summary) : { metrics: {} };
  const figures = (FIGURES[o.scenario] ?? (() => ({ figures: {}, headline: [] })))(summary);
  const thresholds = thresholdsOf(summary);
  // Load that was not delivered fails the gate too (exit 5), and the headline says so first.
  const delivery = judgeDelivery(summary, watch.stop());
  const exitCode = exitWithDelivery(k6Exit, delivery);
  const result: LoadResult = {
    scenario: o.scenario,
    profile: o.profile,
    target: p.name,
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    k6_exit_code: k6Exit,
    passed: exitCode === 0,
    figures: figures.figures,
    headline: [...deliveryHeadline(delivery), ...figures.headline],
    thresholds,
    delivery,
  };
  const historyPath = join(dir, 'history.jsonl');
  appendFileSync(historyPath, `${redact(JSON.stringify(result), secrets)}\n`);
  const history = readFileSync(historyPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoadResult);
  writeReportFiles(
    dir,
    { 'index.html': loadPage(result, summary, history, existsSync(join(dir, 'dashboard.html'))), 'result.json': `${JSON.stringify(result, null, 2)}\n` },
    secrets,
  );
  rmSync(work, { recursive: true, force: true });
  writeIndexPage(o.reportDir);
  return { exitCode, result, dir };
}
