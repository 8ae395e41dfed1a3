// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
import { setTimeout } from 'k6/timers';

/**
 * Resolves after `ms`: the scenarios' only way to pause. A timer, not k6's blocking `sleep` from 'k6', so the VU stays
 * free for its other work (socket events, concurrent requests) and dialtone's built-in engine, whose VUs cannot block,
 * runs the same script.
 *
 * @example
 * await sleep(250); // 250 ms, not seconds as k6's sleep takes
 */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms);
  });
}
