import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { EnvironmentError } from '../errors.js';

/** Names tried on PATH, in order, when DIALTONE_CHROMIUM is not set. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome'] as const;

/** How to get one, said the same way by `npm install` and by `dialtone load`. */
export const CHROMIUM_HINT = "install it with 'apt-get install chromium' (Debian, as root) or set DIALTONE_CHROMIUM=/path/to/chromium";

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

const onPath = (name: string): string | undefined => {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  const found = r.status === 0 ? r.stdout.trim() : '';
  return found && executable(found) ? found : undefined;
};

/** Whether the binary starts and names itself Chromium or Chrome (a snap stub or a broken install does not). */
function runs(path: string): boolean {
  const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
  return r.status === 0 && /\b(Chromium|Chrome)\b/.test(r.stdout);
}

/**
 * The Chromium k6/browser launches: $DIALTONE_CHROMIUM when set (and only it: a wrong explicit path is an error, not a
 * reason to pick another), else the first of chromium, chromium-browser, google-chrome on PATH that runs.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): { path?: string; problem?: string } {
  const explicit = env.DIALTONE_CHROMIUM;
  if (explicit) {
    if (!executable(explicit)) return { problem: `DIALTONE_CHROMIUM=${explicit} is not an executable file` };
    if (!runs(explicit)) return { problem: `DIALTONE_CHROMIUM=${explicit} does not run as Chromium ('--version' failed)` };
    return { path: explicit };
  }
  for (const name of CHROMIUM_NAMES) {
    const path = onPath(name);
    if (path && runs(path)) return { path };
  }
  return { problem: `no Chromium found (tried ${CHROMIUM_NAMES.join(', ')} on PATH)` };
}

/** A Chromium for a browser scenario, or an EnvironmentError (exit 3) whose one line says how to install one. */
export function ensureChromium(env: NodeJS.ProcessEnv = process.env): string {
  const found = findChromium(env);
  if (found.path) return found.path;
  throw new EnvironmentError(`this scenario runs a browser, but ${found.problem}: ${CHROMIUM_HINT}`);
}

/**
 * Chromium flags for k6 (K6_BROWSER_ARGS: comma-separated, without leading dashes). A fake microphone and an
 * auto-accepted permission prompt; no sandbox, since CI runs as root and Chromium's sandbox refuses root. Loopback
 * candidates only where the machine has no other interface: Chromium leaves loopback out of ICE by default, and a
 * machine with only loopback would then have no candidate at all.
 */
export function chromiumArgs(interfaces = networkInterfaces()): string {
  // The voice client page is fulfilled by the scenario (page.route), so Chromium knows no address for it and treats it
  // as public: its requests to a gateway on loopback or a private network would then be refused as Local Network Access.
  // This replaces k6's own disable-features list (K6_BROWSER_ARGS splits on commas, so one feature only): those
  // features (cookie controls, lazy frames, media router, …) are irrelevant to a headless voice run.
  const args = ['use-fake-device-for-media-stream', 'use-fake-ui-for-media-stream', 'no-sandbox', 'disable-features=LocalNetworkAccessChecks'];
  const onlyLoopback = Object.values(interfaces).every((addrs) => (addrs ?? []).every((a) => a.internal));
  if (onlyLoopback) args.push('allow-loopback-in-peer-connection');
  return args.join(',');
}

/** The environment k6 needs to launch Chromium for a browser scenario; `extraArgs` (trust flags) join the defaults. */
export function browserEnv(executablePath: string, extraArgs: readonly string[] = []): Record<string, string> {
  return { K6_BROWSER_EXECUTABLE_PATH: executablePath, K6_BROWSER_ARGS: [chromiumArgs(), ...extraArgs].join(','), K6_BROWSER_HEADLESS: 'true' };
}
