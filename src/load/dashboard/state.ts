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

/** The most slots the state keeps: past it pairs are joined, so an update costs the same at minute 1 and at hour 2. */
const MAX_SLOTS = 240;

/** Folds the engine's messages, from one engine process or several one after another (a capacity search's steps). */
export class LiveState {
  /** Each slot of `#width` seconds from `#origin` (epoch seconds): its figures per key. */
  #slots = new Map<number, Map<string, Acc>>();
  #origin: number | undefined;
  #width = 1;
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
      const second = base + Math.round(iv.t);
      this.#origin ??= second;
      let at = Math.max(0, Math.floor((second - this.#origin) / this.#width));
      while (at >= MAX_SLOTS) {
        this.#coarsen();
        at = Math.floor(at / 2);
      }
      const keys = this.#slots.get(at) ?? new Map<string, Acc>();
      this.#slots.set(at, keys);
      for (const [k, stored] of Object.entries(iv.metrics)) {
        const a = keys.get(k);
        if (a) joinAcc(a, loadAcc(stored));
        else keys.set(k, loadAcc(stored));
      }
    }
    this.#last = m;
    this.#samples++;
  }

  /** Joins adjacent pairs of slots and doubles their width. */
  #coarsen(): void {
    const joined = new Map<number, Map<string, Acc>>();
    for (const [at, keys] of this.#slots) {
      const into = joined.get(at >> 1);
      if (!into) joined.set(at >> 1, keys);
      else
        for (const [k, a] of keys) {
          const b = into.get(k);
          if (b) joinAcc(b, a);
          else into.set(k, a);
        }
    }
    this.#slots = joined;
    this.#width *= 2;
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
    const file = this.#file();
    const marked = this.#marked;
    const last = file.intervals.at(-1);
    const from = (file.started_ms / 1000) | 0;
    return {
      timeline: timelineOfHistograms([file], sloKeys(thresholds)),
      spans: marked === undefined || !last ? [] : [{ from: Math.max(0, marked.from - from), to: last.t + file.interval_s, label: marked.label }],
      thresholds,
      asked: m?.asked ?? [],
      vus: m?.vus ?? 0,
      vusMax: m?.vus_max ?? 0,
      elapsedS: m?.elapsed_s ?? 0,
      step: this.#step,
      samples: this.#samples,
    };
  }

  /** The slots so far as one histograms file, which the report's run over time reads. */
  #file(): HistogramFile {
    const at = [...this.#slots.keys()].sort((a, b) => a - b);
    const origin = this.#origin ?? 0;
    return {
      format: HISTOGRAM_FORMAT,
      relative_error: RELATIVE_ERROR,
      started_ms: origin * 1000,
      interval_s: this.#width,
      metrics: {},
      intervals: at.map((i) => ({
        t: i * this.#width,
        metrics: Object.fromEntries([...(this.#slots.get(i) ?? [])].map(([k, a]) => [k, storeAcc(a)])),
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
