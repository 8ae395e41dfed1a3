import { defineConfig } from 'vitest/config';

// Unit and integration tests of dialtone itself (sibling *.test.ts files and tests/).
// The conformance suite has its own config in conformance/ and runs through the CLI.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
