// Shared by the Node side (which writes it) and the k6 side (which reads it): types and data only.
import type { Scenario } from 'k6/options';
import type { PlatformNames } from '../contract/names.js';
import type { BenchFigures, FigureFn } from '../core/headline-figures.js';

/** How hard a run pushes (the workload, `--workload`): a short check, the nightly SLO run, or a ramp to find the knee. */
export type WorkloadName = 'smoke' | 'nightly' | 'capacity';
export const WORKLOADS: readonly WorkloadName[] = ['smoke', 'nightly', 'capacity'];

/** One threshold in k6's syntax: `'p(95)<500'`, or the object form with abortOnFail (/using-k6/thresholds/). */
export type ThresholdItem = string | { threshold: string; abortOnFail?: boolean; delayAbortEval?: string };
/** k6's `options.thresholds`: a metric or sub-metric key to its expressions. */
export type Thresholds = Record<string, ThresholdItem[]>;
/** k6's four metric types. */
export type MetricKind = 'counter' | 'gauge' | 'rate' | 'trend';

/**
 * What a scenario expects of a platform unless the profile says otherwise: its SLOs and its workloads, kept beside the
 * scenario (`scenarios/NAME.defaults.ts`) so Node can read them without running k6, and a profile's `slos` and
 * `workloads` can be checked against them before anything runs.
 */
export interface ScenarioDefaults {
  /** The SLOs, in k6's threshold syntax. A profile's `slos` replaces them one key at a time. */
  readonly slos: Thresholds;
  /** Keys whose thresholds stop a capacity-workload run as soon as they fail (abortOnFail): past the knee is wasted load. */
  readonly abortInCapacity?: readonly string[];
  /** The executor of each workload. */
  readonly workloads: Readonly<Record<WorkloadName, Scenario>>;
  /** The metrics the scenario declares, by type: an SLO may name these and k6's built-in ones of the modules it uses. */
  readonly metrics: Readonly<Record<string, MetricKind>>;
  /**
   * What one iteration waits for, one step after another, each bounded by its SLO (`key`'s `p(N)<X` or `max<X`), or a
   * fixed bound: Little's law sizes an arrival-rate pool from it (VUs = rate × iteration time). Absent: a VU-based shape.
   */
  readonly iteration?: { readonly steps?: readonly { readonly key: string; readonly count: number }[]; readonly boundMs?: number };
  /**
   * The closed model of a capacity search (`dialtone capacity SCENARIO --model closed`), for a scenario whose load is
   * things held rather than arrivals: the scenario exports `hold(ctl)` (src/load/vu/hold.ts), which holds one of them for
   * the whole step and sends `messageRate` messages a second on each of its `sockets`. Absent: arrival rates only.
   */
  readonly closedModel?: ClosedModelDefaults;
}

/** See ScenarioDefaults.closedModel. */
export interface ClosedModelDefaults {
  /** What one VU holds, plural (`sessions`). */
  readonly held: string;
  /** Sockets each one holds, every one of them sending. */
  readonly sockets: number;
  /** Messages a second per socket, unless --message-rate says otherwise. */
  readonly messageRate: number;
  /** The counter of messages answered in full: the step's throughput. */
  readonly answered: string;
  /** The SLO keys a held step is judged by: those its steady part samples (setup falls in the warm-up). */
  readonly slos: readonly string[];
}

/** A workload's executor after the profile and the command line had their say, with where each value came from. */
export interface EffectiveShape {
  readonly shape: Scenario;
  /** `rate`, `duration`, `preAllocatedVUs`, `maxVUs`, `vus` → `default`, `profile`, `flag` or `sized` (Little's law). */
  readonly sources: Readonly<Record<string, ValueSource>>;
  /** The iteration time the pool was sized for, in seconds, when Little's law sized it. */
  readonly iterationS?: number | undefined;
}

/** Where a setting came from: the scenario's defaults, the target profile, a command-line flag, or Little's law. */
export type ValueSource = 'default' | 'profile' | 'flag' | 'sized' | 'learned';

/** One SLO key with the expressions that judge it and where they came from. */
export interface SloEntry {
  readonly key: string;
  readonly expressions: ThresholdItem[];
  readonly source: 'default' | 'profile';
}

/** Everything a scenario needs, handed to k6 as JSON in DIALTONE_LOAD. Holds no secret values. */
export interface LoadConfig {
  readonly scenario: string;
  readonly profile: WorkloadName;
  readonly target: {
    readonly name: string;
    /** `reference` for the embedded target (it serves the browser voice client page), `real` otherwise. */
    readonly kind?: 'reference' | 'real' | undefined;
    readonly hosts: Readonly<Record<string, string>>;
    readonly api_version: string;
    readonly account_id: string;
    readonly project_id: string;
    readonly variant_id?: string | undefined;
    readonly chat_script: { readonly handoff_message: string; readonly goodbye_message: string };
    /** X-Host of the messaging access-token request (the profile's `messaging_host`); absent: the reference's domain. */
    readonly messaging_host?: string | undefined;
    /** The names the documents leave out, as the platform spells them (the profile's `names`). */
    readonly names?: PlatformNames | undefined;
    /** The conversation-records window conversations-paging walks: the reference's seeded history, or the day before yesterday. */
    readonly records_window?: { readonly start_time: string; readonly end_time: string } | undefined;
  };
  /** Credential name to the environment variable holding it; VUs read the value from __ENV. */
  readonly secretEnv: Readonly<Record<string, string>>;
  /** Absolute path of the data file made in Node before the run (faker texts). */
  readonly dataFile: string;
  /**
   * The profile's conversation scripts, when it names a file and the scenario plays them (chat-turns,
   * messaging-sockets): the file as the profile names it and how many dialogues. The dialogues themselves are in the
   * data file; this is for the report.
   */
  readonly dialogues?: { readonly file: string; readonly count: number } | undefined;
  /** Browser scenarios: the voice client page (HTML) the scenario serves to its own pages with page.route. */
  readonly voiceClientFile?: string;
  /** From --rate, --duration and --max-vus: replace the profile's arrival rate (per second), length and VU cap. */
  readonly overrides?:
    | {
        readonly rate?: number | undefined;
        readonly duration?: string | undefined;
        readonly maxVUs?: number | undefined;
        /** `--workload learned`: arrivals, turns and think times from a traffic model (src/traffic/play.ts). */
        readonly learned?: LearnedWorkload | undefined;
      }
    | undefined;
  /** The thresholds the run is judged by: the scenario's defaults with the profile's `slos` (src/load/slos.ts). */
  readonly thresholds: Thresholds;
  /** The workload's executor with the profile's `workloads` and the flags applied, its pool sized (src/load/workload.ts). */
  readonly shape: Scenario;
  /** Each SLO key's bound on one sample, in ms (its `p(N)<X`): the scenario's waits give the platform that long, twice. */
  readonly sloBoundsMs: Readonly<Record<string, number>>;
  /** One iteration with every step at its SLO bound, in ms (Little's law's W), for a scenario with an iteration model. */
  readonly iterationBoundMs?: number | undefined;
  /** Where the run's SLOs and workload figures came from, for the reports (the scenario does not read it). */
  readonly provenance: { readonly slos: readonly SloEntry[]; readonly shape: EffectiveShape['sources']; readonly iterationS?: number | undefined };
}

/** Quantiles of a learned distribution (src/traffic/model.ts's Quantiles, structurally); src/load/vu/quantiles.ts draws from them. */
export interface QuantileTable {
  readonly p5: number;
  readonly p10: number;
  readonly p25: number;
  readonly p50: number;
  readonly p75: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
}

/**
 * A workload played from a traffic model (`--workload learned`): conversations arrive on an arrival-rate executor, open
 * model, whatever the agent's speed; inside one, each turn waits for the answer and then a think time drawn from the
 * model, and the number of turns is drawn too.
 */
export interface LearnedWorkload {
  /** The model file, as given, for the report. */
  readonly file: string;
  /** The busiest hour (`constant-arrival-rate`, per hour), or the whole day compressed (`ramping-arrival-rate`, 24 stages). */
  readonly shape: Scenario;
  /** How many times faster than real time arrivals come (1: as recorded). */
  readonly compress: number;
  readonly turns: QuantileTable;
  readonly thinkTimeS: QuantileTable;
  /** How long conversations lasted: a capacity search sizes its VUs and warm-up from it (src/capacity/units.ts). */
  readonly durationS: QuantileTable & { readonly mean: number };
}

/** The environment variable that carries the LoadConfig JSON into k6. */
export const LOAD_ENV = 'DIALTONE_LOAD';

/**
 * A scenario declared once (`scenarios/NAME.scenario.ts`, beside the k6 script `NAME.ts` and its defaults): everything
 * the rest of dialtone knows of it, read from here and nowhere else. src/load/scenario-declarations.ts finds the
 * declarations from the folder, so a new scenario is its own files and nothing else.
 */
export interface ScenarioDeclaration {
  /** Its SLOs, workloads and metrics (`scenarios/NAME.defaults.ts`). */
  readonly defaults: ScenarioDefaults;
  /** What one iteration is and the surface it loads: the unit a capacity search counts its rate in. */
  readonly unit: ScenarioUnit;
  /** The run's headline figures from its k6 summary: result.json's `figures`, the page's and the terminal's lines. */
  readonly figures: FigureFn;
  /** Whether it plays the profile's conversation scripts (`dialogues`); the others keep their own data. */
  readonly playsDialogues: boolean;
  /** Whether it can play a traffic model (`--workload learned`: turns and think times). */
  readonly playsLearned: boolean;
  /** How the benchmarks drive it; absent: they leave it out. */
  readonly bench?: ScenarioBench;
}

/**
 * A scenario's unit of work and the reference-target surface it loads: a known capacity of N pieces of work a second on
 * that surface (src/reference-target/capacity.ts: an HTTP request, a WebSocket handshake or a client frame) is
 * N / (pieces per iteration) iterations a second.
 */
export interface ScenarioUnit {
  /** What one iteration is, plural: the unit of the offered rate. */
  readonly unit: string;
  /** The surface (a key of src/reference-target/surfaces.ts) whose requests the iteration makes. */
  readonly surface: string;
  /** Pieces of work one iteration gives that surface, when fixed; otherwise HTTP requests measured per run. */
  readonly requestsPerIteration?: number;
  /**
   * The search's defaults for this scenario where the generic ones do not fit its iterations: a step must hold many
   * of them, the warm-up must outlast one (or the steady part starts empty), and k6 must let one finish.
   */
  readonly search?: ScenarioSearch;
  /** The closed model's search defaults where the generic closed ones do not fit (a held call takes a turn every few seconds). */
  readonly closedSearch?: ScenarioSearch;
  /** What the closed model holds and the work each held one does, for a scenario that has a closed model. */
  readonly closedWork?: ClosedWork;
}

/** The capacity search's options a scenario may set for itself (src/capacity/search.ts, SearchOptions). */
export interface ScenarioSearch {
  readonly startRate?: number;
  readonly maxRate?: number;
  readonly stepSeconds?: number;
  readonly warmupSeconds?: number;
  readonly gracefulStopSeconds?: number;
  readonly maxSteps?: number;
  readonly maxSeconds?: number;
}

/**
 * The closed model's words: a step's `messages` count the held ones' work (offered and answered a second) whatever that
 * work is, so the reasons and the report name it from here.
 */
export interface ClosedWork {
  /** What one VU holds, plural, as the scenario's closedModel says (`3 sessions held`). */
  readonly held: string;
  /** The work a held one does, plural, as its rate reads (`messages/s`). */
  readonly work: string;
  /** What the generator does with that work: messages are `sent`, turns `taken`. */
  readonly done: string;
  /** One held unit's pace, from the model's sockets each and rate a socket (its work a second is their product). */
  readonly pace: (sockets: number, ratePerSocket: number) => string;
  /** What the held ones are doing at a step's offered rate, as its progress line reads (`sending 5.0/s`). */
  readonly doing: string;
  /** What --message-rate counts for this scenario (`user messages a second per socket`). */
  readonly rate: string;
}

/** How the benchmarks drive a scenario (`npm run bench`). */
export interface ScenarioBench {
  /**
   * scripts/bench-load.ts: the scenario against its minimal hand-written script (scripts/bench/minimal/NAME.js) at
   * saturation: an arrival rate far above what the machine serves over the same few VUs, and the figures compared.
   */
  readonly saturation?: {
    readonly rate: number;
    readonly vus: number;
    readonly seconds?: number;
    readonly figures: BenchFigures;
    /** The minimal script's figures, when it counts them itself (calls held). */
    readonly minimalFigures?: BenchFigures;
  };
  /**
   * scripts/bench-capacity.ts: the surface's known capacity, in pieces of work a second, chosen so that the capacity in
   * the scenario's unit stays well inside what the engine and the target reach without a setting.
   */
  readonly knownCapacity?: number;
}
