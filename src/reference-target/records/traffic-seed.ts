import { type Distribution, sample } from '../distribution.js';
import { SeededRandom } from '../ids.js';
import { CHANNELS, EXCHANGE_WEIGHTS, GOODBYE, HANDOFF, HANDOFF_REASONS, pickers, pools } from './history.js';
import { compareRecords, type RecordData, type TurnData } from './model.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The traffic the reference target seeds with `dialtone target --traffic-seed N`, whose distributions are known, so
 * `dialtone traffic learn` can be checked against them. Every day of the window has the same arrivals per hour of day
 * (conversations start at seeded instants inside their hour); everything else is drawn per conversation.
 */
export const SEEDED_TRAFFIC = {
  /** Whole UTC days, ending where the day the target started begins. */
  days: 7,
  /** Conversations started in each hour of the day (UTC): a working-day curve, busiest 12:00–13:00. */
  perHourOfDay: [12, 8, 6, 6, 8, 14, 30, 60, 96, 120, 132, 140, 150, 144, 132, 120, 108, 96, 84, 72, 60, 42, 30, 18],
  /** Turns per conversation: uniform over these whole numbers (median 5). */
  turns: { min: 2, max: 8 },
  /** From an agent response to the next user input, ms. */
  thinkTime: { kind: 'lognormal', p50: 6_000, p95: 15_000 } as Distribution,
  /** Agent latency per turn, ms. */
  agentLatency: { kind: 'lognormal', p50: 1_200, p95: 3_000 } as Distribution,
  /** From the start to the first user input, and from the last answer to the end, ms. */
  opening: { kind: 'uniform', min: 1_000, max: 3_000 } as Distribution,
  closing: { kind: 'uniform', min: 500, max: 2_000 } as Distribution,
  channels: CHANNELS,
  handoffRate: 0.12,
} as const;

/**
 * How much seeded traffic, over how long (`dialtone target --traffic-days`, `--traffic-scale`, `--traffic-growth`):
 * every hour of day d (0 the oldest) starts round(perHourOfDay × scale × (1 + growth × d)) conversations, so the daily
 * peak grows by a known amount a day.
 */
export interface TrafficShape {
  /** Whole days before the window's end. */
  readonly days: number;
  /** The share of {@link SEEDED_TRAFFIC}'s arrivals per hour seeded on the first day (1: all). */
  readonly scale: number;
  /** How much every hour's arrivals grow a day, as a share of the first day's (0.02: 2 % of it a day). */
  readonly growth: number;
}

/** The traffic seeded without flags: a week alike every day, at full volume. */
export const DEFAULT_TRAFFIC_SHAPE: TrafficShape = { days: SEEDED_TRAFFIC.days, scale: 1, growth: 0 };

/**
 * Conversations started in one hour of the seeded window: the hour of day's arrivals, scaled and grown to day `day`.
 *
 * @example
 * seededHourCount({ days: 56, scale: 0.1, growth: 0.02 }, 55, 12) // round(150 × 0.1 × 2.1) = 32
 */
export function seededHourCount(shape: TrafficShape, day: number, hourOfDay: number): number {
  return Math.round((SEEDED_TRAFFIC.perHourOfDay[hourOfDay] as number) * shape.scale * (1 + shape.growth * day));
}

/**
 * How many conversations a shape seeds, for the bound on the target's memory.
 *
 * @example
 * seededConversations(DEFAULT_TRAFFIC_SHAPE) // 7 × 1,688 = 11,816
 */
export function seededConversations(shape: TrafficShape): number {
  let n = 0;
  for (let day = 0; day < shape.days; day++) for (let hour = 0; hour < 24; hour++) n += seededHourCount(shape, day, hour);
  return n;
}

/** What to generate: the seed, where the window ends, how much traffic, and the project's variants and lines. */
export interface TrafficSeedSpec extends Partial<TrafficShape> {
  readonly seed: number;
  /** The window's end (exclusive), epoch ms: a UTC midnight. */
  readonly toMs: number;
  readonly variants: readonly { readonly id: string; readonly name: string }[];
  readonly lines: readonly string[];
}

/**
 * Where seeded traffic ends for a target started at `nowMs`: the start of that UTC day.
 *
 * @example
 * trafficWindowEnd(Date.parse('2026-11-25T20:00:00Z')) // Date.parse('2026-11-25T00:00:00Z')
 */
export function trafficWindowEnd(nowMs: number): number {
  return Math.floor(nowMs / DAY_MS) * DAY_MS;
}

/** The shape's fields a spec sets (an undefined one keeps the default). */
const definedOf = (spec: Partial<TrafficShape>): Partial<TrafficShape> =>
  Object.fromEntries(Object.entries({ days: spec.days, scale: spec.scale, growth: spec.growth }).filter(([, v]) => v !== undefined));

/**
 * Seeded traffic of {@link SEEDED_TRAFFIC}'s distributions over `spec.days` (default its days) before `spec.toMs`: finished, `live`
 * conversations with transcripts, ascending. The same spec gives the same records.
 *
 * @example
 * generateTraffic({ seed: 7, toMs: trafficWindowEnd(Date.now()), variants, lines }).length // 7 × 1,688
 */
export function generateTraffic(spec: TrafficSeedSpec): readonly RecordData[] {
  const t = SEEDED_TRAFFIC;
  const rng = new SeededRandom(spec.seed);
  const p = pools(spec.seed);
  const { pick, weighted, between } = pickers(rng);
  const out: RecordData[] = [];
  const shape: TrafficShape = { ...DEFAULT_TRAFFIC_SHAPE, ...definedOf(spec) };
  const fromMs = spec.toMs - shape.days * DAY_MS;
  for (let hour = 0; hour < shape.days * 24; hour++) {
    const hourStart = fromMs + hour * HOUR_MS;
    const n = seededHourCount(shape, Math.floor(hour / 24), hour % 24);
    for (let i = 0; i < n; i++) {
      const startedAt = hourStart + Math.floor(rng.next() * HOUR_MS);
      const channel = weighted(t.channels);
      const handoff = rng.next() < t.handoffRate;
      const nTurns = between(t.turns.min, t.turns.max);
      const turns: TurnData[] = [];
      const state: Record<string, unknown> = { language: 'en-GB' };
      let at = startedAt + Math.round(sample(t.opening, rng));
      for (let k = 0; k < nTurns; k++) {
        const last = k === nTurns - 1;
        const e = last ? undefined : weighted(EXCHANGE_WEIGHTS);
        const made = e ? e.make(pick, p) : handoff ? HANDOFF : GOODBYE;
        const latencyMs = Math.max(1, Math.round(sample(t.agentLatency, rng)));
        const entities = ('entities' in made && made.entities) || {};
        Object.assign(state, entities);
        turns.push({
          userInput: made.user,
          userInputDtmf: ('dtmf' in made && made.dtmf) || '',
          userAt: at,
          bargeIn: false,
          agentResponse: made.agent,
          agentAt: at + latencyMs,
          latencyMs,
          intents: [e?.intent ?? (handoff ? 'handoff' : 'goodbye')],
          entities,
          isOod: e?.ood === true,
          isSilence: e?.silence === true,
        });
        at += latencyMs + (last ? 0 : Math.round(sample(t.thinkTime, rng)));
      }
      const lastAt = at;
      const phone = channel === 'VOICE-SIP' || channel === 'SMS';
      const variant = spec.variants[i % Math.max(spec.variants.length, 1)];
      out.push({
        id: `conv-${rng.hex(20)}`,
        variantId: variant?.id ?? '',
        variantName: variant?.name ?? '',
        environment: 'live',
        startedAt,
        channel,
        fromNumber: phone ? `+44770090${String(between(0, 9999)).padStart(4, '0')}` : '',
        toNumber: phone ? pick(spec.lines) : '',
        inProgress: false,
        endedAt: lastAt + Math.round(sample(t.closing, rng)),
        handoffAtSeconds: handoff ? Math.round((lastAt - startedAt) / 1000) : undefined,
        handoff: handoff ? { destination: 'live-agent-queue', reason: pick(HANDOFF_REASONS) } : undefined,
        language: 'en-GB',
        turns,
        state,
      });
    }
  }
  return out.sort(compareRecords);
}
