import { durationSeconds } from '../core/duration.js';
import { UsageError } from '../errors.js';
import type { Profile } from '../profile/schema.js';
import type { LoadConfig, WorkloadName } from './config.js';
import { thresholdsFor } from './slos.js';
import { keepsSamples } from './timeline-file.js';
import { effectiveShape, shapeDuration } from './workload.js';

/** The dashboard aggregates per period; a period longer than a short run leaves no report. */
const DASHBOARD_PERIOD: Record<WorkloadName, string> = { smoke: '1s', nightly: '10s', capacity: '10s' };

/** What decides whether a run exports k6's web dashboard. */
export interface DashboardChoice {
  readonly profile: WorkloadName;
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
 * wantsDashboard({ profile: 'smoke' }); // true
 * wantsDashboard({ profile: 'smoke', overrides: { rate: 800 } }); // false
 */
export function wantsDashboard(c: DashboardChoice): boolean {
  return c.dashboard === true || (c.profile !== 'capacity' && c.overrides?.rate === undefined);
}

/**
 * k6's environment for the dashboard: exported to `file` at the end of the run, no live server; nothing when not wanted.
 *
 * @example
 * dashboardEnv({ profile: 'smoke' }, 'reports/load/chat-turns/dashboard.html'); // { K6_WEB_DASHBOARD: 'true', … }
 */
export function dashboardEnv(c: DashboardChoice, file: string): Record<string, string> {
  if (!wantsDashboard(c)) return {};
  return { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: '-1', K6_WEB_DASHBOARD_PERIOD: DASHBOARD_PERIOD[c.profile], K6_WEB_DASHBOARD_EXPORT: file };
}

/**
 * checkDashboardFlag for a run not started yet: its length from its workload as the profile and the flags shape it.
 *
 * @example
 * checkDashboardOfRun({ scenario: 'chat-turns', profile: 'smoke', dashboard: true }, {}, 'builtin'); // throws UsageError
 */
export function checkDashboardOfRun(c: DashboardChoice & { readonly scenario: string }, profile: Partial<Profile>, engine: 'k6' | 'builtin'): void {
  if (c.dashboard !== true || engine !== 'builtin') return;
  const thresholds = thresholdsFor(c.scenario, c.profile, profile as Pick<Profile, 'slos'>);
  const { shape } = effectiveShape({ scenario: c.scenario, workload: c.profile, profile, thresholds, overrides: c.overrides });
  checkDashboardFlag(c, engine, durationSeconds(shapeDuration(shape) ?? ''));
}

/**
 * Refuses --dashboard where it does nothing, as `--out` is refused where the engine does not write it: the built-in
 * engine writes no k6 dashboard, so there the flag only keeps the samples of a run that would not keep them without it
 * (one at the limit, or longer than 15 minutes: src/load/timeline-file.ts).
 *
 * @example
 * checkDashboardFlag({ profile: 'smoke', dashboard: true }, 'builtin', 15); // throws UsageError: load: --dashboard …
 */
export function checkDashboardFlag(c: DashboardChoice, engine: 'k6' | 'builtin', seconds: number | undefined): void {
  if (c.dashboard !== true || engine !== 'builtin') return;
  if (!keepsSamples({ dashboard: undefined, atLimit: !wantsDashboard({ ...c, dashboard: undefined }), seconds })) return;
  throw new UsageError(
    'load: --dashboard does nothing on the built-in engine for this run: it writes no k6 dashboard, and the run keeps its samples ' +
      "without it; use --engine k6 for k6's dashboard",
  );
}
