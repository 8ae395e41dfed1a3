import { rule } from '../../src/suite/case.js';
import { chatConversation, ids, marker, page, recent, repeated, walkCursor } from './records.js';

// Sequences the documents constrain while the data changes: a walk is documented complete with no word of the data
// standing still, so it must stay complete while conversations are written between its pages.

/** Conversations the case writes first, so the walk has pages to cross; then one more after each page. */
const SEEDED = 6;
const LIMIT = 2;

rule(
  'conversations.cursor.walk-complete',
  'derived: walked by cursor while a conversation is written after every page, returns each record that was there before exactly once',
  async (api) => {
    for (let i = 0; i < SEEDED; i++) await chatConversation(api, `${marker()} seeded before the walk`);
    const query = { ...(await recent(api)), client_env: api.t.profile.environment };
    // One page for the window's records as they stand (1000 is within both documented ranges of limit).
    const before = ids((await walkCursor(api, query, 1000)).records);
    api.check.that(before.length >= SEEDED, `the window holds the ${SEEDED} conversations written first`, before.length);
    const walked: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 2 * before.length + SEEDED; n++) {
      const p = await page(api, { ...query, limit: LIMIT, cursor });
      walked.push(...ids(p.conversations));
      if (p.cursor === null || p.cursor === undefined) break;
      cursor = p.cursor;
      await chatConversation(api, `${marker()} written between pages`);
    }
    api.check.equal(repeated(walked), [], 'no record repeated in a walk with writes between its pages');
    api.check.equal(
      before.filter((id) => !walked.includes(id)),
      [],
      'no record that was there before the walk missing from it',
    );
  },
  { operation: 'derived walk with writes' },
);
