import { request } from '../clients/exchange.js';
import type { LoadedProfile } from '../profile/load.js';
import type { Results } from '../report/results.js';

/** What a case's failure says when the target was not there: the client could not connect or got no answer. */
const UNREACHABLE = /ECONNREFUSED|ECONNRESET|socket hang up|no answer within|connect ETIMEDOUT|EPIPE/;

/**
 * Whether the target went away during a run: some case failed because it could not reach the target, and the target
 * still does not answer now. Resolves to a one-line reason, or undefined when the target is there (then failures are
 * the target's answers, judged by the gate as usual).
 *
 * @example
 * const died = await targetDied(results, session.loaded);
 * if (died) console.log(died); // exit code 3
 */
export async function targetDied(results: Results, loaded: LoadedProfile, timeoutMs = 3000): Promise<string | undefined> {
  const refused = results.cases.filter((c) => c.outcome === 'fail' && UNREACHABLE.test(c.detail));
  if (refused.length === 0 && !results.errors.some((e) => UNREACHABLE.test(e))) return undefined;
  try {
    await request({ method: 'GET', url: loaded.profile.hosts.base_url, timeoutMs });
    return undefined;
  } catch (e) {
    const first = (e as Error).message.split('\n')[0];
    return `target unreachable during the run: ${refused.length} case(s) could not reach it, and it still does not answer (${first})`;
  }
}
