// voice-browser: what the scenario expects of a platform unless the target profile says otherwise (`slos`, `workloads`).
// Node reads this file to check a profile, print the SLOs and size the VU pool before anything runs; the scenario
// gets the outcome in its LoadConfig (`thresholds`, `shape`).
import type { ScenarioDefaults } from '../src/load/config.js';

const defaults: ScenarioDefaults = {
  // The SLOs: a breach fails the run through k6's exit code (99).
  slos: {
    voice_browser_call_success: ['rate>0.99'],
    voice_browser_time_to_connected: ['p(95)<1500'],
    voice_browser_time_to_first_agent_audio: ['p(95)<2000'],
    'voice_browser_offer_to_answer{op:voice.offer}': ['p(95)<1000'],
    // Every call that connected decoded audio: samples, not just packets.
    voice_browser_samples_received: ['min>0'],
    voice_browser_calls: ['count>0'],
    browser_http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
  },
  abortInCapacity: ['voice_browser_call_success', 'voice_browser_time_to_connected', 'voice_browser_time_to_first_agent_audio'],
  /**
   * Executor per load profile, in browsers at once (VUs; an iteration is one Chromium, started afresh by k6). A Chromium
   * costs about a CPU-second to start and the machine that runs it also runs k6 and the reference target (werift, in one
   * Node thread), so browsers stay few and each carries several calls; --rate N sets N browsers at once.
   */
  workloads: {
    smoke: { executor: 'constant-vus', vus: 1, duration: '10s', gracefulStop: '20s' },
    nightly: { executor: 'constant-vus', vus: 2, duration: '5m', gracefulStop: '60s' },
    capacity: {
      executor: 'ramping-vus',
      startVUs: 1,
      stages: [
        { target: 3, duration: '1m' },
        { target: 6, duration: '3m' },
      ],
      gracefulStop: '60s',
    },
  },
  metrics: {
    voice_browser_time_to_connected: 'trend',
    voice_browser_time_to_first_agent_audio: 'trend',
    voice_browser_offer_to_answer: 'trend',
    voice_browser_call_setup: 'trend',
    voice_browser_samples_received: 'trend',
    voice_browser_concealed_share: 'trend',
    voice_browser_samples: 'counter',
    voice_browser_call_success: 'rate',
    voice_browser_calls: 'counter',
    voice_browser_call_errors: 'counter',
  },
};

export default defaults;
