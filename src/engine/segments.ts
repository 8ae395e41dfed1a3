// Execution segments (/using-k6/k6-options/reference/#execution-segment): a run split into N parts, each run by
// its own engine (a machine, or a worker thread), whose samples together are exactly the whole run's.
// dialtone cuts runs into equal parts; iteration i of an arrival-rate schedule belongs to part i mod N, and a VU
// count n is split so that the parts add up to n.

/** One part of a run: `index` (0-based) of `count` equal parts. */
export interface Part {
  readonly index: number;
  readonly count: number;
}

export const WHOLE: Part = { index: 0, count: 1 };

/**
 * The part of a part: `inner` of `outer`, as one part of outer.count × inner.count.
 *
 * @example
 * within({ index: 1, count: 2 }, { index: 0, count: 2 }); // { index: 2, count: 4 }: iterations 1, 5, 9, … of 4n+1
 */
export function within(outer: Part, inner: Part): Part {
  return { index: inner.index * outer.count + outer.index, count: outer.count * inner.count };
}

/**
 * Whether arrival `i` (0-based, over the whole run) is this part's. Parts interleave, so each gets an even share at
 * every moment of a ramp, not a block of time.
 */
export const owns = (part: Part, i: number) => i % part.count === part.index;

/**
 * This part's share of `n` (VUs, iterations): the parts of one count add up to n exactly.
 *
 * @example
 * [0, 1, 2].map((index) => shareOf({ index, count: 3 }, 10)); // [3, 3, 4]
 */
export function shareOf(part: Part, n: number): number {
  return Math.floor((n * (part.index + 1)) / part.count) - Math.floor((n * part.index) / part.count);
}

/**
 * Parses k6's `--execution-segment A:B` with `--execution-segment-sequence 0,1/N,…,1` into a part. dialtone's
 * segments are equal (`--segment i/N` writes them so); unequal ones are refused with the reason.
 *
 * @example
 * parseSegment('1/3:2/3', '0,1/3,2/3,1'); // { index: 1, count: 3 }
 */
export function parseSegment(segment: string | undefined, sequence: string | undefined): Part {
  if (!segment) return WHOLE;
  const frac = (t: string) => {
    const m = /^(\d+)(?:\/(\d+))?$/.exec(t.trim());
    if (!m) throw new Error(`execution segment: '${t}' is not a fraction (0, 1/3, 1)`);
    return Number(m[1]) / Number(m[2] ?? 1);
  };
  const [a, b] = segment.split(':').map(frac);
  if (a === undefined || b === undefined || !(a < b) || a < 0 || b > 1) throw new Error(`execution segment: '${segment}' must be A:B with 0 ≤ A < B ≤ 1`);
  const width = b - a;
  const count = Math.round(1 / width);
  if (Math.abs(count * width - 1) > 1e-9)
    throw new Error(`execution segment: '${segment}' is not 1/N of the run; the built-in engine runs equal segments only`);
  if (sequence) {
    const bounds = sequence.split(',').map(frac);
    const equal = bounds.length === count + 1 && bounds.every((x, i) => Math.abs(x - i / count) < 1e-9);
    if (!equal) throw new Error(`execution segment sequence: '${sequence}' is not ${count} equal parts; the built-in engine runs equal segments only`);
  }
  return { index: Math.round(a * count), count };
}
