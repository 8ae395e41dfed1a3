import type { MetricVerdict, Verdict } from './verdict.js';

/** What tonight's run and the control (the reference target, same scenario and workload, on the same runner) say together. */
export interface ControlReading {
  /** The control's own verdict against its own history. */
  readonly status: Verdict['status'];
  /** Metrics regressed tonight that regressed in the control as well: the runner moved, not (only) the product. */
  readonly together: readonly string[];
  /** Metrics regressed tonight while the control's held: the product's own. */
  readonly alone: readonly string[];
}

const regressed = (v: Verdict) => new Set(v.metrics.filter((m: MetricVerdict) => m.status === 'regressed').map((m) => m.metric));

/**
 * Reads tonight's verdict beside the control's. A metric that regressed in both moved with the runner (a slower or
 * busier machine slows the reference target's run too); one that regressed only tonight is the product's. Without a
 * baseline for the control nothing can be said of either.
 *
 * @example
 * controlReading(tonight, control); // { status: 'regressed', together: ['http_req_duration p95'], alone: [] }
 */
export function controlReading(tonight: Verdict, control: Verdict): ControlReading {
  const mine = [...regressed(tonight)];
  if (control.status === 'no baseline') return { status: control.status, together: [], alone: [] };
  const theirs = regressed(control);
  return { status: control.status, together: mine.filter((m) => theirs.has(m)), alone: mine.filter((m) => !theirs.has(m)) };
}

/**
 * The lines the terminal and the page give the control.
 *
 * @example
 * controlLines(reading); // ['control (the reference target on this runner): regressed', '  moved together with the control, so the runner, not the product:
 * http_req_duration p95']
 */
export function controlLines(r: ControlReading): string[] {
  const head = `control (the reference target on this runner): ${r.status}`;
  if (r.status === 'no baseline') return [`${head}: too few earlier control runs to say whether the runner moved`];
  return [
    head,
    ...(r.together.length ? [`  moved together with the control, so the runner, not the product: ${r.together.join(', ')}`] : []),
    ...(r.alone.length ? [`  regressed while the control held, so the product: ${r.alone.join(', ')}`] : []),
  ];
}
