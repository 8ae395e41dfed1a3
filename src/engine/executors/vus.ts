// The VU-based executors: constant-vus, ramping-vus, shared-iterations, per-vu-iterations. Each VU loops: an
// iteration starts as soon as its previous one ended (a closed model, /using-k6/scenarios/executors/).
import { shareOf } from '../segments.js';
import type { Vu } from '../vu.js';
import { type Executor, type ExecutorContext, gracefulStop } from './context.js';

/** How often ramping-vus looks at its target VU count. */
const RAMP_TICK_MS = 50;

/** Runs iterations on `vu` while `more()` says so; resolves when the VU stops. */
async function loop(ctx: ExecutorContext, vu: Vu, more: () => boolean): Promise<void> {
  while (more() && !ctx.stopped.aborted) {
    await ctx.iterate(vu);
  }
}

/** Runs the VUs' loops until `endMs`, then gives them the graceful stop. */
async function loopUntil(ctx: ExecutorContext, vus: readonly Vu[], endMs: number, more: (vu: Vu) => boolean = () => true): Promise<void> {
  const running = new Set<Promise<unknown>>();
  for (const vu of vus) {
    const p: Promise<unknown> = loop(ctx, vu, () => ctx.now() < endMs && more(vu)).then(() => running.delete(p));
    running.add(p);
  }
  await Promise.race([Promise.all([...running]), ctx.at(endMs)]);
  await gracefulStop(ctx, running, vus, ctx.plan.gracefulStopMs);
}

/** k6 docs: "A fixed number of VUs execute as many iterations as possible for a specified amount of time." */
export const constantVus: Executor = async (ctx) => {
  const { plan } = ctx;
  const vus = Array.from({ length: shareOf(ctx.part, plan.vus) }, () => ctx.newVu());
  const start = plan.startTimeMs;
  const end = start + plan.durationMs;
  ctx.setProgress(() => Math.min(1, Math.max(0, (ctx.now() - start) / Math.max(1, plan.durationMs))));
  await ctx.at(start);
  await loopUntil(ctx, vus, end);
};

/** The ramping-vus target at `t` ms into the scenario: linear within each stage, from startVUs. */
export function vuTarget(startVUs: number, stages: readonly { durationMs: number; target: number }[], t: number): number {
  let from = startVUs;
  let at = 0;
  for (const s of stages) {
    if (t < at + s.durationMs) return Math.round(from + ((s.target - from) * (t - at)) / s.durationMs);
    at += s.durationMs;
    from = s.target;
  }
  return from;
}

/**
 * k6 docs: "A variable number of VUs execute as many iterations as possible for a specified amount of time." VUs
 * ramped down finish their iteration within gracefulRampDown, then are interrupted.
 */
export const rampingVus: Executor = async (ctx) => {
  const { plan } = ctx;
  const start = plan.startTimeMs;
  const total = plan.stages.reduce((t, s) => t + s.durationMs, 0);
  const end = start + total;
  const most = shareOf(ctx.part, Math.max(plan.startVUs, ...plan.stages.map((s) => s.target)));
  const vus = Array.from({ length: most }, () => ctx.newVu());
  ctx.setProgress(() => Math.min(1, Math.max(0, (ctx.now() - start) / Math.max(1, total))));
  const target = () => shareOf(ctx.part, vuTarget(plan.startVUs, plan.stages, ctx.now() - start));
  await ctx.at(start);
  const running = new Map<Vu, Promise<unknown>>();
  const rampDown = new Map<Vu, NodeJS.Timeout>();
  const runningSet = new Set<Promise<unknown>>();
  while (!ctx.stopped.aborted && ctx.now() < end) {
    const want = target();
    vus.forEach((vu, index) => {
      const active = index < want;
      if (active && !running.has(vu)) {
        const p: Promise<unknown> = loop(ctx, vu, () => index < target() && ctx.now() < end).then(() => {
          running.delete(vu);
          runningSet.delete(p);
          clearTimeout(rampDown.get(vu));
          rampDown.delete(vu);
        });
        running.set(vu, p);
        runningSet.add(p);
      } else if (!active && running.has(vu) && !rampDown.has(vu)) {
        rampDown.set(
          vu,
          setTimeout(() => vu.interrupt(), plan.gracefulRampDownMs),
        );
      }
    });
    await ctx.at(Math.min(end, ctx.now() + RAMP_TICK_MS));
  }
  await gracefulStop(ctx, runningSet, vus, plan.gracefulStopMs);
  for (const t of rampDown.values()) clearTimeout(t);
};

/** k6 docs: "A fixed amount of iterations are shared between a number of VUs." */
export const sharedIterations: Executor = async (ctx) => {
  const { plan } = ctx;
  const vus = Array.from({ length: shareOf(ctx.part, plan.vus) }, () => ctx.newVu());
  const start = plan.startTimeMs;
  ctx.setProgress(() => ctx.claimedShare());
  await ctx.at(start);
  // The pool is the instance's: a worker whose VUs run faster takes more of it, as k6's VUs of one pool do.
  await loopUntil(ctx, vus, start + plan.maxDurationMs, () => ctx.claim());
};

/** k6 docs: "Each VU executes an exact number of iterations." */
export const perVuIterations: Executor = async (ctx) => {
  const { plan } = ctx;
  const vus = Array.from({ length: shareOf(ctx.part, plan.vus) }, () => ctx.newVu());
  const done = new Map<Vu, number>();
  const start = plan.startTimeMs;
  ctx.setProgress(() => Math.min(1, Math.max(0, (ctx.now() - start) / Math.max(1, plan.maxDurationMs))));
  await ctx.at(start);
  await loopUntil(ctx, vus, start + plan.maxDurationMs, (vu) => {
    const n = done.get(vu) ?? 0;
    done.set(vu, n + 1);
    return n < plan.iterations;
  });
};
