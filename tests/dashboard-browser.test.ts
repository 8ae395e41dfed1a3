// The live dashboard of a short load on the built-in engine, opened in the system Chromium while the run goes: a second
// sample arrives over server-sent events and replaces the live section, and at the end the report page written to disk
// takes its place. Nothing here judges time: each wait is for an event, with a bound only so a hang fails.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Starts `dialtone load` as a user would and resolves the dashboard's address once it prints it. */
function startLoad(reportDir: string): { child: ChildProcess; url: Promise<string>; exited: Promise<number | null> } {
  const child = spawn(
    process.execPath,
    [join(ROOT, 'bin/dialtone.mjs'), 'load', 'chat-turns', '--engine', 'builtin', '--dashboard', '--duration', '8s', '--report-dir', reportDir],
    // k6: "By default, the web dashboard is available on localhost port 5665. You can change the host and port by using
    // the dashboard options" (/results-output/web-dashboard/): port 0 takes any free one, so runs never collide.
    { cwd: ROOT, env: { ...process.env, K6_NO_USAGE_REPORT: 'true', K6_WEB_DASHBOARD_PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /web dashboard: (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on('exit', () => reject(new Error(`dialtone load ended before it served a dashboard:\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, url, exited };
}

describe.skipIf(!executable)('the live dashboard of a load run in Chromium', () => {
  it('shows a second sample arrive while the run goes, then becomes the report page written at the end', { timeout: 4 * BOUND_MS }, async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'dialtone-dashboard-'));
    const run = startLoad(reportDir);
    try {
      const page = await (browser as Browser).newPage({ viewport: { width: 1400, height: 900 } });
      await page.goto(await run.url);
      const sample = () => page.evaluate(() => Number(document.getElementById('live')?.dataset.sample ?? -1));
      // The first sample with plots drawn from it, then a later one: the section was replaced while the run went on.
      await page.waitForFunction(() => document.querySelectorAll('#live figure.plot svg').length > 0, undefined, { timeout: BOUND_MS });
      const first = await sample();
      expect(first).toBeGreaterThan(0);
      await page.waitForFunction((n) => Number(document.getElementById('live')?.dataset.sample ?? -1) > n, first, { timeout: BOUND_MS });
      const second = await sample();
      expect(second).toBeGreaterThan(first);
      await expect(page.locator('#live .verdict').textContent()).resolves.toMatch(/so far: \d+ of \d+ thresholds holding/);
      await expect(page.locator('#live figure.plot[data-plot]').count()).resolves.toBeGreaterThan(1);
      // At the end the report page takes the live section's place: the same page the run wrote to disk.
      await page.waitForFunction(() => document.getElementById('live') === null, undefined, { timeout: BOUND_MS });
      await run.exited;
      const written = readFileSync(join(reportDir, 'load', 'chat-turns', 'index.html'), 'utf8');
      // Read as the browser reads the file: its title, headline and plots are the ones the tab now shows.
      const [shown, onDisk] = await page.evaluate((html) => {
        const of = (d: Document) => ({
          title: d.title,
          h1: d.querySelector('h1')?.textContent ?? '',
          plots: d.querySelectorAll('figure.plot[data-plot]').length,
        });
        return [of(document), of(new DOMParser().parseFromString(html, 'text/html'))];
      }, written);
      expect(shown).toEqual(onDisk);
      expect(shown.plots).toBeGreaterThan(1);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});
