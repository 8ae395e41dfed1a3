import type { CaseOptions } from './case.js';

// The real-time variants of the time-based rules (`--slow`): they check on any target, by waiting, what the
// `control` variants check on the reference target by moving its time. A variant waits as long as its rule says,
// with the tolerance its "about" allows, derived from the spec's constants (or from what the target answered, such
// as `expires_in`), never from a setting: a shorter wait would check something else.

export const SECOND_MS = 1000;
export const MINUTE_MS = 60 * SECOND_MS;

/** Time a real-time case gets beyond its waits, for the requests and polls around them. */
const SLACK_MS = 5 * MINUTE_MS;

/** Minutes, in words: 11 → "about 11 minutes", 135 → "about 2 h 15 min". */
export function aboutMinutes(ms: number): string {
  const m = Math.ceil(ms / MINUTE_MS);
  return m < 90 ? `about ${m} minutes` : `about ${Math.floor(m / 60)} h ${m % 60} min`;
}

/**
 * The options of a real-time variant: it needs the `slow` capability, its vitest timeout covers its waits plus
 * slack, and its skip reason says how long it takes (`takes`, default from `waitMs`).
 *
 * @example
 * rule('messaging.expiry.idle-ten-minutes', 'in real time: …', body, realTime(11 * MINUTE_MS));
 */
export function realTime(waitMs: number, takes = aboutMinutes(waitMs)): CaseOptions {
  return { needs: ['slow'], timeoutMs: waitMs + SLACK_MS, takes };
}

/** Marks a console line as progress of a real-time wait; the suite's reporter prints it as it comes. */
export const WAIT_MARK = '[dialtone:wait]';
/** Waits shorter than this are polls and backoffs, not worth a progress line. */
const ANNOUNCE_FROM_MS = 10 * SECOND_MS;

/**
 * Waits until the wall clock reads `deadline` (ms since the epoch), in steps of at most 30 s, so a long wait ends on
 * time even if a timer fires late or the machine slept: the target's time is wall-clock time too. A wait of 10 s or
 * more is announced (what for, and until when) through the console, which the progress reporter shows.
 */
export async function sleepUntil(deadline: number, what = 'a real-time case'): Promise<void> {
  const ms = deadline - Date.now();
  if (ms >= ANNOUNCE_FROM_MS)
    console.info(`${WAIT_MARK} waiting for ${what} until ${new Date(deadline).toISOString().slice(11, 19)} UTC (${aboutMinutes(ms)})`);
  for (let left = deadline - Date.now(); left > 0; left = deadline - Date.now()) {
    await new Promise((r) => setTimeout(r, Math.min(left, 30 * SECOND_MS)));
  }
}

/** Waits `ms` of wall-clock time. */
export const sleep = (ms: number, what?: string): Promise<void> => sleepUntil(Date.now() + ms, what);
