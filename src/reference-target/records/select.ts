import type { ConversationsListQuery } from '../../contract/conversations/shapes.js';
import { SeededRandom } from '../ids.js';
import type { RecordData, TurnData } from './model.js';

/** Words too common to carry meaning in a semantic search. */
const STOP_WORDS = new Set(['the', 'and', 'for', 'you', 'your', 'that', 'this', 'with', 'have', 'can', 'are', 'was', 'not', 'what', 'about']);

const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 3 && !STOP_WORDS.has(w));

/** The sides of a turn a transcript search reads, by turn_type (unset: both). */
const SIDES: Record<'user' | 'agent' | 'both', (t: TurnData) => string[]> = {
  user: (t) => [t.userInput],
  agent: (t) => [t.agentResponse],
  both: (t) => [t.userInput, t.agentResponse],
};

/** One predicate per retrieval mode; `random` keeps everything and samples afterwards. */
const RETRIEVAL: Record<'transcript' | 'semantic' | 'none', (q: ConversationsListQuery) => (r: RecordData) => boolean> = {
  transcript: (q) => {
    const needle = (q.query ?? '').toLowerCase();
    const sides = SIDES[q.turn_type ?? 'both'];
    return (r) => r.turns.some((t) => sides(t).some((s) => s.toLowerCase().includes(needle)));
  },
  semantic: (q) => {
    const wanted = new Set(words(q.query ?? ''));
    return (r) => r.turns.some((t) => words(`${t.userInput} ${t.agentResponse}`).some((w) => wanted.has(w)));
  },
  none: () => () => true,
};

/**
 * The records matching a list query's filters and retrieval mode, in the order given (ascending).
 * Time bounds are applied by the store before this; `env` undefined keeps every environment. `inProgressOf` is what the
 * in_progress filter reads (the record's own state unless a defect says otherwise).
 *
 * @example
 * const matching = selectRecords(store.records(project, bounds), query, query.client_env);
 */
export function selectRecords(
  records: readonly RecordData[],
  q: ConversationsListQuery,
  env: ConversationsListQuery['client_env'] | undefined,
  inProgressOf: (r: RecordData) => boolean = (r) => r.inProgress,
): RecordData[] {
  const channels = q.channel ? new Set(q.channel) : undefined;
  const retrieval = RETRIEVAL[q.query_type ?? 'none'](q);
  return records.filter(
    (r) =>
      (env === undefined || r.environment === env) &&
      (channels === undefined || channels.has(r.channel)) &&
      (q.variant_id === undefined || r.variantId === q.variant_id) &&
      (q.variant_name === undefined || r.variantName === q.variant_name) &&
      (q.in_progress === undefined || inProgressOf(r) === q.in_progress) &&
      retrieval(r),
  );
}

/**
 * A random sample of `size` records (all of them when fewer), kept in ascending order.
 *
 * @example
 * sampleRecords(matching, 20, rng.next() * 2 ** 32);
 */
export function sampleRecords(records: readonly RecordData[], size: number, seed: number): RecordData[] {
  if (records.length <= size) return [...records];
  const rng = new SeededRandom(seed);
  const picked = new Set<number>();
  while (picked.size < size) picked.add(Math.floor(rng.next() * records.length));
  return [...picked].sort((a, b) => a - b).map((i) => records[i] as RecordData);
}
