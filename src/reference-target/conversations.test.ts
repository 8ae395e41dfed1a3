import { describe, expect, it } from 'vitest';
import { AdjustableClock } from './clock.js';
import { ConversationStore } from './conversations.js';
import { SeededRandom } from './ids.js';

const MINUTE = 60_000;

function store(maxCount: number, maxAgeMs = 60 * MINUTE) {
  const clock = new AdjustableClock();
  return { clock, conversations: new ConversationStore(clock, new SeededRandom(3), { maxCount, maxAgeMs }) };
}
const chat = { source: 'chat', channel: 'api', variantId: undefined, integrationAttributes: undefined } as const;

describe('what the conversation store keeps', () => {
  it('keeps at most the retained count of closed conversations, forgetting the oldest closed first', () => {
    const { conversations } = store(2);
    const made = Array.from({ length: 4 }, () => conversations.create(chat));
    // Closed in another order than made: the first closed goes first.
    for (const i of [2, 0, 3, 1]) conversations.close(made[i] as (typeof made)[number]);
    const kept = made.filter((c) => conversations.get(c.id));
    expect(kept.map((c) => c.id)).toEqual([made[1]?.id, made[3]?.id]);
    expect(conversations.size).toBe(2);
  });

  it('forgets a closed conversation once the retained age has passed since it closed', () => {
    const { clock, conversations } = store(100, 30 * MINUTE);
    const c = conversations.create(chat);
    clock.advance(45 * MINUTE); // a long conversation: its age counts from the close, not the start
    conversations.close(c);
    clock.advance(29 * MINUTE);
    expect(conversations.get(c.id)).toBe(c);
    clock.advance(MINUTE);
    expect(conversations.get(c.id)).toBeUndefined();
  });

  it('never lets an open or flagged-to-end conversation go, however many closed ones come after and however old it is', () => {
    const { clock, conversations } = store(1, 10 * MINUTE);
    const open = conversations.create(chat);
    const flagged = conversations.create(chat);
    flagged.status = 'flagged-to-end';
    for (let i = 0; i < 50; i++) conversations.close(conversations.create(chat));
    clock.advance(24 * 60 * MINUTE);
    expect(conversations.get(open.id)).toBe(open);
    expect(conversations.get(flagged.id)).toBe(flagged);
    expect(conversations.size).toBe(2);
  });

  it('counts a closed conversation once however often it is closed', () => {
    const { clock, conversations } = store(100, 10 * MINUTE);
    const c = conversations.create(chat);
    conversations.close(c);
    clock.advance(9 * MINUTE);
    conversations.close(c); // closing again does not restart its age
    clock.advance(MINUTE);
    expect(conversations.get(c.id)).toBeUndefined();
  });

  it('counts a voice call from when it ended', () => {
    const { clock, conversations } = store(100, 10 * MINUTE);
    const call = conversations.create({ ...chat, source: 'voice', channel: 'VOICE-WEBRTC' });
    call.endedAt = clock.now() - 5 * MINUTE;
    conversations.close(call);
    clock.advance(5 * MINUTE);
    expect(conversations.get(call.id)).toBeUndefined();
  });

  it('tells its listeners the id of each conversation it lets go', () => {
    const { conversations } = store(1);
    const forgotten: string[] = [];
    conversations.onForget((id) => forgotten.push(id));
    const a = conversations.create(chat);
    const b = conversations.create(chat);
    conversations.close(a);
    conversations.close(b);
    expect(forgotten).toEqual([a.id]);
  });
});
