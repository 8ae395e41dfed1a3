import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallsClient } from '../clients/calls.js';
import { ChatClient } from '../clients/chat.js';
import { ControlClient } from '../clients/control-client.js';
import { REFERENCE_HISTORY } from '../contract/conversations/shapes.js';
import { OUTBOUND_RETENTION_MS } from '../contract/outbound/shapes.js';
import type { Project } from './records/projects.js';
import { recordsOf } from './records/store.js';
import { type RunningTarget, startTarget } from './server.js';

// A target with a tiny retention, driven through its documented API: what it lets go, and what it must keep.

const MINUTE = 60_000;
const RETENTION = { maxCount: 2, maxAgeMs: 10 * MINUTE };

describe('a reference target with a small retention', () => {
  let target: RunningTarget;
  let chat: ChatClient;
  let calls: CallsClient;
  let control: ControlClient;
  beforeAll(async () => {
    target = await startTarget({ retention: RETENTION });
    chat = new ChatClient(target.loaded);
    calls = new CallsClient(target.loaded);
    control = new ControlClient(target.loaded);
  });
  afterAll(async () => {
    await target?.close();
  });

  const open = async () => (await chat.create({ channel: 'api' })).json?.conversation_id as string;
  const closed = async () => {
    const id = await open();
    expect((await chat.close({ conversation_id: id })).status).toBe(200);
    return id;
  };
  const respondStatus = async (id: string) => (await chat.respond({ conversation_id: id, message: 'Still there?' })).status;
  const main = () => recordsOf(target.context).byKey('main') as Project;

  it('keeps the newest closed conversations up to the count and every open one, and answers 404 for the rest', async () => {
    const live = await open();
    const [first, second, third] = [await closed(), await closed(), await closed()];
    expect(await respondStatus(first)).toBe(404); // let go: Conversation not found
    expect([await respondStatus(second), await respondStatus(third)]).toEqual([409, 409]); // kept: Conversation is closed
    expect(await respondStatus(live)).toBe(200);
  });

  it('lets a closed conversation go once the retained age has passed on the target clock, and never an open one', async () => {
    const live = await open();
    const gone = await closed();
    target.context.clock.advance(RETENTION.maxAgeMs);
    expect(await respondStatus(gone)).toBe(404);
    expect(await respondStatus(live)).toBe(200);
  });

  it('keeps the seeded history whole, state written to it included, while served conversations come and go', async () => {
    const store = recordsOf(target.context);
    const seeded = store.history(main()).at(-1);
    expect(seeded).toBeDefined();
    const bridge = { bridge_duration_seconds: 30, call_duration_seconds: 90 };
    expect((await calls.bridgeEnded({ conversation_id: seeded?.id, ...bridge })).status).toBe(204);
    for (let i = 0; i < 5; i++) await closed();
    target.context.clock.advance(2 * RETENTION.maxAgeMs);
    for (let i = 0; i < 3; i++) await closed();
    expect(store.history(main())).toHaveLength(REFERENCE_HISTORY.count);
    expect(store.find(seeded?.id as string)?.record).toBe(seeded);
    expect(store.hasLaterState(seeded?.id as string)).toBe(true);
    // History first, then the served conversations the store still holds: every open one, and the retained count of closed ones.
    const held = [...target.context.conversations.values()];
    expect(held.filter((c) => c.status === 'closed')).toHaveLength(RETENTION.maxCount);
    expect(store.records(main())).toHaveLength(REFERENCE_HISTORY.count + held.length);
  });

  it('drops state written to a served conversation along with it', async () => {
    const id = await closed();
    expect((await calls.bridgeEnded({ conversation_id: id, bridge_duration_seconds: 1, call_duration_seconds: 2 })).status).toBe(204);
    expect(recordsOf(target.context).hasLaterState(id)).toBe(true);
    await closed();
    await closed();
    expect(recordsOf(target.context).hasLaterState(id)).toBe(false);
  });

  it('keeps only the retained count of bridge-ended notifications for the control surface', async () => {
    const id = await open();
    for (const seconds of [1, 2, 3]) await calls.bridgeEnded({ conversation_id: id, bridge_duration_seconds: seconds, call_duration_seconds: 10 });
    const { invocations } = await control.call<{ invocations: { bridge_duration_seconds: number }[] }>('GET', `/bridge/invocations?conversation_id=${id}`);
    expect(invocations.map((i) => i.bridge_duration_seconds)).toEqual([2, 3]);
  });

  it('keeps a finished call’s status for its documented two hours however small the retention, then forgets the call', async () => {
    const sid = (await calls.trigger<{ call_sid: string }>({ to_number: '+447700900123' })).json?.call_sid as string;
    const more = (n: number) => Promise.all(Array.from({ length: n }, () => calls.trigger({ to_number: '+447700900124' })));
    target.context.clock.advance(OUTBOUND_RETENTION_MS - MINUTE);
    await more(256); // a sweep runs among these: the call is inside its retention, so it stays
    const status = await calls.status<{ status: string }>(sid);
    expect([status.status, status.json?.status]).toEqual([200, 'success']);
    target.context.clock.advance(2 * MINUTE);
    const view = await control.call<{ status: string | null }>('GET', `/outbound/calls/${sid}`);
    expect(view.status).toBeNull(); // the status is removed; the call is still held until the next sweep
    await more(256);
    await expect(control.call('GET', `/outbound/calls/${sid}`)).rejects.toThrow(/404/);
    expect((await calls.status(sid)).status).toBe(404);
  });
});
