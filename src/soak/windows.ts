import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

/**
 * The 95th percentile of `values` (nearest rank); NaN for none.
 *
 * @example
 * p95([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]); // 19
 */
export function p95(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number;
}

/** p95 of one metric in the first and last window of a run, from k6's CSV output. */
export interface WindowedP95 {
  readonly samples: number;
  readonly firstP95Ms: number;
  readonly lastP95Ms: number;
  readonly windowS: number;
}

/**
 * Reads a k6 CSV output file (gzip when it ends in .gz) and gives the p95 of `metric` over the first and the last
 * `windowS` seconds of the samples.
 *
 * @example
 * const w = await windowedP95('k6.csv.gz', 'http_req_duration', 300);
 */
export async function windowedP95(file: string, metric: string, windowS: number): Promise<WindowedP95> {
  const raw = createReadStream(file);
  const lines = createInterface({ input: file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw, crlfDelay: Number.POSITIVE_INFINITY });
  let cols: string[] | undefined;
  const points: [number, number][] = [];
  for await (const line of lines) {
    if (!cols) {
      cols = line.split(',');
      continue;
    }
    if (!line.startsWith(`${metric},`)) continue;
    const f = line.split(',');
    points.push([Number(f[cols.indexOf('timestamp')]), Number(f[cols.indexOf('metric_value')])]);
  }
  if (points.length === 0) return { samples: 0, firstP95Ms: Number.NaN, lastP95Ms: Number.NaN, windowS };
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const [t] of points) {
    if (t < start) start = t;
    if (t > end) end = t;
  }
  const first = points.filter(([t]) => t < start + windowS).map(([, v]) => v);
  const last = points.filter(([t]) => t > end - windowS).map(([, v]) => v);
  return { samples: points.length, firstP95Ms: p95(first), lastP95Ms: p95(last), windowS };
}
