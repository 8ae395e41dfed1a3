import type { CapacityAnalysis } from './analysis.js';

/** The platform's observed peak, from a traffic model (`dialtone traffic learn`), as the capacity search receives it. */
export interface ObservedPeak {
  /** The model file, as given. */
  readonly file: string;
  /** The busiest hour's start and its conversations per second. */
  readonly busiest_hour_start: string;
  readonly per_second: number;
  /** The highest 5-minute concurrency peak the platform reported in the model's window; null without the series. */
  readonly concurrency_peak: number | null;
  /** Mean conversations started in each hour of the day (UTC), 24 figures: the page plots them under the capacity. */
  readonly per_hour_of_day: readonly number[];
  /** Each day's busiest-hour rate, for the growth of the peak (used from {@link GROWTH_MIN_DAYS} days on). */
  readonly daily_peaks?: readonly { readonly date: string; readonly per_second: number }[];
}

/** How many days of daily peaks a growth estimate needs: eight weeks. */
export const GROWTH_MIN_DAYS = 56;
/** z of the normal distribution's 90th percentile: the two ends of an 80 % range. */
const Z80 = 1.2815515655446004;
const DAY_MS = 86_400_000;
/** A reach further off than this many days is given as none: a peak that barely grows would give no date at all. */
const HORIZON_DAYS = 365_250;

/** The growth of the daily peak and when, at that pace, it reaches the capacity. */
export interface Growth {
  readonly days: number;
  /** The least-squares slope of the daily peak, per day. */
  readonly per_day: number;
  /**
   * When the fitted line reaches the capacity, the ends of an 80 % range from the slope's uncertainty; null: not
   * growing, or not within {@link HORIZON_DAYS} days (a thousand years) at that end.
   */
  readonly reaches_from: string | null;
  readonly reaches_to: string | null;
}

/**
 * The daily peak's linear growth over the days (least squares, the slope's standard error) and the dates between which
 * it reaches `capacity` (an 80 % range of the slope, the intercept taken as fitted); undefined under
 * {@link GROWTH_MIN_DAYS} days.
 *
 * @example
 * growthOf(peaks, 5)?.reaches_from // '2027-03-01'
 */
export function growthOf(peaks: readonly { readonly date: string; readonly per_second: number }[], capacity: number): Growth | undefined {
  if (peaks.length < GROWTH_MIN_DAYS) return undefined;
  const t0 = Date.parse(peaks[0]?.date as string);
  const xs = peaks.map((p) => (Date.parse(p.date) - t0) / DAY_MS);
  const ys = peaks.map((p) => p.per_second);
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const slope = xs.reduce((a, x, i) => a + (x - mx) * ((ys[i] as number) - my), 0) / sxx;
  const intercept = my - slope * mx;
  const residual = xs.reduce((a, x, i) => a + ((ys[i] as number) - intercept - slope * x) ** 2, 0) / (n - 2);
  const se = Math.sqrt(residual / sxx);
  // The day the line a + b·t reaches the capacity, for a slope b; none for a line that does not rise, or that takes
  // longer than the horizon (a slope of 1e-20, flat days summed in floating point, would give no valid date).
  const reach = (b: number) => {
    const days = b > 0 ? Math.max(0, (capacity - intercept) / b) : Number.POSITIVE_INFINITY;
    return days <= HORIZON_DAYS ? new Date(t0 + days * DAY_MS).toISOString().slice(0, 10) : null;
  };
  return { days: n, per_day: slope, reaches_from: reach(slope + Z80 * se), reaches_to: reach(slope - Z80 * se) };
}

/** The observed peak beside the capacity found: the share of it the busiest hour uses, across the boundary's interval. */
export interface Headroom extends ObservedPeak {
  /** per_second / max_sustainable_rate. */
  readonly share: number;
  /** The share against the interval's high and low ends (the least and the most it may be); null without an interval. */
  readonly share_range: readonly [number, number] | null;
  /** With 8 weeks or more of daily peaks: their growth and when it reaches the capacity. */
  readonly growth?: Growth | undefined;
}

/**
 * The headroom of an observed peak against a search's capacity; undefined when the search found no rate that held
 * (then there is nothing to compare with) or the target was not the limit.
 *
 * @example
 * headroomOf({ file: 'm.json', busiest_hour_start: '…', per_second: 1.85, concurrency_peak: 70, per_hour_of_day }, analysis)?.share // 0.37
 */
export function headroomOf(observed: ObservedPeak, a: CapacityAnalysis): Headroom | undefined {
  const cap = a.max_sustainable_rate;
  if (cap === null || cap <= 0 || a.limited_by !== 'target') return undefined;
  const i = a.interval;
  const growth = growthOf(observed.daily_peaks ?? [], cap);
  return {
    ...observed,
    share: observed.per_second / cap,
    share_range: i ? [observed.per_second / i.high, observed.per_second / i.low] : null,
    ...(growth ? { growth } : {}),
  };
}

const pct = (x: number) => `${x >= 0.1 ? Math.round(x * 100) : (x * 100).toFixed(1)} %`;

/**
 * The headroom in one sentence, for the page and the command's output.
 *
 * @example
 * headroomLine(h, 'conversations') // 'The busiest hour (…, 1.85 conversations/s) uses 37 % of what holds the SLOs (5.00/s; 35–41 % across the boundary's
 * interval).'
 */
export function headroomLine(h: Headroom, unit: string, capacity: number): string {
  const range = h.share_range ? `; ${pct(h.share_range[0])}–${pct(h.share_range[1])} across the boundary's interval` : '';
  const peak = h.concurrency_peak === null ? '' : ` Its window's concurrency peaked at ${h.concurrency_peak} conversations.`;
  return `The busiest hour (${h.busiest_hour_start}, ${h.per_second.toPrecision(3)} ${unit}/s, from ${h.file}) uses ${pct(h.share)} of what holds the SLOs (${capacity.toPrecision(3)} ${unit}/s${range}).${peak}${h.growth ? ` ${growthText(h.growth, unit)}` : ''}`;
}

/** The growth of the daily peak in one sentence. */
function growthText(g: Growth, unit: string): string {
  const pace = `Over ${g.days} days the daily peak moved ${g.per_day >= 0 ? '+' : ''}${g.per_day.toPrecision(2)} ${unit}/s a day`;
  if (g.per_day <= 0) return `${pace}: it is not growing, so it does not reach the capacity at this pace.`;
  if (g.reaches_from === null) return `${pace}: at that pace it does not reach the capacity within a thousand years.`;
  return (
    `${pace}; at that pace it reaches the capacity between ${g.reaches_from} and ` +
    `${g.reaches_to ?? 'not within a thousand years (the slow end of the range)'} (an 80 % range).`
  );
}
