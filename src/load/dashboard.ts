import type { LoadConfig, WorkloadName } from './config.js';

/** The dashboard aggregates per period; a period longer than a short run leaves no report. */
const DASHBOARD_PERIOD: Record<WorkloadName, string> = { smoke: '1s', nightly: '10s', capacity: '10s' };

/** What decides whether a run exports k6's web dashboard. */
export interface DashboardChoice {
  readonly workload: WorkloadName;
  readonly overrides?: LoadConfig['overrides'];
  /** --dashboard: export it whatever the run. */
  readonly dashboard?: boolean | undefined;
}

/**
 * Whether a run exports the dashboard. It costs the generator about a fifth of its requests per second at the limit
 * (`npm run bench` measures it), so runs that push the limit (the capacity profile, or any --rate) get it only with
 * --dashboard; smoke and nightly runs, far below the limit, get it by default.
 *
 * @example
 * wantsDashboard({ workload: 'smoke' }); // true
 * wantsDashboard({ workload: 'smoke', overrides: { rate: 800 } }); // false
 */
export function wantsDashboard(c: DashboardChoice): boolean {
  return c.dashboard === true || (c.workload !== 'capacity' && c.overrides?.rate === undefined);
}

/**
 * k6's environment for the dashboard: exported to `file` at the end of the run, no live server; nothing when not wanted.
 *
 * @example
 * dashboardEnv({ workload: 'smoke' }, 'reports/load/chat-turns/dashboard.html'); // { K6_WEB_DASHBOARD: 'true', … }
 */
export function dashboardEnv(c: DashboardChoice, file: string): Record<string, string> {
  if (!wantsDashboard(c)) return {};
  return { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: '-1', K6_WEB_DASHBOARD_PERIOD: DASHBOARD_PERIOD[c.workload], K6_WEB_DASHBOARD_EXPORT: file };
}
