import type { CapacityAnalysis } from './analysis.js';
import { type DailyPeak, type Growth, growthOf, wholeDays } from './growth.js';

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
  /** Each day's busiest-hour rate, for the growth of the peak (src/capacity/growth.ts). */
  readonly daily_peaks?: readonly DailyPeak[];
  /** The records the model was learned from (its `source`): the page names them beside each figure. */
  readonly records?: {
    readonly base_url: string;
    readonly since: string;
    readonly until: string;
    readonly conversations: number;
  };
}

/** The observed peak beside the capacity found: the share of it the busiest hour uses, across the boundary's interval. */
export interface Headroom extends ObservedPeak {
  /** per_second / max_sustainable_rate. */
  readonly share: number;
  /** The share against the interval's high and low ends (the least and the most it may be); null without an interval. */
  readonly share_range: readonly [number, number] | null;
  /** The growth of the daily peaks and when it reaches the capacity; absent when the model kept no daily peaks. */
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
  const days = observed.daily_peaks?.length ? wholeDays(observed.daily_peaks, observed.records?.since, observed.records?.until) : undefined;
  const growth = days ? growthOf(days.kept, cap, days.left_out) : undefined;
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
  return `The busiest hour (${h.busiest_hour_start}, ${h.per_second.toPrecision(3)} ${unit}/s, from ${h.file}) uses ${pct(h.share)} of what holds the SLOs (${capacity.toPrecision(3)} ${unit}/s${range}).${peak}`;
}
