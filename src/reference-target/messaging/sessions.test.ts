import { describe, expect, it } from 'vitest';
import { SESSION_IDLE_EXPIRY_MS } from '../../contract/messaging/shapes.js';
import type { Clock } from '../clock.js';
import { SeededRandom } from '../ids.js';
import { SessionStore } from './sessions.js';

/** A clock that moves only when told: AdjustableClock also runs with real time, which blurs a 1 ms boundary on a busy machine. */
function stoppedClock(): Clock & { advance(ms: number): void } {
  let now = 1_000_000;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

function store() {
  const clock = stoppedClock();
  return { clock, sessions: new SessionStore(clock, new SeededRandom(7), () => SESSION_IDLE_EXPIRY_MS) };
}
const init = { connectorId: 'connector-1', streaming: false, platform: 'web', userAgent: undefined } as const;

describe('the messaging session store', () => {
  it('keeps a session until it has been idle for the expiry, then forgets it for good', () => {
    const { clock, sessions } = store();
    const s = sessions.create(init);
    clock.advance(SESSION_IDLE_EXPIRY_MS - 1);
    expect(sessions.get(s.id)).toBe(s);
    clock.advance(1);
    expect(sessions.get(s.id)).toBeUndefined();
    clock.advance(0);
    expect(sessions.get(s.id)).toBeUndefined();
  });

  it('counts from the last activity', () => {
    const { clock, sessions } = store();
    const s = sessions.create(init);
    clock.advance(SESSION_IDLE_EXPIRY_MS - 1000);
    sessions.touch(s);
    clock.advance(SESSION_IDLE_EXPIRY_MS - 1000);
    expect(sessions.get(s.id)).toBe(s);
  });

  it('hands out each armed fault once, in the order armed', () => {
    const { sessions } = store();
    const s = sessions.create(init);
    s.faults.push('high-load', 'start-failed', 'high-load');
    expect(sessions.takeFault(s, 'start-failed')).toBe('start-failed');
    expect(sessions.takeFault(s, 'trouble-responding')).toBeUndefined();
    expect(sessions.takeFault(s, 'high-load', 'trouble-responding')).toBe('high-load');
    expect(s.faults).toEqual(['high-load']);
  });

  it('tells its listener of every session it forgets, expired or removed, once each', () => {
    const clock = stoppedClock();
    const forgotten: string[] = [];
    const sessions = new SessionStore(
      clock,
      new SeededRandom(7),
      () => SESSION_IDLE_EXPIRY_MS,
      (s) => forgotten.push(s.id),
    );
    const [idle, removed, live] = [sessions.create(init), sessions.create(init), sessions.create(init)];
    expect(sessions.delete(removed.id)).toBe(true);
    expect(sessions.delete(removed.id)).toBe(false);
    clock.advance(SESSION_IDLE_EXPIRY_MS - 1);
    sessions.touch(live);
    clock.advance(1);
    expect([sessions.get(idle.id), sessions.get(idle.id), sessions.get(live.id)]).toEqual([undefined, undefined, live]);
    expect(forgotten).toEqual([removed.id, idle.id]);
  });

  it('gives sessions distinct ids', () => {
    const { sessions } = store();
    const ids = new Set(Array.from({ length: 50 }, () => sessions.create(init).id));
    expect(ids.size).toBe(50);
  });
});
