// A load plan: what the user asked of a run that sends load, checked once and frozen before anything connects. Every
// command that sends load (load and its segments, capacity and its preparation, conformance --under-load, k6-operator,
// k8s-job, start) builds one with planLoad, and the code that runs load takes only a plan, so a rule about runs (the
// live refusal first) is written here once and no command can skip it.
import { durationSeconds } from '../core/duration.js';
import { UsageError } from '../errors.js';
import type { LoadedProfile } from '../profile/load.js';
import { loadProfile } from '../profile/load.js';
import type { EffectiveShape, LoadConfig, Thresholds, WorkloadName } from './config.js';
import { wantsDashboard } from './dashboard.js';
import { type DialogueSet, profileDialogues } from './dialogues.js';
import { type Engine, type EngineChoice, engineOfRun } from './engine.js';
import { checkExpectations } from './expectations.js';
import type { LoadExtras } from './extras.js';
import { checkScenario } from './scenarios.js';
import { thresholdsFor } from './slos.js';
import { keepsSamples } from './timeline-file.js';
import { effectiveShape, shapeDuration } from './workload.js';

/** The commands that send load, as the user types them: a refusal names the command and a flag it takes. */
export type LoadCommand = 'load' | 'capacity' | 'conformance --under-load' | 'k6-operator' | 'k8s-job';

/** How each command says it refuses a live profile: what it was about to do, and how to do it anyway with its own flags. */
const LIVE_REFUSAL: Readonly<Record<LoadCommand, { readonly prefix: string; readonly does: string; readonly anyway: string }>> = {
  load: { prefix: '', does: 'a load run', anyway: 'pass --allow-live to do it on purpose' },
  capacity: { prefix: '', does: 'a capacity search', anyway: 'pass --allow-live to do it on purpose' },
  // The gate alone sends no load and runs against any environment; only its load asks for leave.
  'conformance --under-load': {
    prefix: 'conformance: ',
    does: 'a gate under load',
    anyway: 'the gate without --under-load sends none',
  },
  'k6-operator': { prefix: 'k6-operator: ', does: 'manifests for a load run', anyway: 'pass --allow-live to do it on purpose' },
  'k8s-job': { prefix: 'k8s-job: ', does: 'a load run', anyway: 'pass --allow-live to do it on purpose' },
};

/** What the user asked of a run that sends load, before anything is checked. */
export interface LoadRequest {
  readonly command: LoadCommand;
  readonly root: string;
  readonly scenario: string;
  /** How hard the run pushes (smoke, nightly, capacity). */
  readonly workload: WorkloadName;
  /** The target profile: a file to read, or one already read; none for the reference target the command starts. */
  readonly target?: string | LoadedProfile | undefined;
  /** --allow-live, where the command takes it. */
  readonly allowLive?: boolean | undefined;
  /** The engine (resolved once for all segments, or fixed by the command), or the --engine choice. */
  readonly engine?: Engine | EngineChoice | undefined;
  readonly overrides?: LoadConfig['overrides'];
  /** k6 outputs, an execution segment, the history file: src/load/extras.ts. */
  readonly extras?: LoadExtras | undefined;
  /** --dashboard: export k6's web dashboard even on a run that pushes the limit (src/load/dashboard.ts). */
  readonly dashboard?: boolean | undefined;
  /** --max-start-lag: the p99 iteration start lag, ms, above which the generator is behind schedule (delivery.ts). */
  readonly maxStartLagMs?: number | undefined;
  /** Extra seconds past the scenario's own length before the run is stopped. */
  readonly graceSeconds?: number | undefined;
}

/** A request checked: the scenario known, the profile read and refused or accepted once, the engine resolved. */
export interface LoadPlan {
  readonly command: LoadCommand;
  readonly root: string;
  readonly scenario: string;
  readonly workload: WorkloadName;
  /** The target profile, read and checked; undefined until the reference target a command starts is bound (planAgainst). */
  readonly loaded: LoadedProfile | undefined;
  readonly allowLive: boolean;
  /** The profile's conversation scripts, read and checked (src/load/dialogues.ts). */
  readonly dialogues: DialogueSet | undefined;
  readonly engine: Engine;
  readonly overrides: LoadConfig['overrides'];
  readonly extras: LoadExtras | undefined;
  readonly dashboard: boolean | undefined;
  readonly maxStartLagMs: number | undefined;
  readonly graceSeconds: number;
}

/** The workload as the target's profile and the flags shape it, and the thresholds it is judged by. */
export type ShapedWorkload = EffectiveShape & { readonly thresholds: Thresholds };

/** A plan bound to the target it sends load to: what the code that runs load takes. */
export type TargetedPlan = LoadPlan & {
  readonly loaded: LoadedProfile;
  readonly shaped: ShapedWorkload;
  /** The run's wall-time bound, grace included: the engine is stopped there. */
  readonly limitSeconds: number;
  /** Whether the run keeps its samples for the page's run over time (src/load/timeline-file.ts). */
  readonly keepsSamples: boolean;
};

/**
 * Checks what the user asked of a run that sends load, in the order a user should hear of a mistake, before anything
 * connects: the scenario, the live refusal, the profile's expectations and dialogues, the engine and the flags it
 * cannot honour. Every refusal is a UsageError of one line (exit 2), but a missing k6 under --engine k6 (exit 3).
 *
 * @example
 * const plan = planLoad({ command: 'load', root: ROOT, scenario: 'chat-turns', workload: 'smoke', target: 'staging.json' });
 */
export function planLoad(request: LoadRequest & { readonly target: string | LoadedProfile }): TargetedPlan;
export function planLoad(request: LoadRequest): LoadPlan;
export function planLoad(request: LoadRequest): LoadPlan {
  checkScenario(request.root, request.scenario);
  const loaded = typeof request.target === 'string' ? loadProfile(request.target) : request.target;
  const dialogues = loaded ? checkTarget(request, loaded) : undefined;
  // Before the target starts: a bad DIALTONE_ENGINE, --engine k6 without a k6, an output the engine does not write.
  const engine = engineOfRun({ root: request.root, engine: request.engine, extras: request.extras });
  const { scenario, overrides, dashboard } = request;
  if (engine.kind === 'k6' && request.maxStartLagMs !== undefined)
    throw new UsageError("load: --max-start-lag judges the built-in engine's iteration_start_lag, which k6 does not report: use --engine builtin");
  const plan: LoadPlan = {
    command: request.command,
    root: request.root,
    scenario,
    workload: request.workload,
    loaded: undefined,
    allowLive: request.allowLive ?? false,
    dialogues: undefined,
    engine,
    overrides,
    extras: request.extras,
    dashboard,
    maxStartLagMs: request.maxStartLagMs,
    graceSeconds: request.graceSeconds ?? 0,
  };
  return loaded ? targeted(plan, loaded, dialogues) : Object.freeze(plan);
}

/**
 * The plan bound to the target its command started (the reference target, when the plan was made without a profile),
 * or to its own profile; the target's profile is checked as planLoad checks one.
 *
 * @example
 * const session = await openTarget(plan.loaded);
 * await runLoad(planAgainst(plan, session.loaded), { reportDir });
 */
export function planAgainst(plan: LoadPlan, loaded: LoadedProfile): TargetedPlan {
  if (plan.loaded === loaded) return plan as TargetedPlan;
  if (plan.loaded) throw new Error(`a plan for '${plan.loaded.profile.name}' cannot be bound to '${loaded.profile.name}'`);
  return targeted(plan, loaded, checkTarget(plan, loaded));
}

/** A checked plan with its target and its dialogues: the workload shaped, the time limit and the sample policy set. */
function targeted(plan: LoadPlan, loaded: LoadedProfile, dialogues: DialogueSet | undefined): TargetedPlan {
  const { scenario, workload, overrides, dashboard } = plan;
  const p = loaded.profile;
  const thresholds = thresholdsFor(scenario, workload, p);
  const shaped = { ...effectiveShape({ scenario, workload, profile: p, thresholds, overrides }), thresholds };
  const duration = shapeDuration(shaped.shape);
  // The page's run over time is drawn from the run's own samples, kept where writing them costs the generator little.
  const atLimit = !wantsDashboard({ workload, overrides, dashboard });
  return Object.freeze({
    ...plan,
    loaded,
    dialogues,
    shaped,
    limitSeconds: runLimitSeconds(workload, duration) + plan.graceSeconds,
    keepsSamples: keepsSamples({ dashboard, atLimit, seconds: durationSeconds(duration ?? '') }),
  });
}

/**
 * The same plan with extras of its own (a segment of the run), or with the overrides its command could read only once
 * the plan knew the scenario (a capacity search's traffic model). Nothing planLoad refuses depends on either.
 */
export function planWith<P extends LoadPlan>(plan: P, change: Partial<Pick<LoadPlan, 'extras' | 'overrides'>>): P {
  const next = { ...plan, ...change };
  // New overrides shape the workload again, and with it the time limit and the sample policy.
  return (plan.loaded ? targeted(next, plan.loaded, plan.dialogues) : Object.freeze(next)) as P;
}

/**
 * The plan of `--control`: the same scenario, workload, engine and overrides against the reference target this machine
 * starts, with extras of its own (its own history); the flags that only shape this run's report stay with this run.
 *
 * @example
 * const control = planAgainst(controlPlan(plan, { outs: [], history: 'control.jsonl' }), reference.loaded);
 */
export function controlPlan(plan: LoadPlan, extras: LoadExtras): LoadPlan {
  const { command, root, scenario, workload, allowLive, engine, overrides, graceSeconds } = plan;
  const base = { command, root, scenario, workload, allowLive, engine, overrides, graceSeconds };
  return Object.freeze({ ...base, loaded: undefined, dialogues: undefined, extras, dashboard: undefined, maxStartLagMs: undefined });
}

/** The rules every target of a load run meets: the live refusal first, then its expectations and dialogues. */
function checkTarget(request: Pick<LoadRequest, 'command' | 'allowLive'>, loaded: LoadedProfile): DialogueSet | undefined {
  const { profile } = loaded;
  const source = loaded.path ?? profile.name;
  if (profile.environment === 'live' && !request.allowLive) {
    const { prefix, does, anyway } = LIVE_REFUSAL[request.command];
    throw new UsageError(`${prefix}refusing ${does} against the live environment of '${source}'; ${anyway}`);
  }
  checkExpectations(profile, source);
  return profileDialogues(loaded);
}

/** Upper bound on a run's wall time per workload: every loop is bounded in time. */
const MAX_SECONDS: Record<WorkloadName, number> = { smoke: 120, nightly: 900, capacity: 1200 };
/** Seconds a run with its own --duration may take past it: k6's start, the graceful stop, the summary. */
const DURATION_ALLOWANCE_S = 300;

/**
 * The wall-time bound of a run: its workload's, or a --duration's with room to start and stop, whichever is longer (a
 * 30-minute soak must not be cut at the nightly 15).
 *
 * @example
 * runLimitSeconds('nightly', '30m') // 2100
 */
export function runLimitSeconds(workload: WorkloadName, duration: string | undefined): number {
  const asked = duration === undefined ? undefined : durationSeconds(duration);
  return Math.max(MAX_SECONDS[workload], asked === undefined ? 0 : asked + DURATION_ALLOWANCE_S);
}
