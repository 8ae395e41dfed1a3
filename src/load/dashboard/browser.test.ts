import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openInBrowser } from './browser.js';
import { openLiveDashboard } from './server.js';
import { dashboardSettings } from './settings.js';

/** A folder holding an `xdg-open` that writes the address it was given to `opened`, as the system's would open it. */
function fakeOpener(): { dir: string; opened: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-opener-'));
  const opened = join(dir, 'opened');
  writeFileSync(join(dir, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
  chmodSync(join(dir, 'xdg-open'), 0o755);
  return { dir, opened };
}

/** The opener's record once it is written; a bound only so a hang fails. */
async function read(file: string): Promise<string | undefined> {
  for (let i = 0; i < 400 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 25));
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('K6_WEB_DASHBOARD_OPEN', () => {
  // k6's dashboard options: "K6_WEB_DASHBOARD_OPEN | Open the web dashboard in the default browser | false"
  // (/results-output/web-dashboard/).
  it('is off unless set to true, and refuses anything but true or false in one line', () => {
    expect(dashboardSettings({}).open).toBe(false);
    expect(dashboardSettings({ K6_WEB_DASHBOARD_OPEN: 'true' }).open).toBe(true);
    expect(() => dashboardSettings({ K6_WEB_DASHBOARD_OPEN: 'yes' })).toThrow('dashboard: K6_WEB_DASHBOARD_OPEN=yes: give true or false');
  });

  it("opens the served page's address with the system's opener once the dashboard listens", async () => {
    const { dir, opened } = fakeOpener();
    vi.stubEnv('PATH', `${dir}:${process.env.PATH}`);
    const dash = await openLiveDashboard('open test', dashboardSettings({ K6_WEB_DASHBOARD_PORT: '0', K6_WEB_DASHBOARD_OPEN: 'true' }));
    try {
      await expect(read(opened)).resolves.toBe(dash.url);
    } finally {
      await dash.finishWith(undefined);
    }
  });

  it('says in one line where the page is when the machine has no opener', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    openInBrowser('http://127.0.0.1:5665/', { PATH: mkdtempSync(join(tmpdir(), 'dialtone-no-opener-')) }, 'linux');
    await vi.waitFor(() => expect(err).toHaveBeenCalled(), { timeout: 10_000 });
    expect(err.mock.calls).toEqual([['dashboard: cannot open a browser (xdg-open: ENOENT); open http://127.0.0.1:5665/']]);
  });
});
