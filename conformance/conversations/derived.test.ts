import { rule } from '../../src/suite/case.js';
import { chatConversation, ids, marker, page, recent, repeated, walkCursor } from './records.js';

// Sequences the documents constrain while the data changes: a walk is documented complete with no word of the data
// standing still, so it must stay complete while conversations are written between its pages.

/** Conversations the case writes first (side by side), so the walk has pages to cross. */
const SEEDED = 6;
/** Pages the walk is cut into whatever the window holds, and how many of them a conversation is written after. */
const PAGES = 8;
const WRITES = 4;

rule(
  'conversations.cursor.walk-complete',
  'derived: walked by cursor while a conversation is written after every page, returns each record that was there before exactly once',
  async (api) => {
    await Promise.all(Array.from({ length: SEEDED }, () => chatConversation(api, `${marker()} seeded before the walk`)));
    const query = { ...(await recent(api)), client_env: api.t.profile.environment };
    // One page for the window's records as they stand (1000 is within both documented ranges of limit).
    const before = ids((await walkCursor(api, query, 1000)).records);
    api.check.that(before.length >= SEEDED, `the window holds the ${SEEDED} conversations written first`, before.length);
    // Pages sized so the walk crosses about PAGES of them however busy the window is: a write after each costs an agent's turn.
    const limit = Math.max(2, Math.ceil(before.length / PAGES));
    const walked: string[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 2 * PAGES + WRITES; n++) {
      const p = await page(api, { ...query, limit, cursor });
      walked.push(...ids(p.conversations));
      if (p.cursor === null || p.cursor === undefined) break;
      cursor = p.cursor;
      if (n < WRITES) await chatConversation(api, `${marker()} written between pages`);
    }
    api.check.equal(repeated(walked), [], 'no record repeated in a walk with writes between its pages');
    api.check.equal(
      before.filter((id) => !walked.includes(id)),
      [],
      'no record that was there before the walk missing from it',
    );
  },
  // Its chat turns take as long as the target's agent: a minute, where a case is otherwise given 30 s.
  { operation: 'derived walk with writes', timeoutMs: 60_000 },
);
