// A run that sent nothing, or whose every iteration failed, did not test the target, whatever its thresholds say:
// k6 exits 0 there (an exception ends only its iteration), which a nightly job reads as green. The built-in engine
// ends such a run with k6's script-exception code and one line naming the first error and where it was thrown.

import { MODULES } from './modules/descriptions.js';
import type { Answered } from './modules/module-description.js';

/** What the run's workers saw of failed iterations: how many, and the first with where it was thrown. */
export interface Failures {
  count: number;
  first?: { message: string; where?: string };
  /** The first request that got no answer, as its warning says it (`Request Failed error=…`). */
  request?: string;
  /**
   * The first thing a VU did as the script asked that no answered exchange counts (a browser page opened,
   * `page.setContent`, a browser request that failed): the script acted on purpose, so it did not send nothing.
   */
  acted?: string;
}

/** The counts the judgement reads from the run's metrics. */
export interface RunCounts {
  /** Iterations that ended, failed ones included (`iterations`). */
  readonly iterations: number;
  /** Requests, sockets and page requests that the target answered (a status other than 0). */
  readonly sent: number;
}

/**
 * The metrics whose samples are one exchange with the target each, and whether a sample's `status` tag says the target
 * answered: each module's description says (its `exchanges`).
 */
const EXCHANGES: ReadonlyMap<string, Answered> = new Map(MODULES.flatMap((m) => Object.entries(m.exchanges)));

/** The store parts `answeredCounter` reads. */
interface SampleSource {
  onSample(listener: (metric: string, tagSetId: number, time: number, value: number) => void): () => void;
  tagsOf(tagSetId: number): Readonly<Record<string, string>>;
}

/**
 * Whether the target answered any exchange, from the samples the store takes until the first answer (then it stops
 * listening): a request to a closed port is an `http_reqs` sample too, with status "0", and it tested nothing.
 */
export function answeredCounter(store: SampleSource): () => number {
  let answered = 0;
  // By metric and tag set: "0" means no answer to HTTP and OK to gRPC.
  const byTagSet = new Map<string, boolean>();
  const stop = store.onSample((metric, tagSetId) => {
    const isAnswer = EXCHANGES.get(metric);
    if (answered > 0 || !isAnswer) return;
    const key = `${metric} ${tagSetId}`;
    let ok = byTagSet.get(key);
    if (ok === undefined) {
      ok = isAnswer(store.tagsOf(tagSetId).status);
      byTagSet.set(key, ok);
    }
    if (ok) {
      answered = 1;
      stop();
    }
  });
  return () => answered;
}

/**
 * Why the run did not run as written, in one line; undefined when it did.
 *
 * @example
 * notRunAsWritten({ iterations: 40, sent: 0 }, { count: 40, first: { message: 'dial tcp: refused', where: 'script.js:7' } }, ['http.get at script.js:7']);
 * // 'every iteration failed (40 of 40); the first: dial tcp: refused (script.js:7)'
 */
export function notRunAsWritten(counts: RunCounts, failures: Failures, sends: readonly string[]): string | undefined {
  const first = failures.first ? `${failures.first.message}${failures.first.where ? ` (${failures.first.where})` : ''}` : failures.request;
  if (failures.count > 0 && failures.count >= counts.iterations)
    return `every iteration failed (${failures.count} of ${Math.max(counts.iterations, failures.count)}); the first: ${first ?? 'no message'}`;
  if (sends.length > 0 && counts.sent === 0 && failures.acted === undefined)
    return `the script sends (${sends[0]}) but the target answered nothing${counts.iterations === 0 ? ': no iteration ended' : ''}${first ? `; the first error: ${first}` : ''}`;
  return undefined;
}
