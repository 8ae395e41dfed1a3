// Universal Scalability Law: X(N) = λN / (1 + σ(N − 1) + κN(N − 1)).
// Rearranged, N/X = a + bN + cN² with a = (1 − σ)/λ, b = (σ − κ)/λ, c = κ/λ: a linear least-squares
// problem in (a, b, c), solved here by its 3×3 normal equations.

/** A fitted USL curve. */
/** Below this R² the USL describes the steps too poorly for its peak to be read as a prediction. */
export const USL_R2_TRUSTED = 0.5;

export interface UslFit {
  /** Throughput of one unit of concurrency. */
  readonly lambda: number;
  /** Contention (serialised share). */
  readonly sigma: number;
  /** Coherency (crosstalk) cost. */
  readonly kappa: number;
  /** Coefficient of determination of X against the fit. */
  readonly r2: number;
  /** Concurrency at the predicted peak, sqrt((1 − σ)/κ); undefined when κ is 0 (no peak). */
  readonly peak_concurrency: number | undefined;
  readonly peak_throughput: number | undefined;
}

/** Throughput the fit predicts at concurrency n. */
export const uslThroughput = (f: Pick<UslFit, 'lambda' | 'sigma' | 'kappa'>, n: number) => (f.lambda * n) / (1 + f.sigma * (n - 1) + f.kappa * n * (n - 1));

/** Solves a 3×3 linear system by Cramer's rule; undefined when it is singular. */
function solve3(m: number[][], v: number[]): [number, number, number] | undefined {
  const det = (a: number[][]) =>
    (a[0]?.[0] ?? 0) * ((a[1]?.[1] ?? 0) * (a[2]?.[2] ?? 0) - (a[1]?.[2] ?? 0) * (a[2]?.[1] ?? 0)) -
    (a[0]?.[1] ?? 0) * ((a[1]?.[0] ?? 0) * (a[2]?.[2] ?? 0) - (a[1]?.[2] ?? 0) * (a[2]?.[0] ?? 0)) +
    (a[0]?.[2] ?? 0) * ((a[1]?.[0] ?? 0) * (a[2]?.[1] ?? 0) - (a[1]?.[1] ?? 0) * (a[2]?.[0] ?? 0));
  const d = det(m);
  if (Math.abs(d) < 1e-12) return undefined;
  const col = (i: number) => det(m.map((row, r) => row.map((x, c) => (c === i ? (v[r] ?? 0) : x))));
  return [col(0) / d, col(1) / d, col(2) / d];
}

/**
 * Fits the USL to (concurrency, throughput) points; needs three points with distinct concurrency.
 * σ and κ are clamped at 0 (a negative cost has no physical meaning).
 *
 * @example
 * fitUsl([{ n: 1, x: 10 }, { n: 2, x: 19 }, { n: 4, x: 33 }, { n: 8, x: 45 }])?.sigma // ≈ 0.05
 */
export function fitUsl(points: readonly { n: number; x: number }[]): UslFit | undefined {
  const pts = points.filter((p) => p.n > 0 && p.x > 0 && Number.isFinite(p.n) && Number.isFinite(p.x));
  if (new Set(pts.map((p) => p.n.toFixed(6))).size < 3) return undefined;
  // Normal equations of y = a + b·n + c·n², y = n/x.
  const s = [0, 0, 0, 0, 0];
  const t = [0, 0, 0];
  for (const { n, x } of pts) {
    const y = n / x;
    for (let k = 0; k < 5; k++) s[k] = (s[k] ?? 0) + n ** k;
    for (let k = 0; k < 3; k++) t[k] = (t[k] ?? 0) + y * n ** k;
  }
  const m = [0, 1, 2].map((r) => [0, 1, 2].map((c) => s[r + c] ?? 0));
  const abc = solve3(m, t);
  if (!abc) return undefined;
  const [a, b, c] = abc;
  const lambda = 1 / (a + b + c);
  if (!(lambda > 0)) return undefined;
  const sigma = Math.max(0, 1 - a * lambda);
  const kappa = Math.max(0, c * lambda);
  const fit = { lambda, sigma, kappa };
  const mean = pts.reduce((sum, p) => sum + p.x, 0) / pts.length;
  const ssTot = pts.reduce((sum, p) => sum + (p.x - mean) ** 2, 0);
  const ssRes = pts.reduce((sum, p) => sum + (p.x - uslThroughput(fit, p.n)) ** 2, 0);
  const peakN = kappa > 0 && sigma < 1 ? Math.sqrt((1 - sigma) / kappa) : undefined;
  return {
    ...fit,
    r2: ssTot > 0 ? 1 - ssRes / ssTot : 1,
    peak_concurrency: peakN,
    peak_throughput: peakN === undefined ? undefined : uslThroughput(fit, peakN),
  };
}
