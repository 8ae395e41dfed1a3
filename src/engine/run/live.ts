// The run's live counts, worker by worker: what the vus gauges, the progress line and the REST API's status read.

const sum = (a: readonly number[]) => a.reduce((s, x) => s + x, 0);

/** Each worker's latest counts, by its index. */
export class LiveCounts {
  /** The most VUs busy at once since the gauge last read them. */
  readonly active: number[] = [];
  readonly initialized: number[] = [];
  readonly completed: number[] = [];
  readonly interrupted: number[] = [];
  /** Between the workers' start and their end. */
  running = false;

  /** A worker's counts, all 0 at first. */
  add(index: number): void {
    this.active[index] = 0;
    this.initialized[index] = 0;
    this.completed[index] = 0;
    this.interrupted[index] = 0;
  }

  /** The counts a worker reported; `active` keeps the most since the last gauge reading. */
  report(index: number, m: { active?: number; initialized: number; completed: number; interrupted: number }): void {
    if (m.active !== undefined) this.active[index] = Math.max(this.active[index] ?? 0, m.active);
    this.initialized[index] = m.initialized;
    this.completed[index] = m.completed;
    this.interrupted[index] = m.interrupted;
  }

  get vus(): number {
    return sum(this.active);
  }
  get vusMax(): number {
    return sum(this.initialized);
  }
  get completedAll(): number {
    return sum(this.completed);
  }
  get interruptedAll(): number {
    return sum(this.interrupted);
  }

  /** The REST API's status (k6: 7 running, 9 ended or not started). */
  status(): { status: number; vus: number; vusMax: number; stopped: boolean; running: boolean } {
    const running = this.running;
    return { status: running ? 7 : 9, vus: this.vus, vusMax: this.vusMax, stopped: !running, running };
  }
}
