import { describe, expect, it } from 'vitest';
import { agentTurn } from './agent.js';

describe('the scripted agent', () => {
  it('hands off and flags the end when asked for a person', () => {
    const turn = agentTurn('Can I speak to a person, please?');
    expect(turn.endConversation).toBe(true);
    expect(turn.handoff).toEqual({ destination: 'live-agent-queue', reason: 'caller_requested_human' });
  });

  it('ends without a handoff on goodbye', () => {
    const turn = agentTurn('That is all, thank you. Goodbye!');
    expect(turn).toMatchObject({ endConversation: true, intent: 'goodbye' });
    expect(turn.handoff).toBeUndefined();
  });

  it('asks again on silence and keeps the conversation going', () => {
    expect(agentTurn(undefined)).toMatchObject({ endConversation: false, intent: 'silence' });
  });

  it('answers the same message the same way every time', () => {
    expect(agentTurn('Where is my order?')).toEqual(agentTurn('Where is my order?'));
  });
});
