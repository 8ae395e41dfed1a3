import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { TIMING_PROJECTS, TIMING_SENSITIVE } from './tests/timing-sensitive.js';

// Unit and integration tests of dialtone itself (sibling *.test.ts files and tests/). The conformance suite has its own
// config in conformance/ and runs through the CLI. Seven projects: everything else first (as many files at once as vitest
// gives the machine), then the timing-sensitive files (tests/timing-sensitive.ts) in lanes of one file at a time, then
// the file that needs the whole machine: `npm test` runs the lanes side by side in vitest processes of their own
// (scripts/test.mjs); here, in one process, they all run one after the other.
export default defineConfig({
  test: {
    testTimeout: 120_000,
    globalSetup: ['tests/scratch-tmpdir.ts'],
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...TIMING_SENSITIVE],
          // Files share their worker's module cache instead of importing dialtone anew each, which halves the unit phase;
          // every file that fakes timers or spies restores them after itself.
          isolate: false,
          // One file more than there are cores: these files wait on the processes, threads and timers they start about as
          // much as they compute, and vitest's default (cores - 1) runs one at a time on a 2-core runner.
          maxWorkers: availableParallelism() + 1,
          sequence: { groupOrder: 0 },
        },
      },
      // One file at a time each; a plain `vitest run` runs them in this order.
      ...Object.entries(TIMING_PROJECTS).map(([name, include], i) => ({
        extends: true as const,
        test: { name, include: [...include], fileParallelism: false, sequence: { groupOrder: i + 1 } },
      })),
    ],
  },
});
