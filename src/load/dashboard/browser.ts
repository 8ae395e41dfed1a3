// K6_WEB_DASHBOARD_OPEN: "Open the web dashboard in the default browser" (/results-output/web-dashboard/, Dashboard
// options). The system's own opener does it, started apart from this process so the run never waits on it.
import { spawn } from 'node:child_process';

/** The opener of each platform, by process.platform; Linux and the BSDs use the freedesktop one. */
const OPENERS: Readonly<Record<string, (url: string) => [string, string[]]>> = {
  darwin: (url) => ['open', [url]],
  win32: (url) => ['cmd', ['/c', 'start', '""', url]],
};
const freedesktop = (url: string): [string, string[]] => ['xdg-open', [url]];

/**
 * Opens `url` in the default browser; a machine with no opener gets one line on stderr naming the address instead.
 *
 * @example
 * openInBrowser('http://127.0.0.1:5665/');
 */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): void {
  const [command, args] = (OPENERS[platform] ?? freedesktop)(url);
  const child = spawn(command, args, { env, stdio: 'ignore', detached: true });
  child.on('error', (e: NodeJS.ErrnoException) => console.error(`dashboard: cannot open a browser (${command}: ${e.code ?? e.message}); open ${url}`));
  child.unref();
}
