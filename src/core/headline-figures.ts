// A run's headline figures, read from k6's summary: the function a scenario declares (scenarios/NAME.scenario.ts) and
// the few formats and rates those functions share. Pure: the declarations are read by Node and typechecked beside the
// k6 scripts, which may not use Node's APIs.
import { type K6Summary, stat } from './summary.js';

/** A scenario's headline figures, computed from its k6 summary: the numbers by name and the lines that say them. */
export type FigureFn = (s: K6Summary) => { figures: Record<string, number>; headline: string[] };

/** Figures compared by a benchmark, by name, from a k6 summary. */
export type BenchFigures = (s: K6Summary) => Record<string, number>;

/** Milliseconds as a headline writes them, `n/a` when the summary lacks the figure. */
export const ms = (v: number | undefined): string => (v === undefined ? 'n/a' : `${v.toFixed(1)} ms`);

/** A rate a second as a headline writes it, `n/a` when the summary lacks the figure. */
export const perSec = (v: number | undefined): string => (v === undefined ? 'n/a' : `${v.toFixed(1)}/s`);

/** HTTP requests a second, the figure a benchmark compares for a scenario of requests. */
export const requestRate: BenchFigures = (s) => ({ 'requests/s': stat(s, 'http_reqs', 'rate') ?? 0 });

/** WebSocket messages sent and sockets opened a second, the figures a benchmark compares for a scenario of sockets. */
export const socketRates: BenchFigures = (s) => ({ 'messages/s': stat(s, 'ws_msgs_sent', 'rate') ?? 0, 'sockets/s': stat(s, 'ws_sessions', 'rate') ?? 0 });
