// k6 browser options (/using-k6-browser/options/): K6_BROWSER_EXECUTABLE_PATH "Override search for browser executable
// in favor of specified absolute path": without it, the system's Chromium is searched for and found.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchSettings } from './browser.js';
import { systemBrowser } from './browser-path.js';

/** A folder holding fake executables (and non-executables) of these names. */
function folder(files: Record<string, boolean>): string {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-browser-path-'));
  for (const [name, exec] of Object.entries(files)) {
    writeFileSync(join(dir, name), '#!/bin/sh\n');
    chmodSync(join(dir, name), exec ? 0o755 : 0o644);
  }
  return dir;
}

describe('the system Chromium', () => {
  it('is the first known name found on PATH, Chromium before Chrome', () => {
    const a = folder({ 'google-chrome': true });
    const b = folder({ chromium: true });
    expect(systemBrowser([a, b].join(delimiter), 'linux')).toBe(join(b, 'chromium'));
    expect(systemBrowser(a, 'linux')).toBe(join(a, 'google-chrome'));
  });

  it('skips files that are not executable, folders, and a PATH without any', () => {
    const a = folder({ chromium: false });
    mkdirSync(join(a, 'chromium-browser'));
    expect(systemBrowser(a, 'linux')).toBeUndefined();
    expect(systemBrowser(undefined, 'linux')).toBeUndefined();
  });

  it('is what k6/browser launches unless K6_BROWSER_EXECUTABLE_PATH overrides the search', () => {
    const b = folder({ chromium: true });
    expect(launchSettings({ PATH: b }).executablePath).toBe(join(b, 'chromium'));
    expect(launchSettings({ PATH: b, K6_BROWSER_EXECUTABLE_PATH: '/opt/chrome/chrome' }).executablePath).toBe('/opt/chrome/chrome');
  });
});
