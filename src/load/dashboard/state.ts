// What the live dashboard knows of the run so far: the engine's period messages folded per second (as the report's
// histograms are), the thresholds as they stand, what the schedule asks, and for a capacity search the step tried.
import { type Acc, HISTOGRAM_FORMAT, type HistogramFile, joinAcc, loadAcc, storeAcc } from '../../core/histogram-series.js';
import type { LiveAsked, LiveFeedMessage, LiveThreshold } from '../../core/live-feed.js';
import { RELATIVE_ERROR } from '../../core/log-histogram.js';
import type { Timeline } from '../timeline.js';
import type { Span } from '../timeline-plots.js';
import { timelineOfHistograms } from '../timeline-series.js';

/** The run so far, as the page draws it. */
export interface LiveView {
  readonly timeline: Timeline | undefined;
  readonly thresholds: readonly LiveThreshold[];
  readonly asked: readonly LiveAsked[];
  readonly vus: number;
  readonly vusMax: number;
  readonly elapsedS: number;
  readonly step: string | undefined;
  /** The latest step that sent samples, marked on every plot with its label. */
  readonly spans: readonly Span[];
  /** Messages taken so far: the page's sample number. */
  readonly samples: number;
}

/** Folds the engine's messages, from one engine process or several one after another (a capacity search's steps). */
export class LiveState {
  /** Each second since the epoch that holds samples: its figures per key. */
  readonly #seconds = new Map<number, Map<string, Acc>>();
  #last: LiveFeedMessage | undefined;
  #samples = 0;
  #step: string | undefined;
  /** The step asked for, until its engine sends a sample. */
  #pending: string | undefined;
  /** The latest step with samples: its label and first second. */
  #marked: { label: string; from: number } | undefined;

  /** Takes one period's message. */
  add(m: LiveFeedMessage): void {
    const base = Math.floor(m.period.started_ms / 1000);
    if (this.#pending !== undefined && m.period.intervals.length > 0) {
      this.#marked = { label: this.#pending, from: base };
      this.#pending = undefined;
    }
    for (const iv of m.period.intervals) {
      const at = base + Math.round(iv.t);
      const keys = this.#seconds.get(at) ?? new Map<string, Acc>();
      this.#seconds.set(at, keys);
      for (const [k, stored] of Object.entries(iv.metrics)) {
        const a = keys.get(k);
        if (a) joinAcc(a, loadAcc(stored));
        else keys.set(k, loadAcc(stored));
      }
    }
    this.#last = m;
    this.#samples++;
  }

  /** Names the capacity step being tried. */
  step(label: string): void {
    this.#step = label;
    this.#pending = label;
  }

  /** The run so far, its SLO keys drawn from the thresholds the engine judges. */
  view(): LiveView {
    const m = this.#last;
    // A threshold that always holds (a capacity step's `count>=0`, there to export a sub-metric) is no SLO to show.
    const thresholds = (m?.thresholds ?? []).filter((t) => !ALWAYS_HOLDS.test(t.source));
    const seconds = [...this.#seconds.keys()];
    const [first, last] = [Math.min(...seconds), Math.max(...seconds)];
    const marked = this.#marked;
    return {
      timeline: timelineOfHistograms([this.#file()], sloKeys(thresholds)),
      spans: marked === undefined ? [] : [{ from: marked.from - first, to: last + 1 - first, label: marked.label }],
      thresholds,
      asked: m?.asked ?? [],
      vus: m?.vus ?? 0,
      vusMax: m?.vus_max ?? 0,
      elapsedS: m?.elapsed_s ?? 0,
      step: this.#step,
      samples: this.#samples,
    };
  }

  /** The seconds so far as one histograms file, which the report's run over time reads. */
  #file(): HistogramFile {
    const at = [...this.#seconds.keys()].sort((a, b) => a - b);
    const first = at[0] ?? 0;
    return {
      format: HISTOGRAM_FORMAT,
      relative_error: RELATIVE_ERROR,
      started_ms: first * 1000,
      interval_s: 1,
      metrics: {},
      intervals: at.map((s) => ({
        t: s - first,
        metrics: Object.fromEntries([...(this.#seconds.get(s) ?? [])].map(([k, a]) => [k, storeAcc(a)])),
      })),
    };
  }
}

const ALWAYS_HOLDS = /^\s*(count|max|min|rate|value)\s*>=\s*0\s*$/;

/** The thresholds as the report's SLO keys: one key, its expressions. */
export function sloKeys(thresholds: readonly LiveThreshold[]): { key: string; expressions: string[] }[] {
  const by = new Map<string, string[]>();
  for (const t of thresholds) by.set(t.key, [...(by.get(t.key) ?? []), t.source]);
  return [...by].map(([key, expressions]) => ({ key, expressions }));
}
