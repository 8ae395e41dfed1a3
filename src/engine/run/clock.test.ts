// The time a run reports comes from the clock it is given (io.clock), not from the wall: here a clock the test holds
// still and moves by an hour at a point of the script's choosing, so an hour of run time passes in milliseconds. Its
// worker threads are real; what is asserted is the clock's arithmetic, never how long anything took.
import { describe, expect, it } from 'vitest';
import { START_AFTER_MS } from './drive.js';
import { runInProcess } from './in-process.js';
import type { Clock } from './io.js';

const HOUR_MS = 3_600_000;

/** A clock that stands still until `advance` moves it. */
function heldClock(at: number): Clock & { advance(ms: number): void } {
  let now = at;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

describe('a run on the clock it is given', () => {
  // k6-semantics.md, thresholds: "`abortOnFail` stops the run as soon as it fails; `delayAbortEval` postpones that
  // check." Postponed by an hour of the run's time: not before the clock has moved it, at once after.
  it('waits out delayAbortEval on its own clock, then stops with exit 99 and reports the hour in the summary', async () => {
    const clock = heldClock(1_000_000);
    let abortedBeforeTheHour: boolean | undefined;
    const r = await runInProcess(
      `import { Rate } from 'k6/metrics';
       const ok = new Rate('ok');
       export const options = {
         scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '10h' } },
         thresholds: { ok: [{ threshold: 'rate>0.5', abortOnFail: true, delayAbortEval: '1h' }] },
       };
       let n = 0;
       export default async function () {
         ok.add(false);
         if (n++ === 20) console.log('twenty iterations failed');
         await new Promise((r) => setTimeout(r, 5));
       }
       export function handleSummary(data) {
         const it = data.metrics.iterations.values;
         return { stdout: 'run ms=' + data.state.testRunDurationMs + ' count=' + it.count + ' rate=' + it.rate + '\\n' };
       }`,
      ['--quiet'],
      {
        clock,
        // By the twentieth failed iteration the threshold has failed for a while; only the hour may let it abort.
        onWrite: (_out, err) => {
          if (abortedBeforeTheHour !== undefined || !err.includes('twenty iterations failed')) return;
          abortedBeforeTheHour = err.includes('abortOnFail');
          clock.advance(START_AFTER_MS + HOUR_MS);
        },
        // A run the hour did not stop is stopped here, and fails on its exit code.
        signalAfterMs: 60_000,
      },
    );
    expect(abortedBeforeTheHour).toBe(false);
    expect(r.code, r.stderr).toBe(99);
    expect(r.stderr).toContain('at least one has abortOnFail enabled, stopping test prematurely');
    // The run began when its workers did, START_AFTER_MS after it read the held clock, and ended an hour later.
    const [, ms, count, rate] = /run ms=(\d+) count=(\d+) rate=([\d.e-]+)/.exec(r.stdout) ?? [];
    expect(Number(ms)).toBe(HOUR_MS);
    // Counter rates divide by the run's length on that clock: a few dozen iterations over an hour.
    expect(Number(count)).toBeGreaterThan(20);
    expect(Number(rate)).toBeCloseTo(Number(count) / (HOUR_MS / 1000), 12);
  });
});
