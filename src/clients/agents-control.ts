import type { AlertMetric } from '../contract/alerts/shapes.js';
import type { AgentsClient } from './agents.js';
import type { ControlClient } from './control-client.js';

/** An account minted for one case: its own alert rules, webhook endpoints and agents workspace. */
export interface MintedAccount {
  readonly account_id: string;
  readonly workspace_id: string;
  readonly api_key: string;
}

/** A transition one evaluation made. */
export interface EvaluatedTransition {
  readonly id: string;
  readonly from: string;
  readonly to: string;
  readonly event: string | null;
}

/** Traffic injected as if the target had served it (turns with a latency, function calls, calls). */
export interface InjectedTraffic {
  readonly kind: 'api' | 'turn' | 'function' | 'call';
  readonly count?: number;
  readonly project_id?: string;
  readonly latency_ms?: number;
  readonly error?: boolean;
  readonly crashed?: boolean;
}

/**
 * The reference target's document-3 control endpoints (`/alerts/…`, `/agents/…`). Cases work in
 * accounts minted for them and never move the shared clock, so they do not disturb each other.
 *
 * @example
 * const dc = new AgentsControl(t.control);
 * const acct = await dc.mintAccount();
 * await dc.setMetric(acct.account_id, 'api_errors', 12);
 * await dc.evaluate(acct.account_id); // resolves once each delivery's first attempt ended
 */
export class AgentsControl {
  constructor(private readonly control: ControlClient) {}

  mintAccount() {
    return this.control.call<MintedAccount>('POST', '/alerts/accounts', {});
  }
  /** The account of the profile's own key, where chat traffic counts. */
  referenceAccount() {
    return this.control.call<{ account_id: string }>('GET', '/alerts/accounts/reference');
  }
  /** Sets the value the monitoring backend reports for a metric; null reports no data. */
  setMetric(accountId: string, metric: AlertMetric, value: number | null, projectId?: string) {
    return this.control.call('PUT', `/alerts/accounts/${encodeURIComponent(accountId)}/metrics/${metric}`, {
      value,
      ...(projectId ? { project_id: projectId } : {}),
    });
  }
  traffic(accountId: string, traffic: InjectedTraffic) {
    return this.control.call('POST', `/alerts/accounts/${encodeURIComponent(accountId)}/traffic`, traffic);
  }
  /** Makes the account's monitoring backend fail (502 on alert requests, evaluations that cannot complete) or recover. */
  backend(accountId: string, syncFailure: boolean) {
    return this.control.call('PUT', `/alerts/accounts/${encodeURIComponent(accountId)}/backend`, { sync_failure: syncFailure });
  }
  evaluate(accountId: string) {
    return this.control.call<{ evaluated_at: string; transitions: EvaluatedTransition[]; deliveries: number }>(
      'POST',
      `/alerts/accounts/${encodeURIComponent(accountId)}/evaluate`,
      {},
    );
  }
  deliveries(accountId: string) {
    return this.control.call<{ attempts: { deliveryId: string; attempt: number; status: number | null; at: string }[] }>(
      'GET',
      `/alerts/accounts/${encodeURIComponent(accountId)}/deliveries`,
    );
  }
  /** What no documented path reads back: branches with behavior and topics, config pages with the variables in effect. */
  agent(agentId: string) {
    return this.control.call<{
      branches: { branchId: string; behavior: string; topics: string[] }[];
      deployments: number;
      configs: Record<string, { variables: Record<string, unknown> }>;
    }>('GET', `/agents/${encodeURIComponent(agentId)}`);
  }
  agentFault(agentId: string, internalError: boolean) {
    return this.control.call('PUT', `/agents/${encodeURIComponent(agentId)}/fault`, { internal_error: internalError });
  }
  /** Defines a real-time config page and its JSON Schema (the document does not show that path). */
  defineConfig(agentId: string, config: string, schema: unknown) {
    return this.control.call('PUT', `/agents/${encodeURIComponent(agentId)}/real-time-configs/${encodeURIComponent(config)}/schema`, { schema });
  }
  /** The target clock in whole seconds, for verifying delivery timestamps against the target's own time. */
  async nowSeconds(): Promise<number> {
    const s = await this.control.call<{ clock: { now: string } }>('GET', '/state');
    return Math.floor(Date.parse(s.clock.now) / 1000);
  }
}

/** The account a case works in, with its client and (on the reference target) the control to drive it. */
export interface CaseAccount {
  readonly client: AgentsClient;
  readonly accountId: string;
  readonly control: AgentsControl;
}

/**
 * A fresh account for one case, minted through the control surface, so limits and lists are the
 * case's own even while other cases run beside it.
 */
export async function mintedAccount(agents: AgentsClient, control: ControlClient): Promise<CaseAccount> {
  const dc = new AgentsControl(control);
  const a = await dc.mintAccount();
  return { client: agents.withKey(a.api_key), accountId: a.account_id, control: dc };
}

/** A minted account when the target has a control surface, else the profile key's own account. */
export async function caseAccount(agents: AgentsClient, control: ControlClient | undefined): Promise<{ client: AgentsClient; minted: boolean }> {
  return control ? { client: (await mintedAccount(agents, control)).client, minted: true } : { client: agents, minted: false };
}
