// teardown(data) (/using-k6/test-lifecycle/): once, after the VUs, on the init context's VU.
import type { Vu } from '../vu.js';
import type { SetupResult } from './setup.js';

/**
 * Runs the script's teardown() with setup()'s data, unless setup was cut short (k6 skips it then, as when setup throws);
 * it runs after an abort too, and what it throws is left out. Then closes the init context's VU.
 *
 * @example
 * await runTeardown(init.vu0, setup);
 */
export async function runTeardown(vu0: Vu, setup: SetupResult): Promise<void> {
  if (typeof vu0.exports.teardown === 'function' && !setup.cut) {
    vu0.group = '::teardown';
    const data = setup.data === undefined ? undefined : JSON.parse(setup.data);
    await vu0.iterate(() => (vu0.exports.teardown as (d: unknown) => unknown)(data), undefined).catch(() => {});
    vu0.group = '';
  }
  await vu0.close();
}
