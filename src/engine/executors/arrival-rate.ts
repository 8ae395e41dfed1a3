// constant-arrival-rate and ramping-arrival-rate: iterations start on a schedule whatever the response times (an open
// model), on a free VU; without one, a new VU up to maxVUs, else the arrival is dropped
// (/using-k6/scenarios/concepts/arrival-rate-vu-allocation/, /using-k6/scenarios/concepts/dropped-iterations/).
import type { ScenarioPlan } from '../options.js';
import { owns, shareOf } from '../segments.js';
import type { Vu } from '../vu.js';
import { type Executor, type ExecutorContext, gracefulStop } from './context.js';

/**
 * When arrival `i` (0-based, over the whole run) starts, in ms after the scenario's start; undefined past its end.
 * Constant: evenly spaced ("10 iterations per 1s ≈ one every 100 ms"). Ramping: the rate changes linearly within a
 * stage, so arrival i starts when the integral of the rate reaches i.
 *
 * @example
 * arrivalTimes({ executor: 'constant-arrival-rate', rate: 10, timeUnitMs: 1000, durationMs: 1000, … })(3); // 300
 */
export function arrivalTimes(plan: ScenarioPlan): (i: number) => number | undefined {
  if (plan.executor === 'constant-arrival-rate') {
    const every = plan.timeUnitMs / plan.rate;
    return (i) => {
      const t = i * every;
      return plan.rate > 0 && t < plan.durationMs ? t : undefined;
    };
  }
  // Stage k: from rate a to b (per ms) over d ms, starting at t0 with n0 arrivals before it.
  const stages: { t0: number; n0: number; a: number; b: number; d: number }[] = [];
  let t0 = 0;
  let n0 = 0;
  let from = plan.startRate / plan.timeUnitMs;
  for (const s of plan.stages) {
    const to = s.target / plan.timeUnitMs;
    stages.push({ t0, n0, a: from, b: to, d: s.durationMs });
    n0 += ((from + to) / 2) * s.durationMs;
    t0 += s.durationMs;
    from = to;
  }
  let k = 0;
  return (i) => {
    // Arrivals are asked for in order, so the stage only moves forward.
    while (k < stages.length && i >= (stages[k] as { n0: number }).n0 + ((stages[k]!.a + stages[k]!.b) / 2) * stages[k]!.d) k++;
    const s = stages[k];
    if (!s) return undefined;
    const n = i - s.n0;
    const slope = (s.b - s.a) / s.d;
    const tau = Math.abs(slope) < 1e-15 ? n / s.a : (-s.a + Math.sqrt(Math.max(0, s.a * s.a + 2 * slope * n))) / slope;
    return Number.isFinite(tau) ? s.t0 + Math.min(tau, s.d) : undefined;
  };
}

/** The arrival-rate executors: one dispatcher over the schedule of `arrivalTimes`. */
export const arrivalRate: Executor = async (ctx: ExecutorContext) => {
  const plan = ctx.plan;
  const preAllocated = shareOf(ctx.part, plan.preAllocatedVUs);
  const maxVUs = Math.max(shareOf(ctx.part, plan.maxVUs), preAllocated);
  const vus: Vu[] = [];
  const free: Vu[] = [];
  for (let i = 0; i < preAllocated; i++) {
    const vu = ctx.newVu();
    vus.push(vu);
    free.push(vu);
  }
  const start = plan.startTimeMs;
  const timeOf = arrivalTimes(plan);
  const end = start + (plan.executor === 'constant-arrival-rate' ? plan.durationMs : plan.stages.reduce((t, s) => t + s.durationMs, 0));
  ctx.setProgress(() => Math.min(1, Math.max(0, (ctx.now() - start) / Math.max(1, end - start))));
  const running = new Set<Promise<unknown>>();
  const launch = (vu: Vu, due: number) => {
    const p: Promise<unknown> = ctx.iterate(vu, due).then(() => {
      running.delete(p);
      free.push(vu);
    });
    running.add(p);
  };
  let i = 0;
  // Find this part's first arrival.
  while (!owns(ctx.part, i)) i++;
  await ctx.at(start);
  while (!ctx.stopped.aborted) {
    const t = timeOf(i);
    if (t === undefined) break;
    const due = start + t;
    if (due > ctx.now()) await ctx.at(due);
    if (ctx.stopped.aborted || ctx.now() >= end) break;
    let vu = free.pop();
    if (!vu && vus.length < maxVUs) {
      vu = ctx.newVu();
      vus.push(vu);
    }
    if (vu) {
      launch(vu, due);
    } else {
      ctx.dropped();
      ctx.insufficient(vus.length);
    }
    i += ctx.part.count;
  }
  await gracefulStop(ctx, running, vus, plan.gracefulStopMs);
};
