// The live dashboard's settings, read from k6's own variables (/results-output/web-dashboard/): "By default, the web
// dashboard is available on localhost port 5665. You can change the host and port by using the dashboard options",
// and a port of -1 serves nothing ("it's advisable to disable the HTTP port by setting it to -1"). The period is 1 s
// here (k6: 10 s): the page draws one-second intervals, as the report does.
import { durationMs } from '../../core/duration.js';
import { UsageError } from '../../errors.js';

export interface DashboardSettings {
  readonly host: string;
  /** -1: no server (the export only); 0: any free port. */
  readonly port: number;
  readonly periodMs: number;
  /** K6_WEB_DASHBOARD_EXPORT: where the final page is also written. */
  readonly exportFile: string | undefined;
  /** K6_WEB_DASHBOARD_OPEN: open the page in the default browser once it is served. */
  readonly open: boolean;
}

export const DEFAULT_PORT = 5665;

/**
 * Whether the live dashboard is asked for: --dashboard, or K6_WEB_DASHBOARD=true as k6 reads it.
 *
 * @example
 * wantsLiveDashboard(undefined, { K6_WEB_DASHBOARD: 'true' }); // true
 */
export function wantsLiveDashboard(flag: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return flag === true || env.K6_WEB_DASHBOARD === 'true';
}

/** k6's own period (/results-output/web-dashboard/: K6_WEB_DASHBOARD_PERIOD, default 10s), which the engine alone keeps. */
export const K6_PERIOD = '10s';

/**
 * The settings from K6_WEB_DASHBOARD_HOST, _PORT, _PERIOD, _EXPORT and _OPEN; a bad value is a one-line usage error.
 *
 * @example
 * dashboardSettings({ K6_WEB_DASHBOARD_PORT: '0' }); // { host: '127.0.0.1', port: 0, periodMs: 1000, exportFile: undefined, open: false }
 */
export function dashboardSettings(env: NodeJS.ProcessEnv = process.env, defaultPeriod = '1s'): DashboardSettings {
  const portText = env.K6_WEB_DASHBOARD_PORT ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!/^-?\d+$/.test(portText.trim()) || port < -1 || port > 65535)
    throw new UsageError(`dashboard: K6_WEB_DASHBOARD_PORT=${portText} is not a port (0 to 65535, or -1 for none)`);
  const periodText = env.K6_WEB_DASHBOARD_PERIOD ?? defaultPeriod;
  const periodMs = durationMs(periodText);
  if (periodMs === undefined || periodMs <= 0) throw new UsageError(`dashboard: K6_WEB_DASHBOARD_PERIOD=${periodText} is not a duration (e.g. 1s, 500ms)`);
  const host = env.K6_WEB_DASHBOARD_HOST?.trim() || '127.0.0.1';
  const exportFile = env.K6_WEB_DASHBOARD_EXPORT?.trim() || undefined;
  const openText = env.K6_WEB_DASHBOARD_OPEN?.trim() || 'false';
  if (openText !== 'true' && openText !== 'false') throw new UsageError(`dashboard: K6_WEB_DASHBOARD_OPEN=${openText}: give true or false`);
  return { host, port, periodMs, exportFile, open: openText === 'true' };
}
