import type { Reporter, TestModule } from 'vitest/node';
import type { Outcome } from '../report/results.js';
import type { CaseMeta } from './meta.js';

/** One finished case, as the report model needs it. */
export interface CollectedCase {
  readonly title: string;
  readonly file: string;
  readonly outcome: Outcome;
  readonly durationMs: number;
  readonly meta: CaseMeta | undefined;
  readonly error: string | undefined;
}

/** A vitest reporter that keeps every case in memory for the report writers; it prints nothing. */
export class CollectingReporter implements Reporter {
  readonly cases: CollectedCase[] = [];
  readonly errors: string[] = [];

  /** Forgets the previous run, so one reporter serves a runner's many runs. */
  reset(): void {
    this.cases.length = 0;
    this.errors.length = 0;
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
