import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChatRespondResponse } from './chat/shapes.js';
import { innerOf, meaningOf, rulesHeld, shapeIssues } from './conforms.js';
import { ConversationRecord, ConversationsListResponseV1AnyProject } from './conversations/shapes.js';
import { isRuleId } from './index.js';
import { givenMeanings, meaning } from './meaning.js';

const respond = { conversation_id: 'c', response: 'r', end_conversation: false };

describe('a value judged against its documented shape', () => {
  it('names the rule of the part that breaks, and the operation rule for the rest', () => {
    const issues = shapeIssues(ChatRespondResponse, { ...respond, handoff: { destination: 'desk' } }, 'chat.respond.response-fields');
    expect(issues.map((i) => [i.path, i.rule])).toEqual([['handoff.reason', 'chat.respond.handoff-shape']]);
    expect(shapeIssues(ChatRespondResponse, { conversation_id: 'c', response: 'r' }, 'chat.respond.response-fields')[0]?.rule).toBe(
      'chat.respond.response-fields',
    );
  });

  it('fails a documented field sent under another case, which the schema alone would drop', () => {
    const { end_conversation: _, ...rest } = respond;
    const issues = shapeIssues(ChatRespondResponse.partial(), { ...rest, End_conversation: false }, 'chat.respond.response-fields');
    expect(issues.map((i) => i.message)).toEqual(['End_conversation sent where the document names end_conversation']);
  });

  it('fails a part that exceeds its whole, as a duration in milliseconds beside one in seconds does', () => {
    const record = { polyai_duration: 61_000, total_duration: 75, num_turns: 4, num_silences: 1, num_ood: 5 };
    const issues = shapeIssues(
      ConversationRecord.pick({ polyai_duration: true, total_duration: true, num_turns: true, num_silences: true, num_ood: true }),
      record,
      'x',
    );
    expect(issues.map((i) => [i.path, i.rule])).toEqual([
      ['polyai_duration', 'conversations.record.parts-within-whole'],
      ['num_ood', 'conversations.record.parts-within-whole'],
    ]);
  });

  it('fails a count that disagrees with the turns it counts, and turns out of order', () => {
    const turn = (at: string, o: Record<string, unknown> = {}) => ({
      user_input_datetime: at,
      agent_response_datetime: at,
      is_silence: false,
      is_ood: false,
      ...o,
    });
    const schema = ConversationRecord.pick({ num_turns: true, num_silences: true, num_ood: true, turns: true });
    const record = { num_turns: 2, num_silences: 0, num_ood: 1, turns: [turn('2026-01-01T00:00:02Z', { is_silence: true }), turn('2026-01-01T00:00:01Z')] };
    const issues = shapeIssues(schema, record, 'conversations.record.fields').filter((i) => i.rule !== 'conversations.turn.fields');
    expect(issues.map((i) => [i.path, i.rule])).toEqual([
      ['num_silences', 'conversations.record.counts-agree'],
      ['num_ood', 'conversations.record.counts-agree'],
      ['turns.1.user_input_datetime', 'conversations.turn.ordered'],
      ['turns.1.agent_response_datetime', 'conversations.turn.ordered'],
    ]);
  });

  it('reads a union by the option the value came nearest to, so a part keeps its own rule', () => {
    const v1 = { conversations: [], descriptions: { conversations: {} }, cursor: 'abc' };
    expect(shapeIssues(ConversationsListResponseV1AnyProject, v1, 'conversations.v1.descriptions').map((i) => [i.path, i.rule])).toEqual([
      ['cursor', 'conversations.v1.no-cursor'],
    ]);
  });

  it('counts only the parts a value holds as judged', () => {
    expect(rulesHeld(ChatRespondResponse, respond)).toEqual([]);
    expect(rulesHeld(ChatRespondResponse, { ...respond, handoff: { destination: 'd', reason: 'r' } })).toEqual(['chat.respond.handoff-shape']);
  });

  it('reads a meaning and the bounds under optional and nullable wrappers', () => {
    const name = meaning(z.string().max(3), { rule: 'agents.agent.name-max-128', length: 'characters' }).optional().nullable();
    expect(meaningOf(name)).toEqual({ rule: 'agents.agent.name-max-128', length: 'characters' });
    expect((innerOf(name) as z.ZodString).maxLength).toBe(3);
  });
});

describe('the meanings the contract gives', () => {
  it('name only rules of the catalogue', async () => {
    // Every shape module registers its meanings when imported: the operations table imports them all.
    await import('./operations.js');
    const named = givenMeanings().flatMap((m) => (m.rule ? [m.rule] : []));
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((id) => !isRuleId(id))).toEqual([]);
  });
});
