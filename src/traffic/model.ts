import { z } from 'zod';

/** The quantiles a distribution of the model keeps; enough to draw from it again (src/load/vu/quantiles.ts). */
export { QUANTILE_POINTS } from '../load/vu/quantiles.js';

/**
 * A learned distribution: the number of observations it rests on, their mean and their quantiles
 * (`p50` is the median). A user may edit any figure; the learner writes them rounded to 3 decimals.
 */
export const Quantiles = z.strictObject({
  n: z.number().int().nonnegative(),
  mean: z.number().nonnegative(),
  p5: z.number().nonnegative(),
  p10: z.number().nonnegative(),
  p25: z.number().nonnegative(),
  p50: z.number().nonnegative(),
  p75: z.number().nonnegative(),
  p90: z.number().nonnegative(),
  p95: z.number().nonnegative(),
  p99: z.number().nonnegative(),
});
export type Quantiles = z.infer<typeof Quantiles>;

/** Conversation arrivals: the mean per hour of day (UTC, index 0 is 00:00–01:00) and the busiest hour of the window. */
export const Arrivals = z.strictObject({
  /** How many days of records the means rest on. */
  days: z.number().positive(),
  /** Mean conversations started in each hour of the day, 24 figures. */
  per_hour_of_day: z.array(z.number().nonnegative()).length(24),
  /** The busiest single hour of the window (not the busiest hour of day on average). */
  busiest_hour: z.strictObject({
    start: z.string(),
    conversations: z.number().int().nonnegative(),
    per_second: z.number().nonnegative(),
  }),
  /** Each UTC day of the window with its busiest hour's rate (conversations per second): the growth of the peak. */
  daily_peaks: z.array(z.strictObject({ date: z.string(), per_second: z.number().nonnegative() })).default([]),
});
export type Arrivals = z.infer<typeof Arrivals>;

/** The model's check of itself: Little's law over the busiest hour against the concurrency the platform reported. */
export const LittlesLaw = z.strictObject({
  /** Arrivals per second in the busiest hour. */
  arrival_per_second: z.number().nonnegative(),
  /** Mean conversation duration, seconds. */
  mean_duration_s: z.number().nonnegative(),
  /** L = λ·W: the mean number of conversations open at once in that hour. */
  mean_concurrency: z.number().nonnegative(),
  /** The mean 5-minute peak those arrivals and durations give, played out (see `simulatedWindowPeak`). */
  predicted_peak: z.number().nonnegative(),
  /** The mean of the peaks the platform reported for that hour's 5-minute windows; null without concurrency data. */
  reported_peak: z.number().nonnegative().nullable(),
  /** |predicted − reported| / reported; null without concurrency data. */
  disagreement: z.number().nonnegative().nullable(),
  /** False when they disagree by more than {@link LITTLE_TOLERANCE}. */
  agrees: z.boolean().nullable(),
});
export type LittlesLaw = z.infer<typeof LittlesLaw>;

/** How far Little's law may be from the reported concurrency before the model says so. */
export const LITTLE_TOLERANCE = 0.2;

/**
 * A traffic model learned from a platform's conversation records and concurrency series: a readable
 * JSON file the user commits and edits. Times are seconds; rates are shares of conversations (0..1).
 */
export const TrafficModel = z.strictObject({
  model: z.literal('dialtone-traffic/1'),
  source: z.strictObject({
    /** The records host it was learned from (no credentials). */
    base_url: z.string(),
    client_env: z.string(),
    api_version: z.string(),
    since: z.string(),
    until: z.string(),
    /** Conversations read (in progress included). */
    conversations: z.number().int().nonnegative(),
    /** How many of them carried no turns (transcripts off): they count through num_turns only. */
    without_turns: z.number().int().nonnegative(),
  }),
  arrivals: Arrivals,
  turns: Quantiles,
  /** From an agent response to the next user input. */
  think_time_s: Quantiles,
  /** Agent latency per turn (`latency` with include_latency, else agent − user timestamps). */
  agent_latency_s: Quantiles,
  /** total_duration of finished conversations. */
  duration_s: Quantiles,
  /** Share of conversations per channel. */
  channels: z.record(z.string(), z.number().min(0).max(1)),
  /** Share of finished conversations handed off. */
  handoff_rate: z.number().min(0).max(1),
  /** Share of finished conversations that ended without a handoff. */
  end_rate: z.number().min(0).max(1),
  concurrency: z.strictObject({
    /** The highest 5-minute peak reported in the window; null when the series was not read. */
    peak: z.number().int().nonnegative().nullable(),
    peak_at: z.string().nullable(),
    windows: z.number().int().nonnegative(),
  }),
  littles_law: LittlesLaw,
});
export type TrafficModel = z.infer<typeof TrafficModel>;
