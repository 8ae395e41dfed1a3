import { randomBytes } from 'node:crypto';
import type { CredentialName } from '../profile/schema.js';
import { Credentials } from '../profile/schema.js';

/** One account/project pair the target serves, with both documented id forms. */
export interface Tenant {
  readonly accountSlug: string;
  readonly accountId: string;
  readonly projectSlug: string;
  readonly projectId: string;
  readonly variants: readonly { id: string; name: string }[];
}

/**
 * Credentials issued by the "operator" at start, one per credential a profile can name, plus the
 * control token: random every run, never in a file the repo holds.
 */
export type IssuedCredentials = Readonly<Record<CredentialName, string>> & { readonly controlToken: string };

/** The reference target's single seeded tenant. Prefixed ids follow the ACCOUNT-/PROJECT- form. */
export const REFERENCE_TENANT: Tenant = {
  accountSlug: 'dialtone-demo',
  accountId: 'ACCOUNT-8d1f2c7e',
  projectSlug: 'support-line',
  projectId: 'PROJECT-4b9a0e31',
  variants: [
    { id: 'VARIANT-main', name: 'Main site' },
    { id: 'VARIANT-north', name: 'North branch' },
  ],
};

/** Every credential name a profile may reference. */
export const CREDENTIAL_NAMES = Object.keys(Credentials.shape) as CredentialName[];

export function issueCredentials(): IssuedCredentials {
  const token = () => `dt_${randomBytes(18).toString('base64url')}`;
  const out: Record<string, string> = { controlToken: token() };
  for (const name of CREDENTIAL_NAMES) out[name] = token();
  return out as IssuedCredentials;
}

/** The environment variable the reference profile uses for a credential, e.g. DIALTONE_REF_CHAT_API_KEY. */
export const referenceEnvName = (name: CredentialName | 'control_token') => `DIALTONE_REF_${name.toUpperCase()}`;

/** Whether the path ids name the tenant, in slug form or (when allowed) prefixed form. */
export function matchTenant(tenant: Tenant, account: string, project: string, allowPrefixed: boolean): boolean {
  const accountOk = account === tenant.accountSlug || (allowPrefixed && account === tenant.accountId);
  const projectOk = project === tenant.projectSlug || (allowPrefixed && project === tenant.projectId);
  return accountOk && projectOk;
}
