import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_FEED_ENV } from '../core/live-feed.js';
import { SYSTEM_CLOCK } from '../engine/run/io.js';
import { dashboardSettings, K6_PERIOD } from '../load/dashboard/settings.js';
import { main, servesOwnDashboard } from './engine-dashboard.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the web dashboard of the engine run by itself', () => {
  it('is served by the engine alone when K6_WEB_DASHBOARD=true, and left to dialtone when dialtone started the engine', () => {
    // k6: "You can enable it by setting the K6_WEB_DASHBOARD environment variable to true when running your test script"
    // (/results-output/web-dashboard/).
    const on = { K6_WEB_DASHBOARD: 'true' };
    expect(servesOwnDashboard(['run', 'script.js'], on, false)).toBe(true);
    expect(servesOwnDashboard(['run', 'script.js'], {}, false)).toBe(false);
    expect(servesOwnDashboard(['version'], on, false)).toBe(false);
    // dialtone serves the page (the feed's variable set), or asked for none: either way it holds the engine's channel.
    expect(servesOwnDashboard(['run', 'script.js'], { ...on, [LIVE_FEED_ENV]: '1000' }, true)).toBe(false);
    expect(servesOwnDashboard(['run', 'script.js'], on, true)).toBe(false);
  });

  it("keeps k6's defaults: port 5665 on 127.0.0.1, a 10 s period, no export, no browser opened", () => {
    // k6: "By default, the web dashboard is available on localhost port 5665" and its header prints
    // "web dashboard: http://127.0.0.1:5665"; K6_WEB_DASHBOARD_PERIOD is 10s unless set (/results-output/web-dashboard/).
    expect(dashboardSettings({}, K6_PERIOD)).toEqual({ host: '127.0.0.1', port: 5665, periodMs: 10_000, exportFile: undefined, open: false });
  });

  it("refuses a setting it cannot use in one line, with k6's invalid-config code, before the script is read", async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(main(['run', 'no-such-script.js'], { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: 'x' }, false)).resolves.toBe(104);
    expect(err.mock.calls).toEqual([['dialtone-engine: dashboard: K6_WEB_DASHBOARD_PORT=x is not a port (0 to 65535, or -1 for none)']]);
  });

  it('says in one line that the port is taken, naming the variable that moves it', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await expect(main(['run', 'no-such-script.js'], { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: String(port) }, false)).resolves.toBe(104);
      expect(err.mock.calls).toEqual([
        [`dialtone-engine: dashboard: 127.0.0.1:${port} is taken; set K6_WEB_DASHBOARD_PORT to another port (0: any free one, -1: none)`],
      ]);
    } finally {
      taken.close();
    }
  });

  it('writes the final page to K6_WEB_DASHBOARD_EXPORT with no server at all when the port is -1', async () => {
    // k6: "it's advisable to disable the HTTP port by setting it to -1"; "K6_WEB_DASHBOARD_EXPORT | Filename to
    // automatically export the HTML test report to at the end of the test run" (/results-output/web-dashboard/).
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-engine-export-'));
    writeFileSync(join(dir, 'script.js'), 'export const options = { iterations: 3 };\nexport default function () {}\n');
    const exported = join(dir, 'out', 'report.html');
    const env = { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: '-1', K6_WEB_DASHBOARD_EXPORT: exported };
    let printed = '';
    const sink = {
      write(c: string | Uint8Array) {
        printed += String(c);
      },
    };
    const io = () => ({ stdout: sink, stderr: sink, env, clock: SYSTEM_CLOCK, signals: new EventEmitter(), cwd: dir });
    const code = await main(['run', '--quiet', join(dir, 'script.js')], env, false, io);
    expect(code, printed).toBe(0);
    expect(existsSync(exported)).toBe(true);
    const html = readFileSync(exported, 'utf8');
    expect(html).toContain(`<h1>dialtone-engine run ${join(dir, 'script.js')}</h1>`);
    expect(html).toMatch(/<section id="final" data-sample="[1-9]\d*">/);
    expect(printed).not.toContain('web dashboard:');
  });
});
