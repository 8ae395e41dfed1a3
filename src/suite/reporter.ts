import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestModule, TestSpecification } from 'vitest/node';
import type { Outcome } from '../report/results.js';
import type { CaseMeta } from './meta.js';
import { WAIT_MARK } from './slow.js';

/** One finished case, as the report model needs it. */
export interface CollectedCase {
  readonly title: string;
  readonly file: string;
  readonly outcome: Outcome;
  readonly durationMs: number;
  readonly meta: CaseMeta | undefined;
  readonly error: string | undefined;
}

/**
 * A vitest reporter that keeps every case in memory for the report writers. With `progress` set it also
 * says how the run goes: a line per finished file (its surface, outcomes, files done) and, for --slow,
 * what each real-time wait is for and until when.
 */
export class CollectingReporter implements Reporter {
  readonly cases: CollectedCase[] = [];
  readonly errors: string[] = [];
  /** Where progress lines go during a run; unset, the reporter prints nothing (the self-test's many runs). */
  progress: ((line: string) => void) | undefined;
  #files = 0;
  #filesDone = 0;

  /** The files of the run to come, when it runs them in more than one go (a concurrent run's last files alone). */
  expectFiles(count: number): void {
    this.#files = count;
    this.#filesDone = 0;
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    if (this.#files > 0) return; // a run in several goes counts its files across them
    this.#files = specifications.length;
    this.#filesDone = 0;
  }

  onTestModuleEnd(m: TestModule): void {
    if (!this.progress) return;
    this.#filesDone++;
    const count = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    // Cases the --only filter left out come back skipped with mode 'skip': they did not run, so they are not counted.
    const ran = [...m.children.allTests()].filter((t) => t.options.mode !== 'skip' && t.options.mode !== 'todo');
    for (const t of ran) count[t.result().state]++;
    if (ran.length === 0) return;
    const surface = m.relativeModuleId.split('/')[1] ?? m.relativeModuleId;
    const file = m.relativeModuleId.split('/').slice(2).join('/');
    this.progress(
      `conformance: ${surface} ${file}: ${count.passed} passed, ${count.failed} failed, ${count.skipped} skipped (${this.#filesDone}/${this.#files} files)`,
    );
  }

  onUserConsoleLog(log: UserConsoleLog): void {
    if (log.content.startsWith(WAIT_MARK)) this.progress?.(`conformance: ${log.content.slice(WAIT_MARK.length).trim()}`);
  }

  /** Forgets the previous run, so one reporter serves a runner's many runs. */
  reset(): void {
    this.cases.length = 0;
    this.errors.length = 0;
    this.#files = 0;
    this.#filesDone = 0;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<{ message?: string }>): void {
    for (const m of modules) {
      for (const e of m.errors()) this.errors.push(`${m.moduleId}: ${e.message}`);
      for (const test of m.children.allTests()) {
        const result = test.result();
        const meta = test.meta().dialtone;
        const outcome: Outcome = result.state === 'failed' ? 'fail' : result.state === 'passed' ? (meta?.open ? 'observed' : 'pass') : 'skip';
        this.cases.push({
          title: test.name,
          file: m.relativeModuleId,
          outcome,
          durationMs: test.diagnostic()?.duration ?? 0,
          meta,
          error: result.state === 'failed' ? result.errors?.[0]?.message : undefined,
        });
      }
    }
    for (const e of unhandled) this.errors.push(e.message ?? String(e));
  }
}
