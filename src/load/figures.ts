import { type K6Summary, stat } from './summary.js';

/** A scenario's headline figures, computed from its k6 summary. */
export type FigureFn = (s: K6Summary) => { figures: Record<string, number>; headline: string[] };

const ms = (v: number | undefined) => (v === undefined ? 'n/a' : `${v.toFixed(1)} ms`);
const perSec = (v: number | undefined) => (v === undefined ? 'n/a' : `${v.toFixed(1)}/s`);

/** Figures per scenario, by name; a scenario without a row still gets its thresholds reported. */
export const FIGURES: Record<string, FigureFn> = {
  'chat-turns': (s) => {
    const figures = {
      turns_per_s: stat(s, 'chat_turns', 'rate') ?? 0,
      turn_p95_ms: stat(s, 'chat_turn_duration', 'p(95)') ?? 0,
      turn_p50_ms: stat(s, 'chat_turn_duration', 'med') ?? 0,
      conversations_per_s: stat(s, 'iterations', 'rate') ?? 0,
      error_rate: stat(s, 'http_req_failed', 'value') ?? 0,
    };
    return {
      figures,
      headline: [
        `${perSec(figures.turns_per_s)} chat turns, p95 ${ms(figures.turn_p95_ms)} (median ${ms(figures.turn_p50_ms)})`,
        `${perSec(figures.conversations_per_s)} conversations, HTTP error rate ${(figures.error_rate * 100).toFixed(2)}%`,
      ],
    };
  },
};
