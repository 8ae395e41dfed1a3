import { describe, expect, it } from 'vitest';
import { learnDialogues, maskText } from './dialogues.js';

describe('maskText', () => {
  it('masks entity values, e-mail addresses, full names and every digit', () => {
    expect(maskText('Booking under Maria Lopez, call 07700 900123 or maria.lopez@example.com')).toBe('Booking under [name], call ##### ###### or [email]');
    expect(maskText('My order A1B2C3D4 is late', { order_ref: 'A1B2C3D4' })).toBe('My order [order_ref] is late');
  });

  it('leaves a turn with nothing personal as it was', () => {
    expect(maskText('What time do you open on Monday')).toBe('What time do you open on Monday');
  });
});

describe('learnDialogues', () => {
  it('makes one dialogue per distinct masked script, weighted by how often it occurred, with the outcome of the record', () => {
    const rec = (user: string, handoff = false) => ({
      handoff,
      in_progress: false,
      turns: [
        { user_input: user, entities: {} },
        { user_input: '', entities: {} },
      ],
    });
    const file = learnDialogues([rec('Table for 2'), rec('Table for 4'), rec('Table for 6'), rec('Call me, Ann Lee', true)]);
    expect(file?.dialogues).toEqual([
      { turns: ['Table for #'], expect: 'end', weight: 3 },
      { turns: ['Call me, [name]'], expect: 'handoff', weight: 1 },
    ]);
  });

  it('writes nothing when no record has a user turn (transcripts off)', () => {
    expect(learnDialogues([{ turns: [] }, { turns: null }])).toBeUndefined();
  });
});
