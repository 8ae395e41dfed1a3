// setup() (/using-k6/test-lifecycle/): once, before the VUs run; its data goes to every VU as a copy.
import { errorText, type Vu } from '../vu.js';
import type { RunContext } from './context.js';
import { EXIT, Fatal } from './exit-codes.js';

/** What setup() left for the VUs and for teardown(). */
export interface SetupResult {
  /** Its data as JSON, each VU's copy parsed from it. */
  readonly data: string | undefined;
  /** Stopped before setup() finished: no VU runs (they would need its data) and teardown is skipped, as when it throws. */
  readonly cut: boolean;
}

/**
 * Runs the script's setup(), if it has one, on the init context's VU: a stop request interrupts it there. A setup that
 * throws is k6's 107 (teardown is skipped); one that calls exec.test.abort() is 108.
 *
 * @example
 * const setup = await runSetup(run, init.vu0);
 */
export async function runSetup(run: RunContext, vu0: Vu): Promise<SetupResult> {
  if (typeof vu0.exports.setup !== 'function') return { data: undefined, cut: false };
  try {
    vu0.group = '::setup';
    let data: unknown;
    let thrown: { e: unknown } | undefined;
    run.inSetup = vu0;
    const end = run.outcome.signal
      ? 'interrupted'
      : await vu0.iterate(async () => {
          try {
            data = await (vu0.exports.setup as () => unknown)();
          } catch (e) {
            thrown = { e };
          }
        }, undefined);
    run.inSetup = undefined;
    const cut = end === 'interrupted';
    vu0.group = '';
    // k6: "If setup throws, teardown is skipped" and the run ends with the exception (/using-k6/test-lifecycle/).
    if (thrown && !cut) throw thrown.e;
    return { data: data === undefined ? undefined : JSON.stringify(data), cut };
  } catch (e) {
    // exec.test.abort() in setup() ends the run with k6's 108, as in the init context.
    if (run.outcome.aborted) throw new Fatal(EXIT.scriptAborted, `test aborted: ${run.outcome.aborted}`);
    throw new Fatal(EXIT.scriptException, `setup() failed: ${errorText(e)}`);
  }
}
