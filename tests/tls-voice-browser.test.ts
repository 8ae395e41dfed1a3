import { SCENARIOS, tlsLoadSuite } from './tls-load.js';

// The voice-browser smoke load against the reference target over TLS in its own process (tests/tls-load.ts): real
// Chromium at the machine's limit, so it runs with nothing beside it (tests/timing-sensitive.ts, TIMING_ALONE).
tlsLoadSuite(SCENARIOS.filter((row) => row.scenario === 'voice-browser'));
