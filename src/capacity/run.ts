// A whole capacity run: prepare the engine and the scenario, search, analyse, write DIR/capacity/SCENARIO/.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { engineId } from '../load/engine.js';
import { interruption } from '../load/interrupt.js';
import type { TargetedPlan } from '../load/plan.js';
import { sloSetName } from '../load/slos.js';
import { DIALTONE_VERSION } from '../version.js';
import { analyse } from './analysis.js';
import { headroomOf, type ObservedPeak } from './headroom.js';
import { appendCapacityHistory, capacityRecord, judgeCapacity, readCapacityHistory } from './history.js';
import { searchOverTime } from './over-time.js';
import { prepareSteps } from './prepare.js';
import { writeCapacityReport } from './report.js';
import type { CapacityResult } from './result.js';
import { type SearchOptions, searchCapacity } from './search.js';
import { runStep, type StepResult } from './step.js';
import { unitOf } from './units.js';

export type { CapacityResult } from './result.js';

export interface CapacityRun {
  /** The load plan (src/load/plan.ts): the scenario, its target, the engine; a traffic model in its overrides. */
  readonly plan: TargetedPlan;
  readonly reportDir: string;
  readonly search: SearchOptions;
  readonly onStep?: (s: StepResult) => void;
  /** The search history (src/capacity/history.ts); default DIR/capacity/SCENARIO/history.jsonl. */
  readonly history?: string | undefined;
  /** The platform's observed peak from a traffic model (`--traffic FILE`): the report puts it beside the capacity found. */
  readonly observed?: ObservedPeak | undefined;
}

/**
 * Runs the search for one scenario and writes capacity.json, steps.csv and index.html.
 *
 * @example
 * const { result } = await runCapacity({ plan: planAgainst(plan, session.loaded), reportDir: 'reports', search: DEFAULT_SEARCH });
 * result.analysis.max_sustainable_rate;
 */
export async function runCapacity(run: CapacityRun): Promise<{ result: CapacityResult; dir: string }> {
  const { scenario, loaded } = run.plan;
  // `--workload learned`: every step plays the traffic model's conversations, its rate the conversations arriving.
  const learned = run.plan.overrides?.learned;
  const dir = join(run.reportDir, 'capacity', scenario);
  const work = join(dir, '.work');
  rmSync(work, { recursive: true, force: true });
  const ctx = await prepareSteps(run.plan, work, run.search.closed);
  const started = new Date().toISOString();
  const outcome = await searchCapacity((plan) => runStep(ctx, plan), run.search, run.onStep);
  const cut = outcome.stopped === 'interrupted' ? interruption() : undefined;
  const analysis = analyse(outcome.steps, run.search, scenario);
  const found: CapacityResult = {
    tool_version: DIALTONE_VERSION,
    scenario,
    unit: ctx.closed?.held ?? unitOf(scenario).unit,
    ...(ctx.closed ? { model: { kind: 'closed' as const, sockets: ctx.closed.sockets, message_rate_per_socket: ctx.closed.messageRate } } : {}),
    target: loaded.profile.name,
    engine: engineId(ctx.engine),
    started_at: started,
    search: run.search,
    stopped: outcome.stopped,
    wall_s: outcome.wall_s,
    // Half a search claims no figure: what held so far is a floor, not the capacity.
    analysis: cut ? { ...analysis, max_sustainable_rate: null } : analysis,
    steps: outcome.steps,
    ...(ctx.slos ? { slos: { slo_set: sloSetName(loaded.profile.name, ctx.slos), entries: ctx.slos } } : {}),
    ...(learned ? { workload: { kind: 'learned' as const, file: learned.file, turns_p50: learned.turns.p50, think_time_p50_s: learned.thinkTimeS.p50 } } : {}),
    ...(cut ? { interrupted: cut } : {}),
  };
  if (cut) {
    await writeCapacityReport(dir, found, ctx.secrets, searchOverTime(found, work));
    rmSync(work, { recursive: true, force: true });
    return { result: found, dir };
  }
  // Judged against the searches before it, then recorded: a release that lowers capacity gets a verdict.
  const historyPath = run.history ?? join(dir, 'history.jsonl');
  const record = capacityRecord(found);
  // A search its budget cut short found no knee: its rate is no capacity to plan on, so no headroom is given against it.
  const headroom = run.observed && !cutShort(found) ? headroomOf(run.observed, found.analysis) : undefined;
  const result: CapacityResult = { ...found, verdict: judgeCapacity(readCapacityHistory(historyPath), record), ...(headroom ? { headroom } : {}) };
  appendCapacityHistory(historyPath, record);
  await writeCapacityReport(dir, result, ctx.secrets, searchOverTime(result, work));
  rmSync(work, { recursive: true, force: true });
  return { result, dir };
}

/**
 * Whether the search's budget ran out before it refined the knee, with the target the limit so far (when the load
 * generator was the limit, that is the finding, whatever stopped the search).
 *
 * @example
 * if (cutShort(result)) return 4;
 */
export const cutShort = (r: Pick<CapacityResult, 'stopped' | 'analysis'>): boolean =>
  (r.stopped === 'step-budget' || r.stopped === 'time-budget') && r.analysis.limited_by !== 'load-generator';
