// Shows that long work is alive and how far it is: a line rewritten in place on a terminal, plain lines now and then
// when the output is a log (CI). Every time it shows is wall time, from when the step started.

/** Where progress goes: a terminal gets a line rewritten in place, anything else plain lines. */
export interface ProgressOut {
  readonly isTTY?: boolean | undefined;
  write(text: string): unknown;
}

/** Seconds between plain lines in a log, and between refreshes of a terminal's line. */
const LOG_EVERY_MS = 10_000;
const TTY_EVERY_MS = 1_000;
/** A step shorter than this shows nothing at all: it needs no sign of life, and a usage error stays one line. */
const QUIET_BELOW_MS = 2_000;

/** `12 s`, `3 min 05 s`: wall time as a person reads it. */
export function wallTime(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** One long step's progress: `label: done of total, elapsed`; `end` prints its last line with its wall time. */
export interface Progress {
  /** Counts `n` more done (default 1). */
  tick(n?: number): void;
  /** Writes a line of the step's own (to `to`, default the progress output) above the progress line. */
  note(line: string, to?: ProgressOut): void;
  /** Ends the step and prints `label: done of total in WALL`, plus what `summary` adds. */
  end(summary?: string): number;
}

/**
 * Starts a step's progress. A terminal's line is refreshed every second and on each tick; a log gets a line every 10 s,
 * so a step of a few minutes writes a few lines, never one per item. A step done within 2 s writes nothing.
 *
 * @example
 * const p = startProgress('defect self-test', 90, process.stderr);
 * p.tick(); // after each defect
 * p.end(); // "defect self-test: 90 of 90 in 1 min 12 s"
 */
export function startProgress(label: string, total: number | undefined, out: ProgressOut = process.stderr, now: () => number = Date.now): Progress {
  const started = now();
  let done = 0;
  let ended = false;
  const count = () => (total !== undefined ? `${done} of ${total}` : done ? String(done) : '');
  const line = () => `${label}: ${count() ? `${count()}, ` : ''}${wallTime(now() - started)}`;
  let shown = started;
  const show = () => {
    if (ended) return;
    shown = now();
    if (out.isTTY) out.write(`\r\x1b[2K${line()}`);
    else out.write(`${line()}\n`);
  };
  const timer = setInterval(show, out.isTTY ? TTY_EVERY_MS : LOG_EVERY_MS);
  timer.unref();
  return {
    tick(n = 1) {
      done += n;
      // A step that keeps the event loop busy never lets the timer fire: its ticks write the log's lines instead.
      if (now() - shown >= (out.isTTY ? 0 : LOG_EVERY_MS) && now() - started >= QUIET_BELOW_MS) show();
    },
    note(text, to = out) {
      const onLine = out.isTTY && !ended && shown !== started;
      if (onLine) out.write('\r\x1b[2K');
      to.write(`${text}\n`);
      if (onLine) show();
    },
    end(summary) {
      if (ended) return now() - started;
      ended = true;
      clearInterval(timer);
      const wall = now() - started;
      if (wall < QUIET_BELOW_MS && shown === started) return wall;
      const last = `${label}${count() ? `: ${count()}` : ''} in ${wallTime(wall)}${summary ? `; ${summary}` : ''}`;
      out.write(out.isTTY ? `\r\x1b[2K${last}\n` : `${last}\n`);
      return wall;
    },
  };
}
