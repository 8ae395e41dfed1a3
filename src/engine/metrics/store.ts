// The main thread's metric store: every sample of the run lands here, aggregated per metric and per sub-metric
// (the ones thresholds and the summary name), and is handed to the outputs that listen.

import type { MetricDecl, MetricType } from '../../core/metrics.js';
import { parseMetricKey } from '../../core/thresholds.js';
import type { SampleSink, Tags } from '../types.js';
import { type CheckCount, GroupTree } from './groups.js';
import { Sink } from './sink.js';
import { judgeThresholds, type Threshold, type ThresholdSet, type ThresholdVerdict, validateThresholds } from './thresholds.js';

/** Called for every sample the store takes; resolve the tags with `store.tagsOf(tagSetId)` (cache them by id). */
export type SampleListener = (metric: string, tagSetId: number, time: number, value: number) => void;

/** One metric or sub-metric as summaries list it. */
export interface MetricEntry {
  /** The metric's name, or the sub-metric's key as written (`http_req_duration{op:chat.respond}`). */
  readonly key: string;
  readonly decl: MetricDecl;
  /** The sub-metric's tag filter; undefined for the whole metric. */
  readonly tags: Tags | undefined;
  readonly sink: Sink;
  readonly thresholds: readonly Threshold[];
}

export interface MetricStoreOptions {
  /** Parsed `options.thresholds` (parseThresholds); their sub-metrics are aggregated from the first sample. */
  readonly thresholds?: readonly ThresholdSet[];
  /**
   * Sub-metrics to aggregate without a threshold. Default: `http_req_duration{expected_response:true}`, the one
   * k6 always shows under http_req_duration.
   */
  readonly summarySubmetrics?: readonly string[];
  /** The clock for the run's duration (ms). */
  readonly now?: () => number;
}

interface SubMetric {
  readonly key: string;
  /** Flattened [k1, v1, k2, v2, …] so matching a tag set walks one array. */
  readonly filter: readonly string[];
  readonly tags: Tags;
  readonly sink: Sink;
  readonly thresholds: Threshold[];
}

// What, besides aggregating, a metric's samples feed: the check counts or the group tree of root_group.
const PLAIN = 0;
const CHECKS = 1;
const GROUPS = 2;

interface MetricState {
  readonly decl: MetricDecl;
  readonly sink: Sink;
  readonly thresholds: Threshold[];
  readonly subs: SubMetric[];
  /** By tag-set id: the sub-metrics that tag set belongs to, found on its first sample. */
  readonly subHits: (SubMetric[] | undefined)[];
  readonly feeds: number;
  /** By tag-set id: the check a `checks` sample counts in (null: no check tag), or 1 once a group was noted. */
  readonly feedHits: (CheckCount | null | 1 | undefined)[];
}

const NO_SUBS: SubMetric[] = [];
const DEFAULT_SUMMARY_SUBMETRICS = ['http_req_duration{expected_response:true}'];

/**
 * Aggregates the run's samples. `add` is the hot path (~100k calls/s): it allocates nothing per sample and builds no
 * string; matching a tag set to the sub-metrics happens once per (metric, tag set).
 *
 * @example
 * const store = new MetricStore({ thresholds: parseThresholds({ 'http_req_duration{op:x}': ['p(95)<500'] }) });
 * store.declare({ name: 'http_req_duration', type: 'trend', contains: 'time' });
 * const tags = store.internTags({ op: 'x', status: '200' });
 * store.add('http_req_duration', tags, Date.now(), 12.5);
 * store.aggregate('http_req_duration{op:x}', 'p(95)'); // 12.5
 */
export class MetricStore implements SampleSink {
  private sets: readonly ThresholdSet[] = [];
  readonly groups = new GroupTree();
  private readonly metrics = new Map<string, MetricState>();
  /** Sub-metric definitions by parent name; their sinks are made when the parent is declared (its type is known then). */
  private readonly subDefs = new Map<string, { key: string; tags: Tags; thresholds: Threshold[] }[]>();
  private readonly tagSets: Tags[] = [];
  private readonly tagIds = new Map<string, number>();
  private readonly tagIdsByObject = new WeakMap<object, number>();
  private listeners: SampleListener[] | null = null;
  private readonly now: () => number;
  private startedAt: number;
  private endedAt: number | undefined;
  private verdicts: ThresholdVerdict[] | undefined;
  private sampled = false;
  private readonly summarySubs = new Set<string>();

  constructor(options: MetricStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    for (const key of options.summarySubmetrics ?? DEFAULT_SUMMARY_SUBMETRICS) {
      const { metric, tags } = parseMetricKey(key);
      if (tags === undefined) continue;
      this.subDef(metric, key.trim(), tags);
      this.summarySubs.add(key.trim());
    }
    this.setThresholds(options.thresholds ?? []);
  }

  /** The thresholds the store judges (parsed `options.thresholds`). */
  get thresholds(): readonly ThresholdSet[] {
    return this.sets;
  }

  /**
   * Sets the thresholds when they are known only after the store was made (the options come out of the init code):
   * allowed until the first sample, so every sub-metric sees all of its samples.
   */
  setThresholds(sets: readonly ThresholdSet[]): void {
    if (this.sampled) throw new Error('thresholds must be set before the first sample');
    // Forget the sub-metrics of earlier thresholds; keep the summary's own.
    for (const [metric, defs] of this.subDefs) {
      const kept = defs.filter((d) => this.summarySubs.has(d.key));
      for (const d of kept) d.thresholds.length = 0;
      this.subDefs.set(metric, kept);
    }
    this.sets = sets;
    for (const set of sets) {
      if (set.tags !== undefined) this.subDef(set.metric, set.key, set.tags).thresholds.push(...set.thresholds);
    }
    // Metrics declared before: rebuild their state with the new sub-metrics (no sample has been taken yet).
    for (const m of [...this.metrics.values()]) {
      this.metrics.delete(m.decl.name);
      this.declare(m.decl);
    }
  }

  private subDef(metric: string, key: string, tags: Tags) {
    const defs = this.subDefs.get(metric) ?? [];
    this.subDefs.set(metric, defs);
    // The same filter under another key order is still its own key: summaries show the key as the script wrote it.
    let def = defs.find((d) => d.key === key);
    if (def === undefined) {
      def = { key, tags, thresholds: [] };
      defs.push(def);
    }
    return def;
  }

  /** Declares a metric; again with the same type is harmless, with another type an error (types.ts). */
  declare(m: MetricDecl): void {
    const known = this.metrics.get(m.name);
    if (known !== undefined) {
      if (known.decl.type !== m.type) throw new Error(`metric "${m.name}" is already a ${known.decl.type}, it cannot be redeclared as a ${m.type}`);
      return;
    }
    const subs = (this.subDefs.get(m.name) ?? []).map(
      (d): SubMetric => ({ key: d.key, tags: d.tags, filter: Object.entries(d.tags).flat(), sink: new Sink(m.type), thresholds: d.thresholds }),
    );
    const thresholds = this.sets.filter((s) => s.tags === undefined && s.metric === m.name).flatMap((s) => [...s.thresholds]);
    const feeds = m.name === 'checks' ? CHECKS : m.name === 'group_duration' ? GROUPS : PLAIN;
    this.metrics.set(m.name, { decl: { ...m }, sink: new Sink(m.type), thresholds, subs, subHits: [], feeds, feedHits: [] });
  }

  /** The declared type of a metric, or undefined. */
  typeOf(name: string): MetricType | undefined {
    return this.metrics.get(name)?.decl.type;
  }

  /** The declaration of a metric, or undefined. */
  declOf(name: string): MetricDecl | undefined {
    return this.metrics.get(name)?.decl;
  }

  /**
   * Checks the thresholds against the declared metrics (unknown metric, aggregation that does not fit the type).
   * Call after init, when the script's custom metrics are declared; throws a ThresholdError.
   */
  validateThresholds(): void {
    validateThresholds(this.thresholds, (name) => this.typeOf(name));
  }

  /**
   * The id of a tag set: the same content gives the same id whatever the key order. Interning the same object again
   * is a WeakMap hit, so do not mutate a tags object once interned (VuHost.tags() hands out fresh ones).
   *
   * @example
   * store.internTags({ a: '1', b: '2' }) === store.internTags({ b: '2', a: '1' }); // true
   */
  internTags(tags: Tags): number {
    const byObject = this.tagIdsByObject.get(tags);
    if (byObject !== undefined) return byObject;
    const names = Object.keys(tags).sort();
    const flat: string[] = [];
    for (const k of names) flat.push(k, tags[k] as string);
    const key = JSON.stringify(flat);
    let id = this.tagIds.get(key);
    if (id === undefined) {
      id = this.tagSets.length;
      const copy: Record<string, string> = {};
      for (const k of names) copy[k] = tags[k] as string;
      this.tagSets.push(Object.freeze(copy));
      this.tagIds.set(key, id);
    }
    this.tagIdsByObject.set(tags, id);
    return id;
  }

  /** The tags of an interned tag set (frozen, keys sorted). */
  tagsOf(tagSetId: number): Tags {
    const t = this.tagSets[tagSetId];
    if (t === undefined) throw new Error(`unknown tag set id ${tagSetId}`);
    return t;
  }

  /**
   * Takes one sample. Non-finite values (NaN, ±Infinity) are dropped: they would poison every figure of the metric
   * and have no JSON form for the outputs. An undeclared metric is an error.
   */
  add(metric: string, tagSetId: number, time: number, value: number): void {
    const m = this.metrics.get(metric);
    if (m === undefined) throw new Error(`metric "${metric}" was not declared`);
    if (!(value - value === 0)) return;
    this.sampled = true;
    m.sink.add(value);
    if (m.subs.length !== 0) {
      const hits = m.subHits[tagSetId] ?? this.matchSubs(m, tagSetId);
      for (let i = 0; i < hits.length; i++) (hits[i] as SubMetric).sink.add(value);
    }
    if (m.feeds !== PLAIN) this.feed(m, tagSetId, value);
    const ls = this.listeners;
    if (ls !== null) for (let i = 0; i < ls.length; i++) (ls[i] as SampleListener)(metric, tagSetId, time, value);
  }

  /** SampleSink for code on the main thread: interns the tags and adds the sample (`time` defaults to now). */
  emit(metric: string, value: number, tags: Tags, time?: number): void {
    this.add(metric, this.internTags(tags), time ?? Date.now(), value);
  }

  private matchSubs(m: MetricState, tagSetId: number): SubMetric[] {
    const tags = this.tagsOf(tagSetId);
    let hits: SubMetric[] = NO_SUBS;
    for (const sub of m.subs) {
      let all = true;
      for (let i = 0; i < sub.filter.length && all; i += 2) all = tags[sub.filter[i] as string] === sub.filter[i + 1];
      if (all) hits = hits === NO_SUBS ? [sub] : [...hits, sub];
    }
    m.subHits[tagSetId] = hits;
    return hits;
  }

  private feed(m: MetricState, tagSetId: number, value: number): void {
    let hit = m.feedHits[tagSetId];
    if (hit === undefined) {
      const tags = this.tagsOf(tagSetId);
      if (m.feeds === CHECKS) hit = tags.check === undefined ? null : this.groups.check(tags.group ?? '', tags.check);
      else {
        this.groups.group(tags.group ?? '');
        hit = 1;
      }
      m.feedHits[tagSetId] = hit;
    }
    if (hit !== null && hit !== 1) {
      if (value !== 0) hit.passes++;
      else hit.fails++;
    }
  }

  /**
   * Registers a listener for every sample from now on; returns the function that removes it. With none registered,
   * `add` skips the call entirely.
   */
  onSample(listener: SampleListener): () => void {
    this.listeners = [...(this.listeners ?? []), listener];
    return () => {
      const rest = (this.listeners ?? []).filter((l) => l !== listener);
      this.listeners = rest.length === 0 ? null : rest;
    };
  }

  /** Marks the start of the test run (default: when the store was made); counter rates divide by the run's length. */
  begin(time: number = this.now()): void {
    this.startedAt = time;
    this.endedAt = undefined;
  }

  /** Marks the end of the test run: the run's length stops growing. */
  end(time: number = this.now()): void {
    this.endedAt = time;
  }

  /** ms since `begin`, up to `end` once called. */
  elapsedMs(): number {
    return Math.max(0, (this.endedAt ?? this.now()) - this.startedAt);
  }

  /**
   * Every declared metric, each followed by its sub-metrics, in declaration order. `withSamplesOnly` leaves out the
   * ones that got no sample and have no threshold (summaries show those that have either).
   */
  entries(withSamplesOnly = false): MetricEntry[] {
    const out: MetricEntry[] = [];
    for (const m of this.metrics.values()) {
      if (!withSamplesOnly || m.sink.count > 0 || m.thresholds.length > 0)
        out.push({ key: m.decl.name, decl: m.decl, tags: undefined, sink: m.sink, thresholds: m.thresholds });
      for (const s of m.subs) {
        if (!withSamplesOnly || s.sink.count > 0 || s.thresholds.length > 0)
          out.push({ key: s.key, decl: m.decl, tags: s.tags, sink: s.sink, thresholds: s.thresholds });
      }
    }
    return out;
  }

  /** The metric or sub-metric under `key`, or undefined. */
  entry(key: string): MetricEntry | undefined {
    const open = key.indexOf('{');
    const m = this.metrics.get(open < 0 ? key : key.slice(0, open));
    if (m === undefined) return undefined;
    if (open < 0) return { key, decl: m.decl, tags: undefined, sink: m.sink, thresholds: m.thresholds };
    const s = m.subs.find((x) => x.key === key);
    return s && { key, decl: m.decl, tags: s.tags, sink: s.sink, thresholds: s.thresholds };
  }

  /**
   * One figure of a metric or sub-metric (`count`, `rate`, `value`, `avg`, `p(95)`, …; see Sink.stat), or undefined
   * when it has none.
   */
  aggregate(key: string, stat: string): number | undefined {
    return this.entry(key)?.sink.stat(stat, this.elapsedMs() / 1000);
  }

  /**
   * Judges every threshold now and remembers the verdicts (`lastVerdicts`), as k6 does with a metric that got no
   * sample: at the end of the run (the default) an empty counter, gauge or trend is judged on 0, the figures k6's empty
   * sinks hold, and an empty rate has no rate to judge, so its thresholds pass; while the run goes on (`during`, for
   * abortOnFail and the progress line) k6 leaves every empty metric's thresholds unjudged, so they pass too.
   *
   * @example
   * const failed = store.judge().filter((v) => !v.ok);
   */
  judge(options: { during?: boolean } = {}): ThresholdVerdict[] {
    const seconds = this.elapsedMs() / 1000;
    this.verdicts = judgeThresholds(this.thresholds, (key, t) => {
      const sink = this.entry(key)?.sink;
      if (sink === undefined) return undefined;
      if (sink.count > 0) return sink.stat(t.aggregation, seconds);
      if (options.during === true || sink.type === 'rate') return undefined;
      return sink.type === 'counter' ? sink.stat(t.aggregation, seconds) : 0;
    });
    return this.verdicts;
  }

  /** The verdicts of the last `judge`, or undefined before the first. */
  get lastVerdicts(): readonly ThresholdVerdict[] | undefined {
    return this.verdicts;
  }
}
