// The live dashboard of a load on the built-in engine, opened in the system Chromium while the run goes: a second sample
// arrives over server-sent events and replaces the live section, and at the end the report page written to disk takes
// its place; the same for the engine run by itself with K6_WEB_DASHBOARD=true, as `k6 run` is. Nothing here judges
// time: each run lasts until the page has shown two samples, however slow the machine, and each wait is for an event,
// with a bound only so a hang fails.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../src/errors.js';
import { ROOT } from './run-cli.js';

const executable =
  process.env.DIALTONE_CHROMIUM || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
/** Bounds on waits for events, generous for a busy machine: a hang fails, a slow run does not. */
const BOUND_MS = 120_000;

let browser: Browser | undefined;
beforeAll(async () => {
  if (executable) browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

interface Started {
  child: ChildProcess;
  url: Promise<string>;
  exited: Promise<number | null>;
}

/**
 * Starts `dialtone load` as a user would, in a process group of its own as a terminal's command is, and resolves the
 * dashboard's address once it prints it. The run is long; the test stops it with Ctrl-C once the page has shown two
 * samples, so a slow machine never sees it end first.
 */
function startLoad(reportDir: string): Started {
  return started(
    [join(ROOT, 'bin/dialtone.mjs'), 'load', 'chat-turns', '--engine', 'builtin', '--dashboard', '--duration', '10m', '--report-dir', reportDir],
    // k6: "By default, the web dashboard is available on localhost port 5665. You can change the host and port by using
    // the dashboard options" (/results-output/web-dashboard/): port 0 takes any free one, so runs never collide.
    { K6_WEB_DASHBOARD_PORT: '0' },
    { group: true },
  );
}

/** Starts a bin script of dialtone's and resolves the dashboard's address once it prints it on stdout. */
function started(argv: string[], env: Record<string, string>, { group = false } = {}): Started {
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    detached: group,
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /web dashboard: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', () => reject(new Error(`${argv[0]} ended before it served a dashboard:\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, url, exited };
}

/** Waits for a first sample drawn and a later one: the live section replaced while the run goes. */
async function twoSamples(page: import('playwright-core').Page): Promise<void> {
  const sample = () => page.evaluate(() => Number(document.getElementById('live')?.dataset.sample ?? -1));
  await page.waitForFunction(() => document.querySelectorAll('#live figure.plot svg').length > 0, undefined, { timeout: BOUND_MS });
  const first = await sample();
  expect(first).toBeGreaterThan(0);
  await page.waitForFunction((n) => Number(document.getElementById('live')?.dataset.sample ?? -1) > n, first, { timeout: BOUND_MS });
  expect(await sample()).toBeGreaterThan(first);
}

interface Shown {
  title: string;
  h1: string;
  plots: number;
}

/** The title, headline and number of plots of the page the tab shows and of the HTML given, read as the browser reads them. */
function shownAndWritten(page: import('playwright-core').Page, html: string): Promise<[Shown, Shown]> {
  return page.evaluate((written) => {
    const of = (d: Document) => ({
      title: d.title,
      h1: d.querySelector('h1')?.textContent ?? '',
      plots: d.querySelectorAll('figure.plot[data-plot]').length,
    });
    return [of(document), of(new DOMParser().parseFromString(written, 'text/html'))] as [Shown, Shown];
  }, html);
}

describe.skipIf(!executable)('the live dashboard of a load run in Chromium', () => {
  it('shows a second sample arrive while the run goes, then, stopped with Ctrl-C, becomes the report page written at the end', {
    timeout: 4 * BOUND_MS,
  }, async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'dialtone-dashboard-'));
    const run = startLoad(reportDir);
    const group = () => -(run.child.pid as number);
    try {
      const page = await (browser as Browser).newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(await run.url);
      await twoSamples(page);
      await expect(page.locator('#live .verdict').textContent()).resolves.toMatch(/so far: \d+ of \d+ thresholds holding/);
      await expect(page.locator('#live figure.plot[data-plot]').count()).resolves.toBeGreaterThan(1);
      // Ctrl-C: SIGINT to the process group. What ran is written, marked interrupted, and the page becomes it.
      process.kill(group(), 'SIGINT');
      await page.waitForFunction(() => document.getElementById('live') === null, undefined, { timeout: BOUND_MS });
      await expect(run.exited).resolves.toBe(EXIT.interrupted);
      const written = readFileSync(join(reportDir, 'load', 'chat-turns', 'index.html'), 'utf8');
      expect(written).toMatch(/interrupted[\s\S]*SIGINT at /i);
      const [shown, onDisk] = await shownAndWritten(page, written);
      expect(shown).toEqual(onDisk);
      expect(shown.plots).toBeGreaterThan(1);
    } finally {
      try {
        process.kill(group(), 'SIGKILL');
      } catch {
        // the group has ended
      }
    }
  });
});

/** A small HTTP target on loopback for the engine's script: it answers `stop` once the test has seen what it waits for. */
let target: Server | undefined;
let seen = false;
beforeAll(async () => {
  target = createServer((_req, res) => res.end(seen ? 'stop' : 'ok'));
  await new Promise<void>((resolve) => target?.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => target?.close(resolve));
});

/**
 * One VU, ten requests a second, until the target says stop: however slow the machine, the run lasts until the page has
 * shown two samples, and no longer. k6: "test.abort([String]) Aborts the test run with the exit code 108"
 * (/javascript-api/k6-execution/).
 */
const SCRIPT = `import http from 'k6/http';
import exec from 'k6/execution';
import { sleep } from 'k6';
export const options = { vus: 1, duration: '10m', thresholds: { http_req_duration: ['p(95)<1000'] } };
export default function () {
  if (http.get(__ENV.TARGET).body === 'stop') exec.test.abort('the page showed two samples');
  sleep(0.1);
}
`;

describe.skipIf(!executable)('the web dashboard of the engine run by itself, as k6 serves one', () => {
  it('shows a second sample arrive while K6_WEB_DASHBOARD=true runs, then the page written to K6_WEB_DASHBOARD_EXPORT', { timeout: 4 * BOUND_MS }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-engine-dashboard-'));
    writeFileSync(join(dir, 'script.js'), SCRIPT);
    const exported = join(dir, 'report', 'dashboard.html');
    const address = target?.address() as AddressInfo;
    // k6: "You can enable it by setting the K6_WEB_DASHBOARD environment variable to true when running your test
    // script", "By default, the web dashboard is available on localhost port 5665. You can change the host and port by
    // using the dashboard options" (/results-output/web-dashboard/); the period 1 s, k6's default being 10 s.
    const run = started([join(ROOT, 'bin/dialtone-engine.mjs'), 'run', '-e', `TARGET=http://127.0.0.1:${address.port}/`, join(dir, 'script.js')], {
      K6_WEB_DASHBOARD: 'true',
      K6_WEB_DASHBOARD_PORT: '0',
      K6_WEB_DASHBOARD_PERIOD: '1s',
      K6_WEB_DASHBOARD_EXPORT: exported,
    });
    try {
      const page = await (browser as Browser).newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(await run.url);
      await expect(page.title()).resolves.toBe(`dialtone-engine run ${join(dir, 'script.js')}: live`);
      await twoSamples(page);
      seen = true;
      // At the end the final page takes the live section's place: the one the run exported.
      await page.waitForFunction(() => document.getElementById('live') === null, undefined, { timeout: BOUND_MS });
      await expect(run.exited).resolves.toBe(108);
      const [shown, onDisk] = await shownAndWritten(page, readFileSync(exported, 'utf8'));
      expect(shown).toEqual(onDisk);
      expect(shown.plots).toBeGreaterThan(1);
      await expect(page.locator('#final .verdict').textContent()).resolves.toMatch(/at the end: 1 of 1 thresholds holding/);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});
