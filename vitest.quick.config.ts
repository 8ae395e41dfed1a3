import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { TIMING_SENSITIVE } from './tests/timing-sensitive.js';

// `npm run test:quick`, the inner loop: the unit tests and the integration checks that start nothing heavy. What starts
// a load run, a capacity search, Chromium or a target in its own process stays in `npm test` (vitest.config.ts), which
// runs everything here too.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/{layers,contract,rules-doc,folder-names,ci-workflows,no-agpl,init,version,timing-sensitive}.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      ...TIMING_SENSITIVE, // load runs, capacities, the engine's schedules (tests/timing-sensitive.ts)
      'src/engine/modules/browser/browser.test.ts', // Chromium
      'tests/k6-corpus.test.ts', // 37 k6 scripts run by the engine, three at a time: both cores for a quarter of a minute
    ],
    testTimeout: 120_000,
    globalSetup: ['tests/scratch-tmpdir.ts'],
    hookTimeout: 120_000,
    // As the unit project of vitest.config.ts: files share their worker's module cache, one file more than cores.
    isolate: false,
    maxWorkers: availableParallelism() + 1,
  },
});
