// The sink of the init context, setup and teardown before the store exists: the options, and so the thresholds the
// store is made with, come out of the init code.
import type { MetricDecl } from '../../core/metrics.js';
import type { SampleSink } from '../types.js';

/** Holds declarations and samples until `connect`, then passes them on. */
export class ForwardSink implements SampleSink {
  #to: SampleSink | undefined;
  readonly #decls: MetricDecl[] = [];
  readonly #samples: [string, number, Record<string, string>, number][] = [];
  declare(m: MetricDecl): void {
    if (this.#to) this.#to.declare(m);
    else this.#decls.push(m);
  }
  emit(metric: string, value: number, tags: Record<string, string>, time = Date.now()): void {
    if (this.#to) this.#to.emit(metric, value, tags, time);
    else this.#samples.push([metric, value, tags, time]);
  }
  connect(to: SampleSink): void {
    this.#to = to;
    for (const d of this.#decls) to.declare(d);
    for (const [m, v, t, at] of this.#samples) to.emit(m, v, t, at);
  }
  get declared(): readonly MetricDecl[] {
    return this.#decls;
  }
}
