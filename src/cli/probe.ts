import { TargetUnreachable } from '../clients/exchange.js';
import { RecordsClient } from '../clients/records.js';
import { EnvironmentError } from '../errors.js';
import type { LoadedProfile } from '../profile/load.js';
import { certificateFailure, presentedCertificate, tlsHint } from '../profile/tls-hint.js';

/**
 * Makes one bounded request to the target so an unreachable one is reported at once, in one line, rather than as a
 * hundred failed cases or a hang. Any HTTP answer at all counts as reachable. The request is a documented read-only
 * operation on base_url (document 2's conversations list, one record, with the profile's key when it names one), so a
 * contract validator in front of the target matches it like every other request.
 */
export async function probe(loaded: LoadedProfile, profilePath: string, timeoutMs = 5_000): Promise<void> {
  try {
    await new RecordsClient(loaded).list({ limit: 1 }, { timeoutMs });
  } catch (e) {
    const why = e instanceof TargetUnreachable ? e.message : String(e);
    // A certificate the run does not trust is a profile matter: the hint says what is wrong with it, and which field fixes it.
    const tls = certificateFailure(why) ? tlsHint(why, loaded.profile, profilePath, await presentedCertificate(loaded.profile.hosts.base_url)) : undefined;
    const hint = tls ?? `check hosts.base_url in ${profilePath}`;
    throw new EnvironmentError(`target unreachable: ${why}; ${hint}`);
  }
}
