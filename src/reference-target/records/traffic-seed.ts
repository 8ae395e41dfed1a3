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

/** What to generate: the seed, where the window ends, and the project's variants and lines. */
export interface TrafficSeedSpec {
  readonly seed: number;
  /** The window's end (exclusive), epoch ms: a UTC midnight. */
  readonly toMs: number;
  /** Whole days before `toMs` (default {@link SEEDED_TRAFFIC}'s). */
  readonly days?: number;
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
  const days = spec.days ?? t.days;
  const fromMs = spec.toMs - days * DAY_MS;
  for (let hour = 0; hour < days * 24; hour++) {
    const hourStart = fromMs + hour * HOUR_MS;
    const n = t.perHourOfDay[hour % 24] as number;
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
