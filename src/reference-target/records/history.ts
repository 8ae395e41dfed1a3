// The English faker alone: the package's main entry loads every locale (395 ms against 88 ms at each start of the target).
import { faker } from '@faker-js/faker/locale/en';
import type { ClientEnv } from '../../contract/common.js';
import { SeededRandom } from '../ids.js';
import { compareRecords, type RecordData, type TurnData } from './model.js';

/** What to generate: how many records, started in which window, with which seed. */
export interface HistorySpec {
  readonly seed: number;
  readonly count: number;
  readonly fromMs: number;
  readonly toMs: number;
  readonly variants: readonly { readonly id: string; readonly name: string }[];
  /** The phone lines of the project (to_number of voice and SMS records). */
  readonly lines: readonly string[];
  /** How many of the newest records are still in progress. */
  readonly inProgress: number;
}

/** Values with their relative weights. */
export type Weighted<T> = readonly (readonly [T, number])[];

const ENVIRONMENTS: Weighted<ClientEnv> = [
  ['live', 70],
  ['sandbox', 15],
  ['pre-release', 15],
];
/** The channel mix of generated records. */
export const CHANNELS: Weighted<string> = [
  ['VOICE-SIP', 55],
  ['WEBCHAT', 25],
  ['CHAT', 15],
  ['SMS', 5],
];
const LANGUAGES: Weighted<string> = [
  ['en-GB', 55],
  ['en-US', 25],
  ['es-ES', 10],
  ['fr-FR', 10],
];
/** Channels whose records carry phone numbers. */
const PHONE_CHANNELS = new Set(['VOICE-SIP', 'SMS']);

/** Pools made once with faker per history, then picked from with a fast seeded generator. */
export interface Pools {
  readonly names: readonly string[];
  readonly products: readonly string[];
  readonly cities: readonly string[];
  readonly postcodes: readonly string[];
  readonly refs: readonly string[];
  readonly days: readonly string[];
}

/** The word pools of one seed, made with faker. */
export function pools(seed: number): Pools {
  // Seeded, then used to the end without a pause: nothing else can draw from it in between.
  const f = faker;
  f.seed(seed);
  const many = <T>(n: number, make: () => T) => Array.from({ length: n }, make);
  return {
    names: many(160, () => f.person.fullName()),
    products: many(80, () => f.commerce.productName().toLowerCase()),
    cities: many(60, () => f.location.city()),
    postcodes: many(80, () => f.location.zipCode('??# #??').toUpperCase()),
    refs: many(120, () => f.string.alphanumeric({ length: 8, casing: 'upper' })),
    days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  };
}

/** One kind of exchange: what the caller says, what the agent answers, the intent and entities. */
export interface Exchange {
  readonly intent: string;
  readonly weight: number;
  readonly ood?: boolean;
  readonly silence?: boolean;
  readonly make: (pick: <T>(xs: readonly T[]) => T, p: Pools) => { user: string; agent: string; entities?: Record<string, string>; dtmf?: string };
}

// Caller phrases and agent phrases use different words, so a transcript search can match one side only.
const EXCHANGES: readonly Exchange[] = [
  {
    intent: 'book_table',
    weight: 16,
    make: (pick, p) => {
      const size = String(2 + Math.floor(pick([0, 1, 2, 3, 4, 5])));
      const day = pick(p.days);
      return {
        user: `I want to book a table for ${size} on ${day}`,
        agent: `Certainly, I have reserved a table for ${size} on ${day}.`,
        entities: { party_size: size, day },
      };
    },
  },
  {
    intent: 'change_booking',
    weight: 10,
    make: (pick, p) => {
      const name = pick(p.names);
      return { user: `Can I change my booking under ${name}`, agent: `Certainly, let me find the reservation for ${name}.`, entities: { caller_name: name } };
    },
  },
  {
    intent: 'opening_hours',
    weight: 12,
    make: (pick, p) => ({
      user: `What time do you open on ${pick(p.days)} in ${pick(p.cities)}`,
      agent: 'Our branches welcome guests from nine in the morning until ten at night.',
    }),
  },
  {
    intent: 'order_status',
    weight: 12,
    make: (pick, p) => {
      const ref = pick(p.refs);
      return {
        user: `My order ${ref} has not arrived yet`,
        agent: `I am sorry about that; order ${ref} is with the courier today.`,
        entities: { order_ref: ref },
      };
    },
  },
  {
    intent: 'refund',
    weight: 8,
    make: (pick, p) => ({
      user: `I need a refund for the ${pick(p.products)}`,
      agent: 'I have started the refund; it reaches your account within five working days.',
    }),
  },
  {
    intent: 'provide_postcode',
    weight: 6,
    make: (pick, p) => {
      const postcode = pick(p.postcodes);
      return { user: `My postcode is ${postcode}`, agent: 'Thank you, that address is noted.', entities: { postcode } };
    },
  },
  {
    intent: 'menu_choice',
    weight: 6,
    make: (pick) => {
      const digit = pick(['1', '2', '3']);
      return { user: '', agent: `You chose option ${digit}; connecting you to that team.`, dtmf: digit };
    },
  },
  {
    intent: 'out_of_domain',
    weight: 6,
    ood: true,
    make: (pick, p) => ({
      user: `Do you sell a ${pick(p.products)} as well`,
      agent: 'I am afraid I can only assist with reservations, orders and refunds.',
    }),
  },
  {
    intent: 'silence',
    weight: 5,
    silence: true,
    make: () => ({ user: '', agent: "Sorry, I didn't catch that. Could you say it again?" }),
  },
];
/** The kinds of exchange by how often they happen. */
export const EXCHANGE_WEIGHTS: Weighted<Exchange> = EXCHANGES.map((e) => [e, e.weight] as const);

/** The last exchange of a conversation that ends without a handoff, and of one handed off. */
export const GOODBYE = { user: 'That is everything, thanks', agent: 'You are welcome. Have a lovely day!' } as const;
export const HANDOFF = { user: 'Can I speak to someone about this', agent: 'Of course, transferring you to a colleague now.' } as const;
export const HANDOFF_REASONS = ['caller_requested_human', 'complex_request', 'complaint'] as const;

/** Seeded choices: one of a list, one by weight, an integer in [lo, hi]. */
export function pickers(rng: SeededRandom) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng.next() * xs.length)] as T;
  const weighted = <T>(xs: Weighted<T>): T => {
    let r = rng.next() * xs.reduce((n, [, w]) => n + w, 0);
    for (const [v, w] of xs) {
      r -= w;
      if (r < 0) return v;
    }
    return (xs[0] as readonly [T, number])[0];
  };
  const between = (lo: number, hi: number) => lo + Math.floor(rng.next() * (hi - lo + 1));
  return { pick, weighted, between };
}

/**
 * Generates a project's seeded conversation history: the same spec gives the same records, ids
 * included. Faker makes the word pools; a mulberry32 generator picks from them so tens of
 * thousands of records take tens of milliseconds. Records come back in ascending order.
 *
 * @example
 * const records = generateHistory({ seed: 1, count: 100, fromMs, toMs, variants, lines: ['+442071838750'], inProgress: 2 });
 */
export function generateHistory(spec: HistorySpec): readonly RecordData[] {
  // Records are immutable, so targets started one after another in one process (the self-test) share them.
  const key = JSON.stringify(spec);
  let records = MADE.get(key);
  if (!records) {
    records = generate(spec);
    MADE.set(key, records);
  }
  return records;
}

const MADE = new Map<string, readonly RecordData[]>();

function generate(spec: HistorySpec): RecordData[] {
  const rng = new SeededRandom(spec.seed);
  const p = pools(spec.seed);
  const { pick, weighted, between } = pickers(rng);
  const exchange = (): Exchange => weighted(EXCHANGE_WEIGHTS);

  const span = spec.toMs - spec.fromMs;
  // Start times: sorted uniform draws, so the records spread evenly over the window.
  const starts = Array.from({ length: spec.count }, () => spec.fromMs + Math.floor(rng.next() * span)).sort((a, b) => a - b);
  const out: RecordData[] = [];
  for (let i = 0; i < spec.count; i++) {
    const startedAt = starts[i] as number;
    const inProgress = i >= spec.count - spec.inProgress;
    const channel = weighted(CHANNELS);
    const phone = PHONE_CHANNELS.has(channel);
    const variant = rng.next() < 0.6 ? spec.variants[0] : (spec.variants[1] ?? spec.variants[0]);
    const language = weighted(LANGUAGES);
    const handoff = !inProgress && rng.next() < 0.12;
    const nTurns = inProgress ? between(1, 2) : between(1, 5);
    const turns: TurnData[] = [];
    const state: Record<string, unknown> = { language };
    let at = startedAt + between(1_000, 4_000);
    for (let t = 0; t < nTurns; t++) {
      const last = t === nTurns - 1 && !inProgress;
      const e = last && handoff ? undefined : last && rng.next() < 0.5 ? undefined : exchange();
      const made = e ? e.make(pick, p) : handoff ? HANDOFF : GOODBYE;
      const latencyMs = between(250, 1_400);
      const userAt = at;
      const agentAt = userAt + latencyMs;
      const entities = ('entities' in made && made.entities) || {};
      Object.assign(state, entities);
      turns.push({
        userInput: made.user,
        userInputDtmf: ('dtmf' in made && made.dtmf) || '',
        userAt,
        bargeIn: rng.next() < 0.08,
        agentResponse: made.agent,
        agentAt,
        latencyMs,
        intents: [e?.intent ?? (handoff ? 'handoff' : 'goodbye')],
        entities,
        isOod: e?.ood === true,
        isSilence: e?.silence === true,
      });
      at = agentAt + between(3_000, 15_000);
    }
    const lastAt = turns.at(-1)?.agentAt ?? startedAt;
    const endedAt = inProgress ? undefined : lastAt + between(1_000, 6_000);
    const fromNumber = phone ? `+44770090${String(between(0, 9999)).padStart(4, '0')}` : '';
    if (fromNumber) state.caller_number = fromNumber;
    out.push({
      id: `conv-${rng.hex(20)}`,
      variantId: variant?.id ?? '',
      variantName: variant?.name ?? '',
      environment: weighted(ENVIRONMENTS),
      startedAt,
      channel,
      fromNumber,
      toNumber: phone ? pick(spec.lines) : '',
      inProgress,
      endedAt,
      handoffAtSeconds: handoff ? Math.round((lastAt - startedAt) / 1000) : undefined,
      handoff: handoff ? { destination: pick(['live-agent-queue', '+442071838799']), reason: pick(HANDOFF_REASONS) } : undefined,
      language,
      turns,
      state,
    });
  }
  return out.sort(compareRecords);
}
