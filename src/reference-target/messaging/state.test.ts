import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_IDLE_EXPIRY_MS } from '../../contract/messaging/shapes.js';
import { bareContext } from '../bare-context.js';
import { joinAgent } from './client-events.js';
import { MessagingState } from './state.js';

function messaging() {
  const ctx = bareContext({ seed: 5, voiceClientPage: false });
  const clock = ctx.clock;
  return { clock, state: new MessagingState(ctx) };
}
const init = { streaming: false, platform: 'web', userAgent: undefined } as const;

describe('what the messaging surface keeps beside its sessions', () => {
  // The clock is real time plus what a test advances: frozen, so "1 ms short of the expiry" stays 1 ms short on a busy
  // runner too.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets a session’s conversation and socket set go when the session expires', () => {
    const { clock, state } = messaging();
    const session = state.sessions.create({ ...init, connectorId: state.mainConnector.id });
    joinAgent(state, session); // opens the conversation and broadcasts, which makes the (empty) socket set
    expect([state.conversations.size, state.sockets.has(session.id)]).toEqual([1, true]);
    clock.advance(SESSION_IDLE_EXPIRY_MS);
    expect(state.sessions.get(session.id)).toBeUndefined();
    expect([state.conversations.size, state.sockets.has(session.id)]).toEqual([0, false]);
  });

  it('keeps everything of a session that is idle for less than the documented expiry', () => {
    const { clock, state } = messaging();
    const session = state.sessions.create({ ...init, connectorId: state.mainConnector.id });
    joinAgent(state, session);
    clock.advance(SESSION_IDLE_EXPIRY_MS - 1);
    expect(state.sessions.get(session.id)).toBe(session);
    expect(state.conversations.has(session.conversationId as string)).toBe(true);
    expect(session.history).toHaveLength(1);
  });

  it('lets a removed session’s conversation go too', () => {
    const { state } = messaging();
    const session = state.sessions.create({ ...init, connectorId: state.mainConnector.id });
    joinAgent(state, session);
    state.sessions.delete(session.id);
    expect([state.conversations.size, state.sockets.has(session.id)]).toEqual([0, false]);
  });
});
