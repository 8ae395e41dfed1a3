import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentsClient } from '../../clients/agents.js';
import { mintedAccount } from '../../clients/agents-control.js';
import { ControlClient } from '../../clients/control-client.js';
import { MAX_ALERT_RULES_PER_ACCOUNT } from '../../contract/alerts/shapes.js';
import type { DefectId } from '../defects.js';
import { type RunningTarget, startTarget } from '../server.js';

// The 10-rules-per-account limit under a burst of simultaneous creates, and threshold_value beyond 32 bits, on the
// reference target and with the defects that break each.

const BURST = MAX_ALERT_RULES_PER_ACCOUNT + 3;
const BEYOND_INT32 = 2 ** 32;
const body = (o: Record<string, unknown> = {}) => ({ name: 'burst', metric: 'api_errors', operator: '>=', threshold_value: 10, window_duration: '5m', ...o });

function withTarget(defects: DefectId[]) {
  const s = {} as { target: RunningTarget; account: () => Promise<AgentsClient> };
  beforeAll(async () => {
    s.target = await startTarget({ defects });
    s.account = async () => (await mintedAccount(new AgentsClient(s.target.loaded), new ControlClient(s.target.loaded))).client;
  });
  afterAll(async () => {
    await s.target?.close();
  });
  return s;
}

/** Sends `n` creates at once on a fresh account; the statuses, sorted, and how many rules the account lists. */
async function burst(account: AgentsClient, n: number) {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => account.createRule(body({ name: `burst ${i}` }))));
  const listed = (await account.listRules()).json as { data: unknown[] };
  return { statuses: answers.map((r) => r.status).sort(), listed: listed.data.length };
}

describe('the alert rule limit and threshold_value', () => {
  const s = withTarget([]);

  it(`creates exactly ${MAX_ALERT_RULES_PER_ACCOUNT} of ${BURST} simultaneous creates and answers the rest 409`, async () => {
    const { statuses, listed } = await burst(await s.account(), BURST);
    expect(statuses).toEqual([...Array(MAX_ALERT_RULES_PER_ACCOUNT).fill(201), ...Array(BURST - MAX_ALERT_RULES_PER_ACCOUNT).fill(409)]);
    expect(listed).toBe(MAX_ALERT_RULES_PER_ACCOUNT);
  });

  it(`accepts threshold_value ${BEYOND_INT32} on create and update and lists it back unchanged`, async () => {
    const account = await s.account();
    const created = await account.createRule(body({ threshold_value: BEYOND_INT32 }));
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    expect((await account.updateRule(id, { threshold_value: BEYOND_INT32 + 1 })).status).toBe(200);
    const listed = (await account.listRules()).json as { data: { id: string; threshold_value: number }[] };
    expect(listed.data.find((r) => r.id === id)?.threshold_value).toBe(BEYOND_INT32 + 1);
  });
});

describe('the defect alerts-rule-limit-races', () => {
  const s = withTarget(['alerts-rule-limit-races']);

  it(`creates more than ${MAX_ALERT_RULES_PER_ACCOUNT} rules from a burst of ${BURST}: each create counts from a replica that lags`, async () => {
    const { listed } = await burst(await s.account(), BURST);
    expect(listed).toBeGreaterThan(MAX_ALERT_RULES_PER_ACCOUNT);
  });
});

describe('the defect alerts-threshold-int32', () => {
  const s = withTarget(['alerts-threshold-int32']);

  it(`refuses threshold_value ${BEYOND_INT32} as invalid, while 2147483647 passes`, async () => {
    const account = await s.account();
    expect((await account.createRule(body({ threshold_value: 2 ** 31 - 1 }))).status).toBe(201);
    const res = await account.createRule(body({ threshold_value: BEYOND_INT32 }));
    expect([res.status, (res.json as { errors?: { field: string }[] }).errors?.[0]?.field]).toEqual([400, 'threshold_value']);
  });
});
