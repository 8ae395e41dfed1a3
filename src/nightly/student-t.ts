/**
 * ln Γ(x) for x > 0: Stirling's series from x ≥ 10 (its first omitted term is below 1e-12 there), reached from smaller
 * x by Γ(x) = Γ(x + 1) / x.
 */
function lnGamma(x: number): number {
  let shift = 0;
  for (; x < 10; x++) shift += Math.log(x);
  const x2 = x * x;
  const series = (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * x2)) / x2) / x2) / x;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + series - shift;
}

/** The continued fraction of the incomplete beta function (modified Lentz), converging for x < (a+1)/(a+b+2). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const aa of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)), (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
      d = 1 + aa * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + aa / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/**
 * The regularized incomplete beta function I_x(a, b).
 *
 * @example
 * incompleteBeta(0.5, 2, 2); // 0.5
 */
export function incompleteBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast on one side of the mean; use the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) on the other.
  return x < (a + 1) / (a + b + 2) ? (front * betaFraction(a, b, x)) / a : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/**
 * The two-sided p-value of Student's t statistic with `df` degrees of freedom: P(|T| ≥ |t|).
 *
 * @example
 * studentP(2.228, 10); // ≈ 0.05
 */
export function studentP(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? 1 : 0;
  return incompleteBeta(df / (df + t * t), df / 2, 0.5);
}

/** Count, mean and sum of squared deviations of a run of values. */
export interface Moments {
  readonly n: number;
  readonly mean: number;
  /** Σ (x − mean)². */
  readonly ss: number;
}

/**
 * The moments of xs[from..to).
 *
 * @example
 * momentsOf([1, 2, 3]); // { n: 3, mean: 2, ss: 2 }
 */
export function momentsOf(xs: readonly number[], from = 0, to = xs.length): Moments {
  const n = to - from;
  let sum = 0;
  for (let i = from; i < to; i++) sum += xs[i] as number;
  const mean = n ? sum / n : 0;
  let ss = 0;
  for (let i = from; i < to; i++) ss += ((xs[i] as number) - mean) ** 2;
  return { n, mean, ss };
}

/**
 * Student's two-sample t-test (pooled variance, as Otava tests a change point): the two-sided p-value that two runs of
 * values share one mean. Two constant runs are the same (p = 1) when equal and different (p = 0) when not.
 *
 * @example
 * tTest(momentsOf([10, 11, 10, 9, 10]), momentsOf([14, 15, 13, 14, 15])); // ≈ 2.6e-5
 */
export function tTest(a: Moments, b: Moments): number {
  const df = a.n + b.n - 2;
  if (a.n < 1 || b.n < 1 || df < 1) return 1;
  const pooled = (a.ss + b.ss) / df;
  const diff = a.mean - b.mean;
  // Below this the runs are constant up to rounding: their means decide alone.
  if (pooled <= 1e-24 * Math.max(1, a.mean * a.mean, b.mean * b.mean)) return Math.abs(diff) <= 1e-12 * Math.max(1, Math.abs(a.mean), Math.abs(b.mean)) ? 1 : 0;
  return studentP(diff / Math.sqrt(pooled * (1 / a.n + 1 / b.n)), df);
}

/**
 * The quantile of Student's t with `df` degrees of freedom whose two tails together hold 1 − `level`: the t of a
 * two-sided `level` interval, found by bisection on {@link studentP}.
 *
 * @example
 * studentQuantile(0.95, 10); // ≈ 2.228
 */
export function studentQuantile(level: number, df: number): number {
  const alpha = 1 - level;
  let lo = 0;
  let hi = 1;
  while (studentP(hi, df) > alpha) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentP(mid, df) > alpha) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
