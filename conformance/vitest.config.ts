import { defineConfig } from 'vitest/config';
import { WAIT_DEFAULTS } from '../src/profile/schema.js';

// The conformance suite: one case per documented rule, run by `dialtone conformance`, which hands
// the target profile to the workers through DIALTONE_PROFILE.
export default defineConfig({
  test: {
    include: ['conformance/**/*.test.ts'],
    pool: 'threads',
    // A case's own bound is the profile's waits.case_ms (src/suite/case.ts); this is the bound of anything else.
    testTimeout: WAIT_DEFAULTS.case_ms,
    hookTimeout: WAIT_DEFAULTS.case_ms,
    // Cases never retry: a flaky target is a finding, not noise to hide.
    retry: 0,
    // Case files share a worker's module cache: every case builds its own clients, and the profile
    // is re-read per case, so no state leaks between files. Saves a module graph load per file.
    isolate: false,
  },
});
