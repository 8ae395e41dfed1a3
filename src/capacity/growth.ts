// The growth of the platform's daily peak and the day it reaches a capacity: a least-squares line through the daily
// busiest-hour rates, straight or compounding (whichever the days fit better), and the days on which a day's peak may
// meet the capacity, read back from the line's prediction interval (inverse prediction).
import { studentQuantile } from '../nightly/student-t.js';

/** One UTC day of a traffic model's records and its busiest hour's rate (`arrivals.daily_peaks`). */
export interface DailyPeak {
  readonly date: string;
  readonly per_second: number;
}

/** Two whole weeks: fewer days let the weekly cycle pass for growth; more only narrow the interval. */
export const GROWTH_MIN_DAYS = 14;
/** The level of every interval here: the slope's, and the prediction interval the dates are read from. */
export const GROWTH_LEVEL = 0.95;
/** How far past the last day a date is given: a line through weeks says nothing of years. */
export const HORIZON_DAYS = 365;
const DAY_MS = 86_400_000;

/** A straight line (the peak adds the same a day) or a compounding one (it grows by the same share a day: ln y is straight). */
export type GrowthShape = 'linear' | 'compound';

/**
 * What the days say: too few to tell; not growing (the slope's interval holds zero, or it falls); the fitted peak
 * already at the capacity; reaching it on a date within {@link HORIZON_DAYS} days; or not within them.
 */
export type GrowthStatus = 'too-few' | 'not-growing' | 'reached' | 'reaches' | 'beyond';

/** The growth of the daily peak against a capacity, and when, at that pace, it reaches it. */
export interface Growth {
  readonly status: GrowthStatus;
  /** The days fitted, and how many a growth needs. */
  readonly days: number;
  readonly needed: number;
  /** Days of the model left out: the first and last when the model's window covers only part of them. */
  readonly left_out: readonly string[];
  /** The capacity the growth is set against (the search's maximum sustainable rate). */
  readonly capacity: number;
  readonly level: number;
  readonly first_day?: string | undefined;
  readonly last_day?: string | undefined;
  readonly shape?: GrowthShape | undefined;
  /** Why that shape: the two fits' AIC, or the rule for a tie. */
  readonly shape_reason?: string | undefined;
  /** The fitted peak on the last day, in the unit a second. */
  readonly fitted_last?: number | undefined;
  /** The rise a day at the last day, in the unit a second, with its interval at {@link GROWTH_LEVEL}. */
  readonly per_day?: number | undefined;
  readonly per_day_range?: readonly [number, number] | undefined;
  /** The rise a day as a share of the fitted last day's peak. */
  readonly share_per_day?: number | undefined;
  /** The day the fitted line reaches the capacity, and the ends of the range a day's peak may reach it in; null past the horizon. */
  readonly reaches?: string | null | undefined;
  readonly reaches_from?: string | null | undefined;
  readonly reaches_to?: string | null | undefined;
  /** The last day a date is given for. */
  readonly horizon?: string | undefined;
}

/** A least-squares line y = intercept + slope·x with what its intervals need. */
interface Line {
  readonly n: number;
  readonly mx: number;
  readonly my: number;
  readonly sxx: number;
  readonly slope: number;
  readonly intercept: number;
  /** Σ residual². */
  readonly sse: number;
  /** The residual variance, sse / (n − 2). */
  readonly s2: number;
}

function fitLine(xs: readonly number[], ys: readonly number[]): Line {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  const sxx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const slope = xs.reduce((a, x, i) => a + (x - mx) * ((ys[i] as number) - my), 0) / sxx;
  const intercept = my - slope * mx;
  const sse = xs.reduce((a, x, i) => a + ((ys[i] as number) - intercept - slope * x) ** 2, 0);
  return { n, mx, my, sxx, slope, intercept, sse, s2: sse / (n - 2) };
}

/** The Gaussian log-likelihood of a line's residuals, less `jacobian` (Σ ln y for a line fitted to ln y, so both read y). */
const logLikelihood = (f: Line, jacobian = 0): number => (-f.n / 2) * (Math.log((2 * Math.PI * Math.max(f.sse, 1e-300)) / f.n) + 1) - jacobian;

/**
 * Where the line meets `y`: the point, and the x at which the prediction interval of one day's value first and last
 * holds `y` (the classical inverse prediction: bounded only when the slope's own interval excludes zero, so a slope
 * within its noise gives none).
 */
function inverse(f: Line, y: number, t: number): { point: number; from: number; to: number } | undefined {
  const b = f.slope;
  const k = (t * t * f.s2) / f.sxx;
  const a = b * b - k;
  if (b <= 0 || a <= 0) return undefined;
  const d = y - f.my;
  const m = t * t * f.s2 * (1 + 1 / f.n);
  const root = Math.sqrt(Math.max(0, b * b * m + k * (d * d - m)));
  return { point: f.mx + d / b, from: f.mx + (b * d - root) / a, to: f.mx + (b * d + root) / a };
}

/** A fit of one shape, on the scale it is straight on. */
interface ShapeFit {
  readonly shape: GrowthShape;
  readonly line: Line;
  readonly target: number;
  readonly ll: number;
  /** The slope moves the line by less than a billionth over the days: float noise on flat days, no growth. */
  readonly flat: boolean;
  readonly reach: ReturnType<typeof inverse>;
}

function shapeFit(shape: GrowthShape, xs: readonly number[], ys: readonly number[], capacity: number, t: number): ShapeFit {
  const scaled = shape === 'compound' ? ys.map(Math.log) : ys;
  const line = fitLine(xs, scaled);
  const span = (xs.at(-1) as number) - (xs[0] as number);
  const flat = Math.abs(line.slope) * span <= 1e-9 * (shape === 'compound' ? 1 : Math.abs(line.my));
  const target = shape === 'compound' ? Math.log(capacity) : capacity;
  const jacobian = shape === 'compound' ? scaled.reduce((a, v) => a + v, 0) : 0;
  return { shape, line, target, ll: logLikelihood(line, jacobian), flat, reach: flat ? undefined : inverse(line, target, t) };
}

/**
 * The shape the days are given: the better fit by AIC (both have three parameters, so the higher likelihood of y), when it is
 * lower by more than 4 (Burnham and Anderson's "considerably less support" for the other). Nearer than that the days
 * cannot tell them apart: if either finds no growth none is claimed (no date from what one
 * reading of the noise calls growth); else both are kept, and the range covers both (`also`), its point the sooner.
 */
function choose(lin: ShapeFit, log: ShapeFit | undefined): { fit: ShapeFit; also?: ShapeFit; reason: string } {
  if (!log) return { fit: lin, reason: 'a straight line: a day without conversations rules out a compounding one' };
  const aic = (f: ShapeFit) => (6 - 2 * f.ll).toFixed(1);
  const both = `AIC ${aic(log)} compounding, ${aic(lin)} straight`;
  if (log.ll - lin.ll > 2) return { fit: log, reason: `compounding: it fits the days better than a straight line (${both})` };
  if (lin.ll - log.ll > 2) return { fit: lin, reason: `a straight line: it fits the days better than a compounding one (${both})` };
  const alike = `the days fit a straight line and a compounding one alike (${both}, within 4)`;
  if (!lin.reach) return { fit: lin, reason: `${alike}; the straight one finds no growth` };
  if (!log.reach) return { fit: log, reason: `${alike}; the compounding one finds no growth` };
  const [sooner, later] = log.reach.point < lin.reach.point ? [log, lin] : [lin, log];
  return {
    fit: sooner,
    also: later,
    reason: `${alike}: the range covers both, the date is the sooner one's (${sooner.shape === 'compound' ? 'compounding' : 'straight'})`,
  };
}

const dateOf = (t0: number, day: number): string => new Date(t0 + day * DAY_MS).toISOString().slice(0, 10);

/**
 * The days of a model's window that it covers whole: a day the window starts or ends inside has a busiest hour of
 * part of a day, which would read as a fall at either end.
 *
 * @example
 * wholeDays(peaks, '2026-10-29T14:03:00Z', '2026-11-28T14:03:00Z').kept.length // 29: the first and last are partial
 */
export function wholeDays(peaks: readonly DailyPeak[], since?: string, until?: string): { kept: DailyPeak[]; left_out: string[] } {
  const from = since === undefined ? Number.NEGATIVE_INFINITY : Date.parse(since);
  const to = until === undefined ? Number.POSITIVE_INFINITY : Date.parse(until);
  const kept: DailyPeak[] = [];
  const left_out: string[] = [];
  for (const p of peaks) {
    const start = Date.parse(p.date);
    if (start >= from && start + DAY_MS <= to) kept.push(p);
    else left_out.push(p.date);
  }
  return { kept, left_out };
}

/**
 * The growth of the daily peak and when it reaches `capacity`: a straight or compounding least-squares line (see
 * {@link choose}); the slope's {@link GROWTH_LEVEL} interval decides whether it grows at all; the dates are where the
 * line, and the ends of a day's prediction interval, meet the capacity, given up to {@link HORIZON_DAYS} days past the
 * last day.
 *
 * @example
 * growthOf(peaks, 5).reaches // '2027-03-01'
 */
export function growthOf(peaks: readonly DailyPeak[], capacity: number, leftOut: readonly string[] = []): Growth {
  const base = { days: peaks.length, needed: GROWTH_MIN_DAYS, left_out: [...leftOut], capacity, level: GROWTH_LEVEL };
  if (peaks.length < GROWTH_MIN_DAYS) return { status: 'too-few', ...base };
  const sorted = [...peaks].sort((a, b) => a.date.localeCompare(b.date));
  const t0 = Date.parse((sorted[0] as DailyPeak).date);
  const xs = sorted.map((p) => (Date.parse(p.date) - t0) / DAY_MS);
  const ys = sorted.map((p) => p.per_second);
  const t = studentQuantile(GROWTH_LEVEL, xs.length - 2);
  const lin = shapeFit('linear', xs, ys, capacity, t);
  const log = ys.every((y) => y > 0) ? shapeFit('compound', xs, ys, capacity, t) : undefined;
  const { fit, also, reason } = choose(lin, log);
  const last = xs.at(-1) as number;
  const l = fit.line;
  const se = Math.sqrt(l.s2 / l.sxx);
  const atLast = l.intercept + l.slope * last;
  // On the compounding scale the slope is a share a day; as a rise a day it is that share of the fitted last day.
  const fittedLast = fit.shape === 'compound' ? Math.exp(atLast) : atLast;
  const scale = fit.shape === 'compound' ? fittedLast : 1;
  const slope = fit.flat ? 0 : l.slope;
  const described = {
    ...base,
    first_day: (sorted[0] as DailyPeak).date,
    last_day: (sorted.at(-1) as DailyPeak).date,
    shape: fit.shape,
    shape_reason: reason,
    fitted_last: fittedLast,
    per_day: slope * scale,
    per_day_range: [(slope - t * se) * scale, (slope + t * se) * scale] as const,
    share_per_day: fit.shape === 'compound' ? Math.expm1(slope) : slope / fittedLast,
    horizon: dateOf(t0, last + HORIZON_DAYS),
  };
  const r =
    fit.reach && also?.reach
      ? { point: fit.reach.point, from: Math.min(fit.reach.from, also.reach.from), to: Math.max(fit.reach.to, also.reach.to) }
      : fit.reach;
  if (!r) return { status: 'not-growing', ...described };
  if (r.point <= last) return { status: 'reached', ...described };
  // Whole days, rounded outwards; a day's peak can reach it no sooner than the day after the records.
  const from = Math.max(last + 1, Math.floor(r.from + 1e-9));
  const to = Math.ceil(r.to - 1e-9);
  const within = (day: number) => (day - last <= HORIZON_DAYS ? dateOf(t0, day) : null);
  return {
    status: r.point - last <= HORIZON_DAYS ? 'reaches' : 'beyond',
    ...described,
    reaches: within(Math.round(r.point)),
    reaches_from: within(from),
    reaches_to: within(to),
  };
}

/** A rate to three significant figures, signed. */
const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toPrecision(2)}`;
const pct = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(share !== 0 && Math.abs(share) < 0.001 ? 3 : 1)} %`;

/**
 * The growth in one sentence, for the terminal and the page: its days, its pace with an interval, and the date (with
 * its range) on which it reaches the capacity, or why there is none.
 *
 * @example
 * growthLine(g, 'conversations', 'traffic-model.json')
 * // 'Traffic growth (daily peaks from traffic-model.json): over 56 days, 2026-10-04 to 2026-11-28, … reaches 2.50 conversations/s about 2027-03-01 …'
 */
export function growthLine(g: Growth, unit: string, file: string): string {
  const cap = `${g.capacity.toPrecision(3)} ${unit}/s`;
  const level = `${Math.round(g.level * 100)} %`;
  const head = `Traffic growth (daily peaks from ${file}, against this search's ${cap})`;
  if (g.status === 'too-few')
    return (
      `${head}: ${g.days} whole days are too few to tell a growth (${g.needed} needed); ` +
      'learn the model over a longer window (dialtone traffic learn --since 56d).'
    );
  const range = g.per_day_range ?? [0, 0];
  const pace =
    `over ${g.days} days, ${g.first_day} to ${g.last_day}, the daily peak moved ${signed(g.per_day ?? 0)} ${unit}/s a day ` +
    `(${pct(g.share_per_day ?? 0)} a day, ${g.shape === 'compound' ? 'compounding' : 'a straight line'}; ` +
    `${level} interval ${signed(range[0])} to ${signed(range[1])})`;
  if (g.status === 'not-growing') {
    const how = range[1] < 0 ? 'it is falling' : "it is not growing beyond its day-to-day spread (the slope's interval holds zero)";
    return `${head}: ${pace}: ${how}, so no date is given.`;
  }
  if (g.status === 'reached')
    return `${head}: ${pace}: the fitted peak on ${g.last_day}, ${(g.fitted_last ?? 0).toPrecision(3)} ${unit}/s, is already at the capacity.`;
  const to = g.reaches_to ?? `not within ${HORIZON_DAYS} days (after ${g.horizon})`;
  if (g.status === 'beyond') {
    const fast = g.reaches_from ? `; the fast end of its ${level} range is ${g.reaches_from}` : '';
    return `${head}: ${pace}: at that pace it does not reach the capacity within ${HORIZON_DAYS} days (by ${g.horizon})${fast}.`;
  }
  return `${head}: ${pace}: it reaches the capacity about ${g.reaches}, between ${g.reaches_from} and ${to} (a day's peak, ${level} prediction interval).`;
}
