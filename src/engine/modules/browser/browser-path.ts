// Where k6/browser finds Chromium when K6_BROWSER_EXECUTABLE_PATH is not set. k6's browser options: the variable
// "Override[s] search for browser executable in favor of specified absolute path"; without it k6 searches the system
// for an installed Chrome or Chromium, and so does the engine: the first of these names on PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The names an installed Chromium or Chrome goes by on Linux, in the order they are tried. */
const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

/** macOS keeps Chrome in an application bundle, never on PATH. */
const MAC_APP = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';

const executable = (p: string) => {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * The system's Chromium: the first of the known names in a folder of `path` (the PATH variable's value), else the
 * macOS bundle; undefined when there is none (Playwright's own Chromium is then tried).
 *
 * @example
 * systemBrowser('/usr/local/bin:/usr/bin'); // '/usr/bin/chromium'
 */
export function systemBrowser(path: string | undefined, platform: NodeJS.Platform = process.platform): string | undefined {
  const dirs = (path ?? '').split(delimiter).filter(Boolean);
  for (const name of NAMES)
    for (const dir of dirs) {
      const p = join(dir, name);
      if (executable(p)) return p;
    }
  return platform === 'darwin' && executable(MAC_APP) ? MAC_APP : undefined;
}
