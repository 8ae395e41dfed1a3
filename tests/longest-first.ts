// The unit project's order: its longest files first. vitest sorts files longest first by the durations it cached from
// earlier runs; a fresh clone (CI) has none, and took the files as found: tests/tls-conformance.test.ts, 21 s, started
// last and ran the end of the phase by itself (npm test in a fresh clone, 2026-11-27). Measured there, each over 20 s.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The unit project's longest files, longest first (npm test in a fresh clone, 2026-11-27: 58, 43, 31, 27 and 22 s). */
export const LONGEST: readonly string[] = [
  'tests/prism.test.ts',
  'src/engine/modules/browser.test.ts',
  'tests/cli-errors.test.ts',
  'tests/traffic-learn.test.ts',
  'tests/tls-conformance.test.ts',
];

/** vitest's own order, with the files of `LONGEST` moved to its front in their order. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST.findIndex((p) => f.moduleId.endsWith(`/${p}`));
      return i < 0 ? LONGEST.length : i;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order, and projects their groupOrder (every one of
    // these is in `unit`, which runs first).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
