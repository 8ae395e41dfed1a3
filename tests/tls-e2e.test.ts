import { SCENARIOS, tlsLoadSuite } from './tls-load.js';

// Every API scenario's smoke load against the reference target over TLS in its own process (tests/tls-load.ts).
tlsLoadSuite(SCENARIOS.filter((row) => row.scenario !== 'voice-browser'));
