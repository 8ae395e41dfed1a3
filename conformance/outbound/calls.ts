import type { Response } from '../../src/clients/exchange.js';
import { isTerminalStatus, OutboundStatus, OutboundTriggerResponse } from '../../src/contract/outbound/shapes.js';
import type { CaseApi } from '../../src/suite/case.js';
import { recordsControl } from '../conversations/records.js';

// Shared steps of the outbound cases: place a call, poll it, walk its life. With the control
// surface a call is "manual": its time moves only when the case advances it, so no case waits in
// real time and no case moves the clock the other cases share.

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

/** A destination in the UK drama range (+44 7700 900…), E.164, different per call. */
export const destination = () => `+44770090${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`;

/** One poll: the response and the status it names (undefined when it names none). */
export interface Poll {
  readonly res: Response;
  readonly status: OutboundStatus | undefined;
}

export async function poll(api: CaseApi, sid: string): Promise<Poll> {
  const res = await api.t.calls.status(sid);
  const parsed = OutboundStatus.safeParse((res.json as { status?: unknown } | undefined)?.status);
  return { res, status: parsed.success ? parsed.data : undefined };
}

/** Places a call and returns its call_sid; with control, its outcome is forced and its time is manual. */
export async function placeCall(api: CaseApi, outcome?: 'success' | 'failure'): Promise<string> {
  const to = destination();
  if (api.t.capabilities.has('control')) await recordsControl(api).scriptDestination(to, { manual: true, ...(outcome ? { outcome } : {}) });
  const res = await api.t.calls.trigger({ to_number: to });
  api.check.success(res, 'the call is started');
  return api.check.schema(res, OutboundTriggerResponse, 'call_sid with prefix OUT-').call_sid;
}

/** Moves a manual call on (control), or waits for a real one with backoff. */
async function onward(api: CaseApi, sid: string, waited: number): Promise<number> {
  if (api.t.capabilities.has('control')) {
    await recordsControl(api).advanceCall(sid, SECOND_MS);
    return waited;
  }
  const ms = Math.min(250 * 1.5 ** waited, 2 * SECOND_MS);
  await new Promise((r) => setTimeout(r, ms));
  return waited + 1;
}

/**
 * The statuses of a call polled until it is terminal, then `after` more polls. Bounded: 40 steps
 * with control, about two minutes of polling without.
 */
export async function lifecycle(api: CaseApi, sid: string, after = 0): Promise<Poll[]> {
  const polls: Poll[] = [];
  let waited = 0;
  for (let step = 0; step < 70; step++) {
    const p = await poll(api, sid);
    polls.push(p);
    api.check.status(p.res, 200, 'the status is retrievable while the call is placed');
    if (p.status && isTerminalStatus(p.status)) break;
    if (step === 40 && api.t.capabilities.has('control')) break;
    waited = await onward(api, sid, waited);
  }
  const last = polls.at(-1)?.status;
  api.check.that(
    last !== undefined && isTerminalStatus(last),
    'the call ends in success or failure',
    polls.map((p) => p.status),
  );
  for (let i = 0; i < after; i++) polls.push(await poll(api, sid));
  return polls;
}

/** Ages a call by minutes (control surface only). */
export const ageMinutes = (api: CaseApi, sid: string, minutes: number) => recordsControl(api).advanceCall(sid, minutes * MINUTE_MS);

export const statusesOf = (polls: readonly Poll[]) => polls.map((p) => p.status ?? `(${p.res.status})`);
