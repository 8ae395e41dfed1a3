// The one call each command makes: a live dashboard when asked for on the built-in engine (the user's k6 serves its
// own from the same K6_WEB_DASHBOARD variables, passed through), or none.

import type { LiveDashboard } from './server.js';
import { type DashboardSettings, dashboardSettings, wantsLiveDashboard } from './settings.js';

/**
 * Opens the dashboard when --dashboard or K6_WEB_DASHBOARD=true asks for it and the engine is the built-in one, and
 * prints where it is served; undefined otherwise. A bad setting or a port taken is a one-line error before the run.
 *
 * @example
 * const dash = await dashboardOfRun(o.dashboard, engine.kind, 'load chat-turns (smoke)');
 * try { … } finally { await dash?.finish(reportFile); }
 */
export async function dashboardOfRun(
  flag: boolean | undefined,
  engine: 'k6' | 'builtin',
  title: string,
  settings: () => DashboardSettings = dashboardSettings,
): Promise<LiveDashboard | undefined> {
  if (engine !== 'builtin' || !wantsLiveDashboard(flag)) return undefined;
  const { openLiveDashboard } = await import('./server.js');
  const dash = await openLiveDashboard(title, settings());
  if (dash.url) console.log(`web dashboard: ${dash.url}`);
  return dash;
}
