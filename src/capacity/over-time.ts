// The capacity search over time: every step's histograms (the built-in engine's, in the search's scratch folder) laid
// on one clock, drawn as the load page draws a run, each step that broke its SLOs marked.

import { existsSync, readFileSync } from 'node:fs';
import type { HistogramFile } from '../core/histogram-series.js';
import type { Timeline } from '../load/timeline.js';
import type { Span } from '../load/timeline-plots.js';
import { timelineOfHistogramFiles } from '../load/timeline-series.js';
import type { CapacityResult } from './result.js';
import { stepHistogramsFile } from './step.js';
import { steadyKey } from './wrapper.js';

/** What the page draws over time: the timeline, or why there is none; the SLOs as the steps judged them; the broken steps. */
export interface SearchOverTime {
  readonly timeline: Timeline | undefined;
  readonly missing: string | undefined;
  readonly thresholds: readonly { readonly metric: string; readonly expression: string }[];
  readonly spans: readonly Span[];
}

/** The label of a step that broke, one legend entry for all of them. */
export const BROKE_LABEL = 'a step that broke its SLOs';

/**
 * The search over time from its steps' histogram files in `workDir`; a search on k6 has none.
 *
 * @example
 * const overTime = searchOverTime(result, 'reports/capacity/chat-turns/.work');
 */
export function searchOverTime(r: CapacityResult, workDir: string): SearchOverTime {
  // Each step judges its SLOs on its steady part: that is the series it kept per interval.
  const thresholds = (r.slos?.entries ?? []).flatMap((e) =>
    e.expressions.map((t) => ({ metric: steadyKey(e.key), expression: typeof t === 'string' ? t : t.threshold })),
  );
  if (r.engine.kind !== 'builtin')
    return { timeline: undefined, missing: 'a search on k6 keeps no samples (its steps run at the limit)', thresholds, spans: [] };
  const files = r.steps.map((s) => ({ step: s, path: stepHistogramsFile(workDir, s.index) })).filter((f) => existsSync(f.path));
  const { timeline, missing } = timelineOfHistogramFiles(
    files.map((f) => f.path),
    thresholds,
  );
  if (!timeline) return { timeline, missing, thresholds, spans: [] };
  const t0 = Date.parse(timeline.started_at);
  const spans = files.flatMap(({ step, path }) => {
    if (step.slo_held) return [];
    const h = JSON.parse(readFileSync(path, 'utf8')) as HistogramFile;
    const last = h.intervals.at(-1);
    if (!last) return [];
    return [{ from: (h.started_ms - t0) / 1000, to: (h.started_ms - t0) / 1000 + last.t + h.interval_s, label: BROKE_LABEL }];
  });
  return { timeline, missing, thresholds, spans };
}
