import { configDefaults, defineConfig } from 'vitest/config';

// `npm run test:quick`, the inner loop: the unit tests and the integration checks that start nothing heavy. What starts
// a load run, a capacity search, Chromium or a target in its own process stays in `npm test` (vitest.config.ts), which
// runs everything here too.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/{layers,contract,rules-doc,folder-names,ci-workflows,no-agpl,init,version}.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      'src/engine/run.test.ts', // the built-in engine run as a process, end to end
      'src/engine/modules/browser.test.ts', // Chromium
      'src/reference-target/messaging/capacity.test.ts', // a timed capacity of the messaging surface
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
