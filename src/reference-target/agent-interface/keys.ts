import { randomBytes } from 'node:crypto';
import type { Tenant } from '../tenancy.js';

/** Who an API key belongs to: alert and webhook resources are scoped to the account, agents to the workspace. */
export interface KeyOwner {
  readonly accountId: string;
  readonly workspaceId: string;
  /** A public label for the key (deployments name it in createdBy); never the key itself. */
  readonly keyId: string;
}

/** The workspace of the profile's agents_api_key. */
export const REFERENCE_WORKSPACE = 'ws_reference';
/** The workspace of agents_other_workspace_key: same account, no permission on REFERENCE_WORKSPACE. */
export const OTHER_WORKSPACE = 'ws_other';

/**
 * API keys of the agent build and monitoring interface. "Keys are issued on request": the operator
 * issues the two profile keys at start, and the control surface mints isolated accounts for tests.
 */
export class KeyRegistry {
  readonly #owners = new Map<string, KeyOwner>();

  constructor(tenant: Tenant, mainKey: string, otherWorkspaceKey: string) {
    this.#owners.set(mainKey, { accountId: tenant.accountId, workspaceId: REFERENCE_WORKSPACE, keyId: 'key_reference' });
    this.#owners.set(otherWorkspaceKey, { accountId: tenant.accountId, workspaceId: OTHER_WORKSPACE, keyId: 'key_other_workspace' });
  }

  owner(key: string | undefined): KeyOwner | undefined {
    return key === undefined ? undefined : this.#owners.get(key);
  }

  /** A fresh account with its own workspace and key, so cases that count or fill an account do not meet each other. */
  mintAccount(): { readonly apiKey: string } & KeyOwner {
    const id = randomBytes(6).toString('hex');
    const owner: KeyOwner = { accountId: `ACCOUNT-${id}`, workspaceId: `ws_${id}`, keyId: `key_${id}` };
    const apiKey = `dt_${randomBytes(18).toString('base64url')}`;
    this.#owners.set(apiKey, owner);
    return { apiKey, ...owner };
  }

  /** Whether an account id was issued (the reference account or a minted one). */
  hasAccount(accountId: string): boolean {
    for (const o of this.#owners.values()) if (o.accountId === accountId) return true;
    return false;
  }
}
