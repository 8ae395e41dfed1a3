import { type Dialogue, type DialogueExpect, DialoguesFile, MAX_SCHEDULE, MAX_WEIGHT } from '../load/dialogues.js';

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
/** Two or more capitalised words in a row (a person's full name, or a place: both go). */
const NAME = /\b[A-Z][a-z'’-]+(?:\s+[A-Z][a-z'’-]+)+\b/g;
const DIGIT = /\d/g;

/** How many dialogues a learned file keeps at most: the most frequent. */
export const MAX_LEARNED_DIALOGUES = 200;

/**
 * A user turn with its personal data masked: the turn's entity values as `[entity]`, e-mail addresses as `[email]`,
 * runs of capitalised words as `[name]`, every digit as `#`.
 *
 * @example
 * maskText('Booking under Maria Lopez, call 07700 900123 or maria@example.com') // 'Booking under [name], call ##### ###### or [email]'
 */
export function maskText(text: string, entities: Readonly<Record<string, unknown>> = {}): string {
  let out = text;
  for (const [k, v] of Object.entries(entities)) if (typeof v === 'string' && v.length >= 2) out = out.split(v).join(`[${k}]`);
  return out.replace(EMAIL, '[email]').replace(NAME, '[name]').replace(DIGIT, '#');
}

/** What the agent did after the last turn of a record: handed off, ended, or still in progress. */
function expectOf(r: Record<string, unknown>): DialogueExpect {
  if (r.handoff === true) return 'handoff';
  return r.in_progress === true ? 'none' : 'end';
}

/**
 * A conversation-script file (the format of the profile's `dialogues`) from raw records: each record's non-empty user
 * turns, masked, as one dialogue; identical dialogues become one, weighted by how often they occurred (the most
 * frequent {@link MAX_LEARNED_DIALOGUES}, weights within the file's bounds); undefined when no record has a user turn.
 *
 * @example
 * learnDialogues(rawRecords).dialogues[0] // { turns: ['I want to book a table for # on Monday', …], expect: 'end', weight: 12 }
 */
export function learnDialogues(records: readonly unknown[]): DialoguesFile | undefined {
  const counts = new Map<string, { d: Omit<Dialogue, 'weight'>; n: number }>();
  for (const raw of records) {
    if (typeof raw !== 'object' || raw === null) continue;
    const r = raw as Record<string, unknown>;
    const turns = (Array.isArray(r.turns) ? r.turns : [])
      .map((t: Record<string, unknown>) =>
        typeof t?.user_input === 'string' ? maskText(t.user_input, (t.entities as Record<string, unknown>) ?? {}).trim() : '',
      )
      .filter((t) => t !== '');
    if (turns.length === 0) continue;
    const d = { turns, expect: expectOf(r) };
    const key = JSON.stringify(d);
    const seen = counts.get(key);
    if (seen) seen.n += 1;
    else counts.set(key, { d, n: 1 });
  }
  const kept = [...counts.values()].sort((a, b) => b.n - a.n).slice(0, MAX_LEARNED_DIALOGUES);
  const total = kept.reduce((s, k) => s + k.n, 0);
  // Weights keep their proportions where they can; one dialogue's and all of them together stay within the file's bounds.
  const scale = Math.min(1, MAX_WEIGHT / Math.max(kept[0]?.n ?? 1, 1), (MAX_SCHEDULE - MAX_LEARNED_DIALOGUES) / Math.max(total, 1));
  const dialogues = kept.map((k) => ({ ...k.d, weight: Math.max(1, Math.floor(k.n * scale)) }));
  return dialogues.length ? DialoguesFile.parse({ dialogues }) : undefined;
}
