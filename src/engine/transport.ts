// Samples from a worker thread to the main thread, in batches: four numbers a sample (metric, tag set, time, value)
// in a transferred Float64Array, with the metric and tag-set definitions each batch introduces.
import type { MetricDecl } from '../core/metrics.js';
import type { SampleSink, Tags } from './types.js';

/** What a worker posts: new metrics and tag sets (by this worker's ids), then the samples. */
export interface SampleBatch {
  readonly t: 'samples';
  readonly metrics: readonly MetricDecl[];
  readonly tags: readonly (readonly [number, Tags])[];
  readonly data: Float64Array;
  readonly n: number;
}

const STRIDE = 4;
const BATCH = 16_384;
const FLUSH_MS = 100;

/**
 * The worker's SampleSink: interns metrics and tag sets to small ids (a tag object seen before is found by identity,
 * else by its content) and sends a batch when it is full or every 100 ms.
 */
export class BatchSink implements SampleSink {
  readonly #metricIds = new Map<string, number>();
  readonly #byObject = new WeakMap<Tags, number>();
  readonly #byKey = new Map<string, number>();
  #newMetrics: MetricDecl[] = [];
  #newTags: [number, Tags][] = [];
  #data = new Float64Array(BATCH * STRIDE);
  #n = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(private readonly post: (b: SampleBatch, transfer: ArrayBuffer[]) => void) {
    this.#timer = setInterval(() => this.flush(), FLUSH_MS);
    this.#timer.unref();
  }

  declare(m: MetricDecl): void {
    if (this.#metricIds.has(m.name)) return;
    this.#metricIds.set(m.name, this.#metricIds.size);
    this.#newMetrics.push(m);
  }

  emit(metric: string, value: number, tags: Tags, time = Date.now()): void {
    const id = this.#metricIds.get(metric);
    if (id === undefined) throw new Error(`metric '${metric}' was not declared`);
    const at = this.#n * STRIDE;
    const d = this.#data;
    d[at] = id;
    d[at + 1] = this.#tagId(tags);
    d[at + 2] = time;
    d[at + 3] = value;
    if (++this.#n === BATCH) this.flush();
  }

  #tagId(tags: Tags): number {
    let id = this.#byObject.get(tags);
    if (id !== undefined) return id;
    let key = '';
    for (const k in tags) key += `${k}\u0000${tags[k]}\u0001`;
    id = this.#byKey.get(key);
    if (id === undefined) {
      id = this.#byKey.size;
      this.#byKey.set(key, id);
      this.#newTags.push([id, tags]);
    }
    this.#byObject.set(tags, id);
    return id;
  }

  /** Sends what is buffered (definitions too, even without samples). */
  flush(): void {
    if (this.#n === 0 && this.#newMetrics.length === 0 && this.#newTags.length === 0) return;
    const data = this.#data.slice(0, this.#n * STRIDE);
    this.post({ t: 'samples', metrics: this.#newMetrics, tags: this.#newTags, data, n: this.#n }, [data.buffer as ArrayBuffer]);
    this.#newMetrics = [];
    this.#newTags = [];
    this.#n = 0;
  }

  close(): void {
    clearInterval(this.#timer);
    this.flush();
  }
}

/** The main thread's side for one worker: its ids mapped to the store's. */
export class BatchReceiver {
  readonly #metrics: string[] = [];
  readonly #tags: number[] = [];

  constructor(
    private readonly store: {
      declare(m: MetricDecl): void;
      internTags(tags: Tags): number;
      add(metric: string, tagSetId: number, time: number, value: number): void;
    },
  ) {}

  receive(b: SampleBatch): void {
    for (const m of b.metrics) {
      this.store.declare(m);
      this.#metrics.push(m.name);
    }
    for (const [id, tags] of b.tags) this.#tags[id] = this.store.internTags(tags);
    const d = b.data;
    for (let i = 0; i < b.n; i++) {
      const at = i * STRIDE;
      this.store.add(this.#metrics[d[at] as number] as string, this.#tags[d[at + 1] as number] as number, d[at + 2] as number, d[at + 3] as number);
    }
  }
}
