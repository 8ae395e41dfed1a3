import { request, TargetUnreachable } from '../clients/exchange.js';
import { EnvironmentError } from '../errors.js';
import { SYSTEM_TRUST, type Trust } from '../profile/tls.js';

/**
 * Makes one bounded request to a host so an unreachable target is reported at once, in one line,
 * rather than as a hundred failed cases or a hang. Any HTTP answer at all counts as reachable.
 */
export async function probe(baseUrl: string, profilePath: string, trust: Trust = SYSTEM_TRUST, timeoutMs = 5_000): Promise<void> {
  try {
    await request({ method: 'GET', url: baseUrl, timeoutMs, trust });
  } catch (e) {
    const why = e instanceof TargetUnreachable ? e.message : String(e);
    // A certificate the run does not trust is a profile matter: say which field fixes it.
    const hint = /certificate|self.signed|CERT_|unable to verify/i.test(why)
      ? `name the CA in tls.ca_file of ${profilePath}`
      : `check hosts.base_url in ${profilePath}`;
    throw new EnvironmentError(`target unreachable: ${why}; ${hint}`);
  }
}
