// Flags several commands take, declared once so each says the same of them.
import { ENGINE_CHOICES } from '../load/engine.js';
import { K6_VERSION } from '../load/k6.js';
import type { FlagSpec } from './command.js';

export const TARGET_FLAG = {
  type: 'string',
  value: 'PROFILE',
  help: 'the target profile (a JSON file); without it the reference target starts on this machine for the run.',
} as const satisfies FlagSpec;

export const REPORT_DIR_FLAG = { type: 'string', value: 'DIR', help: 'where the reports go.', default: 'reports' } as const satisfies FlagSpec;

export const ALLOW_LIVE_FLAG = {
  type: 'boolean',
  help: "runs against a profile whose environment is 'live', which is refused without it.",
} as const satisfies FlagSpec;

export const ENGINE_FLAG = {
  type: 'string',
  choices: ENGINE_CHOICES,
  help: `the engine that runs the load: auto is the user's k6 when one is installed (DIALTONE_K6, else k6 on PATH; a v2 not older than ${K6_VERSION}), else dialtone's built-in engine; the report names it.`,
  defaultText: 'DIALTONE_ENGINE, else auto',
} as const satisfies FlagSpec;

export const FAIL_ON_REGRESSION_FLAG = { type: 'boolean', help: "exits 6 when the run's verdict is 'regressed'." } as const satisfies FlagSpec;

export const BASELINE_TAG_FLAG = {
  type: 'string',
  value: 'NAME',
  help: "records the run as a pinned baseline (a release: 1.4); later runs are also judged against the newest run carrying each tag ('dialtone verdict' judges a history again).",
} as const satisfies FlagSpec;

/** --dashboard on capacity and conformance --under-load: the live dashboard (src/load/dashboard/); load's says more. */
export const LIVE_DASHBOARD_FLAG = {
  type: 'boolean',
  help: "serves a live dashboard on http://127.0.0.1:5665 while the built-in engine runs (K6_WEB_DASHBOARD=true does too; K6_WEB_DASHBOARD_HOST, _PORT, _PERIOD, _EXPORT and _OPEN set it as for k6), the report page its final state; on the user's k6 it does nothing (k6 serves its own from the K6_WEB_DASHBOARD variables).",
} as const satisfies FlagSpec;
