import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVitest, type TestSpecification, type Vitest } from 'vitest/node';
import { ruleList } from '../contract/index.js';
import type { LoadedProfile } from '../profile/load.js';
import { agentReplyWait, profileWait } from '../profile/schema.js';
import type { Results } from '../report/results.js';
import { DIALTONE_VERSION } from '../version.js';
import { reportOrder, toCaseResults, toRuleResults, totalsOf } from './aggregate.js';
import { type Handover, PROFILE_ENV, secretEnv } from './context.js';
import { globToPattern, matchesGlob, surfacesOf } from './glob.js';
import type { MutationSpec } from './mutations/spec.js';
import { pinNativeAddons } from './native-addons.js';
import { CollectingReporter } from './reporter.js';

export interface SuiteRun {
  /** Project root: where conformance/vitest.config.ts lives. */
  readonly root: string;
  readonly loaded: LoadedProfile;
  /** Rule-id glob; undefined runs every case. */
  readonly only?: string;
  /** `--slow`: run the real-time variants of the time-based rules (they take up to hours) instead of skipping them. */
  readonly slow?: boolean;
  /** Progress lines as the run goes (see RunOptions). */
  readonly progress?: ((line: string) => void) | undefined;
  /** Aborted: the run is cancelled, and the cases that finished are returned (see RunOptions). */
  readonly signal?: AbortSignal | undefined;
  /** Cases side by side (see RunOptions); the default for the gate. */
  readonly concurrent?: boolean;
}

/** What one run asks for beyond the profile. */
export interface RunOptions {
  readonly slow?: boolean;
  /**
   * The gate as fast as the network allows: files in several workers and the cases of a file side by side (cases that
   * share a limited resource excepted, src/suite/exclusive.ts). Unset, a file's cases run one after another: the
   * self-test's lanes and the mutation proof already share the machine with the gate.
   */
  readonly concurrent?: boolean;
  /** Receives a line per finished file and per real-time wait (src/suite/reporter.ts); unset: silent. */
  readonly progress?: ((line: string) => void) | undefined;
  /** The mutation proof: a mutation per rule id armed in that rule's case, or `trace` to record what passed. */
  readonly mutations?: Record<string, MutationSpec> | 'trace';
  /** Profiles by surface, each in place of the run's profile for that surface's cases (the self-test's batches). */
  readonly bySurface?: Readonly<Record<string, LoadedProfile>>;
  /** Aborted (a stop signal): vitest cancels the run; the results hold the cases that finished. */
  readonly signal?: AbortSignal | undefined;
}

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** Real-time cases of one file wait side by side (`it.concurrent`): all of a file's at once, not vitest's default 5. */
const MAX_CONCURRENT_CASES = 16;

/**
 * Workers of a concurrent run. Cases mostly wait on the target, so more workers than cores: across a network a file's
 * longest chain of requests, not the machine, bounds the gate; each worker costs a module graph load at start.
 */
const CONCURRENT_WORKERS = 4;
/** Cases of one file side by side in a concurrent run: enough to overlap waits, few enough not to flood one target. */
const CONCURRENT_CASES = 8;
/**
 * Files a concurrent run keeps for last, with nothing of the gate beside them: they judge a media connection's packet
 * timing, and its DTLS handshake must get the CPU within the case's wait, which work beside it on a busy machine took.
 */
const LAST_ALONE = ['conformance/voice/media.test.ts'];

/**
 * One vitest instance that runs the suite any number of times, against one profile after another
 * (the defect self-test starts a target per defect): vitest starts once, not once per run.
 *
 * Workers read the profile from a file whose path never changes, rewritten before each run. The
 * secret values travel in the environment the workers inherit, so every profile one runner serves
 * must resolve to the same values (the self-test gives its targets one set of credentials).
 */
export class SuiteRunner {
  readonly #collector = new CollectingReporter();
  readonly #dir = mkdtempSync(join(tmpdir(), 'dialtone-'));
  readonly #handover = join(this.#dir, 'profile.json');
  #env: string | undefined;
  #concurrent = false;
  private constructor(private readonly vitest: Vitest) {}

  /**
   * With `slow`, at least two workers: the real-time files (messaging, outbound) then wait side by side instead of
   * one after the other on a machine where vitest would use one.
   */
  static async create(root: string, options: RunOptions = {}): Promise<SuiteRunner> {
    pinNativeAddons(); // before the first worker thread: see native-addons.ts
    const exitCode = process.exitCode;
    const runner = new SuiteRunner(undefined as unknown as Vitest);
    const before = new Map(STOP_SIGNALS.map((sig) => [sig, process.listeners(sig)]));
    const vitest = await createVitest(
      'test',
      {
        root,
        config: join(root, 'conformance', 'vitest.config.ts'),
        watch: false,
        reporters: [runner.#collector],
        maxConcurrency: options.concurrent && !options.slow ? CONCURRENT_CASES : MAX_CONCURRENT_CASES,
        // Each runner's workers get its own handover file, so several runners can serve different targets at once.
        env: { [PROFILE_ENV]: runner.#handover },
        ...(options.concurrent
          ? { maxWorkers: Math.max(CONCURRENT_WORKERS, availableParallelism() - 1), sequence: { concurrent: true } }
          : options.slow
            ? { maxWorkers: Math.max(2, availableParallelism() - 1) }
            : {}),
      },
      // Installed as a package, root is inside the user's node_modules: vite's cache goes to the run's own
      // directory, never into the package.
      { cacheDir: join(runner.#dir, 'vite') },
    );
    process.exitCode = exitCode;
    // vitest's logger exits the process on SIGINT and SIGTERM; the command decides what a signal does (it cancels the
    // run through RunOptions.signal and writes the cases that finished).
    for (const [sig, had] of before) for (const l of process.listeners(sig)) if (!had.includes(l)) process.off(sig, l);
    (runner as unknown as { vitest: Vitest }).vitest = vitest;
    runner.#concurrent = options.concurrent === true;
    return runner;
  }

  /** Runs the cases matching `only` (every case when undefined) against `loaded`; the real-time ones only with `slow`. */
  async run(loaded: LoadedProfile, only?: string, options: RunOptions = {}): Promise<Results> {
    const started = Date.now();
    const env = secretEnv(loaded);
    const envKey = JSON.stringify(env);
    const others = Object.values(options.bySurface ?? {});
    if ((this.#env !== undefined && this.#env !== envKey) || others.some((l) => JSON.stringify(secretEnv(l)) !== envKey))
      throw new Error('a SuiteRunner serves profiles with one set of secret values');
    this.#env = envKey;
    const path = this.#handover;
    // Only references go to disk; the values travel in the environment the workers inherit.
    const handover: Handover = {
      source: loaded.path ?? null,
      profile: { ...loaded.profile, env_file: undefined },
      slow: options.slow === true,
      ...(options.mutations ? { mutations: options.mutations } : {}),
      ...(options.bySurface
        ? { bySurface: Object.fromEntries(Object.entries(options.bySurface).map(([surface, l]) => [surface, { ...l.profile, env_file: undefined }])) }
        : {}),
    };
    writeFileSync(path, JSON.stringify(handover), { mode: 0o600 });
    Object.assign(process.env, env);

    this.#collector.reset();
    this.#collector.progress = options.progress;
    if (only) this.vitest.setGlobalTestNamePattern(globToPattern(only));
    else this.vitest.resetGlobalTestNamePattern();
    // Only the case files of the surfaces the filter names: collecting every file costs seconds.
    const files = surfacesOf(only)?.map((surface) => `conformance/${surface}/`) ?? [];
    const exitCode = process.exitCode;
    const specs = await this.vitest.globTestSpecifications(files);
    this.#collector.expectFiles(specs.length);
    const last = (spec: TestSpecification) => LAST_ALONE.some((f) => spec.moduleId.endsWith(f));
    // Side by side, the files that need the machine to themselves run once the others have ended.
    const phases = this.#concurrent ? [specs.filter((s) => !last(s)), specs.filter(last)].filter((p) => p.length > 0) : [specs];
    const cancel = () => void this.vitest.cancelCurrentRun('keyboard-input');
    options.signal?.addEventListener('abort', cancel);
    try {
      for (const phase of phases) if (!options.signal?.aborted) await this.vitest.runTestSpecifications(phase, files.length === 0 && phases.length === 1);
    } finally {
      options.signal?.removeEventListener('abort', cancel);
    }
    process.exitCode = exitCode; // the gate decides the exit code, not vitest
    return resultsOf(loaded, only, started, this.#collector);
  }

  async close(): Promise<void> {
    await this.vitest.close();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

function resultsOf(loaded: LoadedProfile, only: string | undefined, started: number, collector: CollectingReporter): Results {
  // Cases the name filter left out come back as skipped; they were not run, so they are not reported.
  const cases = toCaseResults(collector.cases)
    .filter((c) => matchesGlob(c.rule, only))
    .sort(reportOrder(ruleList));
  const rules = toRuleResults(
    ruleList.filter((r) => matchesGlob(r.id, only)),
    cases,
  );
  const totals = totalsOf(cases, rules);
  const p = loaded.profile;
  return {
    tool: 'dialtone',
    tool_version: DIALTONE_VERSION,
    kind: 'conformance',
    started_at: new Date(started).toISOString(),
    duration_ms: Date.now() - started,
    target: {
      name: p.name,
      kind: p.kind,
      environment: p.environment,
      hosts: Object.fromEntries(Object.entries(p.hosts).filter(([, v]) => v)) as Record<string, string>,
      tls: { ca_file: p.tls?.ca_file ?? null, insecure: p.tls?.insecure ?? false },
      names: p.names,
      agent_reply_wait: agentReplyWait(p),
      case_wait: profileWait(p, 'case_ms'),
    },
    filter: only ?? null,
    // Nothing checked is no pass: a gate is green only when cases ran and none failed.
    gate: totals.fail > 0 || collector.errors.length > 0 || totals.pass + totals.observed === 0 ? 'fail' : 'pass',
    totals,
    cases,
    rules,
    errors: [...collector.errors],
    left_behind: collector.cases.flatMap((c) => (c.meta?.leftBehind ?? []).map((x) => ({ ...x, rule: c.meta?.rule ?? '' }))),
  };
}

/**
 * Runs the conformance suite once against a profile and returns its results.
 *
 * @example
 * const results = await runSuite({ root, loaded, only: 'chat.*' });
 * results.gate // 'pass' | 'fail'
 */
export async function runSuite(run: SuiteRun): Promise<Results> {
  const runner = await SuiteRunner.create(run.root, { slow: run.slow ?? false, concurrent: run.concurrent ?? true });
  try {
    return await runner.run(run.loaded, run.only, { slow: run.slow ?? false, progress: run.progress, signal: run.signal });
  } finally {
    await runner.close();
  }
}
