import { percentile } from '../core/percentile.js';
import { drawFrom } from '../load/vu/quantiles.js';
import { seeded } from '../nightly/noise.js';
import { LITTLE_TOLERANCE, type LittlesLaw, QUANTILE_POINTS, type Quantiles, type TrafficModel } from './model.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The concurrency endpoint's window (document 2): peaks are per 5 minutes. */
const WINDOW_S = 300;

/** One turn as the learner needs it: instants in epoch ms (undefined when the record had none), latency in seconds. */
export interface TrafficTurn {
  readonly userAt: number | undefined;
  readonly agentAt: number | undefined;
  readonly latencyS: number | undefined;
}

/** One conversation record, v1 or v3, reduced to what the traffic model reads. */
export interface TrafficRecord {
  readonly startedAt: number;
  readonly channel: string;
  readonly numTurns: number;
  readonly durationS: number;
  readonly inProgress: boolean;
  readonly handoff: boolean;
  /** Empty when the project's transcripts are off: the record still counts through numTurns. */
  readonly turns: readonly TrafficTurn[];
}

/** One 5-minute window of the concurrency series. */
export interface ConcurrencyWindow {
  readonly at: number;
  readonly peak: number;
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
/** A date and time without a zone (v1's legacy form): read as UTC, never as the machine's local time. */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;
const instant = (v: unknown): number | undefined => {
  const s = str(v);
  const zoneless = s === undefined ? null : ZONELESS.exec(s);
  const t = s === undefined ? Number.NaN : Date.parse(zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : s);
  return Number.isNaN(t) ? undefined : t;
};

/**
 * A record of the conversations list, v3 or v1 (fields may be null on v1, timestamps any form Date.parse reads), as a
 * {@link TrafficRecord}; undefined when it has no readable `started_at`. A time without a zone is UTC. A turn's `latency` is read in milliseconds
 * (the unit is not shown in document 2; the reference target's choice), else from its two timestamps.
 *
 * @example
 * trafficRecordOf({ started_at: '2026-11-01T10:00:00Z', channel: 'CHAT', num_turns: 2, total_duration: 40, turns: [] })?.numTurns // 2
 */
export function trafficRecordOf(raw: unknown): TrafficRecord | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  const startedAt = instant(r.started_at);
  if (startedAt === undefined) return undefined;
  const turns = (Array.isArray(r.turns) ? r.turns : []).map((t: Record<string, unknown>): TrafficTurn => {
    const userAt = instant(t?.user_input_datetime);
    const agentAt = instant(t?.agent_response_datetime);
    const ms = num(t?.latency) ?? (userAt !== undefined && agentAt !== undefined ? agentAt - userAt : undefined);
    return { userAt, agentAt, latencyS: ms === undefined ? undefined : ms / 1000 };
  });
  return {
    startedAt,
    channel: str(r.channel) ?? '(none)',
    numTurns: num(r.num_turns) ?? turns.length,
    durationS: num(r.total_duration) ?? 0,
    inProgress: r.in_progress === true,
    handoff: r.handoff === true,
    turns,
  };
}

/**
 * The model's quantiles of some observations, with how many they rest on.
 *
 * @example
 * quantiles([1, 2, 3, 4, 5]).p50 // 3
 */
export function quantiles(values: readonly number[]): Quantiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => round(percentile(sorted, p));
  const [p5, p10, p25, p50, p75, p90, p95, p99] = QUANTILE_POINTS.map(at) as [number, number, number, number, number, number, number, number];
  const mean = sorted.length ? sorted.reduce((s, x) => s + x, 0) / sorted.length : 0;
  return { n: sorted.length, mean: round(mean), p5, p10, p25, p50, p75, p90, p95, p99 };
}

/**
 * Arrivals per hour of day (UTC, the mean over the window's days) and the busiest single hour (clock hours).
 *
 * @example
 * arrivals(records, Date.parse('2026-11-01T00:00Z'), Date.parse('2026-11-08T00:00Z')).busiest_hour.per_second
 */
export function arrivals(records: readonly TrafficRecord[], fromMs: number, toMs: number): TrafficModel['arrivals'] {
  const days = Math.max((toMs - fromMs) / DAY_MS, 1 / 24);
  const perHour = new Array<number>(24).fill(0);
  const byClockHour = new Map<number, number>();
  for (const r of records) {
    const h = Math.floor(r.startedAt / HOUR_MS);
    perHour[((h % 24) + 24) % 24] = (perHour[((h % 24) + 24) % 24] as number) + 1;
    byClockHour.set(h, (byClockHour.get(h) ?? 0) + 1);
  }
  let best: [number, number] = [Math.floor(fromMs / HOUR_MS), 0];
  for (const [h, n] of byClockHour) if (n > best[1] || (n === best[1] && h < best[0])) best = [h, n];
  const daily = new Map<number, number>();
  for (const [h, n] of byClockHour) {
    const day = Math.floor(h / 24);
    daily.set(day, Math.max(daily.get(day) ?? 0, n));
  }
  const daily_peaks = [...daily]
    .sort((a, b) => a[0] - b[0])
    .map(([day, n]) => ({ date: new Date(day * DAY_MS).toISOString().slice(0, 10), per_second: Math.round((n / 3600) * 1e6) / 1e6 }));
  return {
    days: round(days),
    per_hour_of_day: perHour.map((n) => round(n / days)),
    daily_peaks,
    busiest_hour: { start: new Date(best[0] * HOUR_MS).toISOString(), conversations: best[1], per_second: Math.round((best[1] / 3600) * 1e6) / 1e6 },
  };
}

/** Think times in seconds: from each agent response to the next user input of the same conversation. */
export function thinkTimes(records: readonly TrafficRecord[]): number[] {
  const out: number[] = [];
  for (const r of records) {
    for (let i = 1; i < r.turns.length; i++) {
      const prev = r.turns[i - 1]?.agentAt;
      const next = r.turns[i]?.userAt;
      if (prev !== undefined && next !== undefined && next >= prev) out.push((next - prev) / 1000);
    }
  }
  return out;
}

/** Share of records per channel, rounded to 3 decimals. */
export function channelMix(records: readonly TrafficRecord[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const r of records) counts.set(r.channel, (counts.get(r.channel) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([c, n]) => [c, round(n / Math.max(records.length, 1))]));
}

/** How many hours the peak of an hour is simulated for; the mean of their window peaks is the prediction. */
const SIMULATED_HOURS = 200;
const MAX_WARM_S = 86_400;

/**
 * The mean 5-minute peak of conversations arriving at `rate` per second (a Poisson stream) and lasting as the learned
 * durations say: Little's law gives the mean (rate × mean duration), but the concurrency endpoint reports each window's
 * peak, which sits above it; this plays the hour {@link SIMULATED_HOURS} times (seeded, the same every time) and
 * averages the peaks of its twelve windows.
 *
 * @example
 * simulatedWindowPeak(0.1, quantiles([60]))
 */
export function simulatedWindowPeak(rate: number, durations: Quantiles, seed = 25): number {
  if (rate <= 0 || durations.n === 0) return 0;
  const r = seeded(seed);
  // Conversations open when the hour starts count too: the hour is played from as far back as the longest lasts (at most a day).
  const warm = Math.min(drawFrom(durations, 1), MAX_WARM_S) + 1;
  let sum = 0;
  for (let h = 0; h < SIMULATED_HOURS; h++) {
    const events: [number, number][] = [];
    for (let t = -warm - Math.log(1 - r()) / rate; t < 3600; t += -Math.log(1 - r()) / rate) {
      events.push([t, 1], [t + drawFrom(durations, r()), -1]);
    }
    events.sort((a, b) => a[0] - b[0] || a[1] - b[1]); // an end before a start at the same instant
    let i = 0;
    let open = 0;
    for (; i < events.length && (events[i] as [number, number])[0] < 0; i++) open += (events[i] as [number, number])[1];
    for (let w = 1; w <= 12; w++) {
      let peak = open; // a window holds at least what was open when it began
      for (; i < events.length && (events[i] as [number, number])[0] < w * WINDOW_S; i++) {
        open += (events[i] as [number, number])[1];
        peak = Math.max(peak, open);
      }
      sum += peak / 12;
    }
  }
  return round(sum / SIMULATED_HOURS);
}

/**
 * Little's law over the busiest hour: its arrival rate times the mean duration, as a 5-minute peak, beside the mean of
 * the peaks the platform reported for that hour's windows.
 */
export function littlesLaw(arrivalPerSecond: number, durations: Quantiles, reported: readonly ConcurrencyWindow[], hourStart: number): LittlesLaw {
  const meanDurationS = durations.mean;
  const mean = arrivalPerSecond * meanDurationS;
  const predicted = simulatedWindowPeak(arrivalPerSecond, durations);
  const inHour = reported.filter((w) => w.at >= hourStart && w.at < hourStart + HOUR_MS);
  const observed = inHour.length ? inHour.reduce((s, w) => s + w.peak, 0) / inHour.length : undefined;
  const disagreement = observed === undefined || observed === 0 ? undefined : Math.abs(predicted - observed) / observed;
  return {
    arrival_per_second: Math.round(arrivalPerSecond * 1e6) / 1e6,
    mean_duration_s: round(meanDurationS),
    mean_concurrency: round(mean),
    predicted_peak: predicted,
    reported_peak: observed === undefined ? null : round(observed),
    disagreement: disagreement === undefined ? null : round(disagreement),
    agrees: disagreement === undefined ? null : disagreement <= LITTLE_TOLERANCE,
  };
}

/** Where the records came from, for the model's `source`. */
export interface LearnSource {
  readonly baseUrl: string;
  readonly clientEnv: string;
  readonly apiVersion: string;
  readonly fromMs: number;
  readonly toMs: number;
}

/**
 * The traffic model of some records and the concurrency series of the same window.
 *
 * @example
 * const model = learnModel(records, windows, { baseUrl, clientEnv: 'live', apiVersion: 'v3', fromMs, toMs });
 */
export function learnModel(records: readonly TrafficRecord[], windows: readonly ConcurrencyWindow[], source: LearnSource): TrafficModel {
  const finished = records.filter((r) => !r.inProgress);
  const withTurns = records.filter((r) => r.turns.length > 0);
  const latencies = withTurns.flatMap((r) => r.turns.flatMap((t) => (t.latencyS === undefined ? [] : [t.latencyS])));
  const duration = quantiles(finished.map((r) => r.durationS));
  const arrived = arrivals(records, source.fromMs, source.toMs);
  const handed = finished.filter((r) => r.handoff).length;
  const peak = windows.reduce<ConcurrencyWindow | undefined>((best, w) => (best === undefined || w.peak > best.peak ? w : best), undefined);
  return {
    model: 'dialtone-traffic/1',
    source: {
      base_url: source.baseUrl,
      client_env: source.clientEnv,
      api_version: source.apiVersion,
      since: new Date(source.fromMs).toISOString(),
      until: new Date(source.toMs).toISOString(),
      conversations: records.length,
      without_turns: records.length - withTurns.length,
    },
    arrivals: arrived,
    turns: quantiles(finished.map((r) => r.numTurns)),
    think_time_s: quantiles(thinkTimes(records)),
    agent_latency_s: quantiles(latencies),
    duration_s: duration,
    channels: channelMix(records),
    handoff_rate: round(handed / Math.max(finished.length, 1)),
    end_rate: round((finished.length - handed) / Math.max(finished.length, 1)),
    concurrency: { peak: peak?.peak ?? null, peak_at: peak ? new Date(peak.at).toISOString() : null, windows: windows.length },
    littles_law: littlesLaw(arrived.busiest_hour.conversations / 3600, duration, windows, Date.parse(arrived.busiest_hour.start)),
  };
}
