import { request, TargetUnreachable } from '../clients/exchange.js';
import { EnvironmentError } from './errors.js';

/**
 * Makes one bounded request to a host so an unreachable target is reported at once, in one line,
 * rather than as a hundred failed cases or a hang. Any HTTP answer at all counts as reachable.
 */
export async function probe(baseUrl: string, profilePath: string, timeoutMs = 5_000): Promise<void> {
  try {
    await request({ method: 'GET', url: baseUrl, timeoutMs });
  } catch (e) {
    const why = e instanceof TargetUnreachable ? e.message : String(e);
    throw new EnvironmentError(`target unreachable: ${why}; check hosts.base_url in ${profilePath}`);
  }
}
