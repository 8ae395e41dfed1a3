// voice-calls: what the scenario expects of a platform unless the target profile says otherwise (`slos`, `workloads`).
// Node reads this file to check a profile, print the SLOs and size the VU pool before anything runs; the scenario
// gets the outcome in its LoadConfig (`thresholds`, `shape`).
import type { ScenarioDefaults } from '../src/load/config.js';

const defaults: ScenarioDefaults = {
  // The SLOs: a breach fails the run (exit 99). Media figures are per call; the MOS floor is the E-model's
  // "satisfied" band (R 80, MOS about 4.0).
  slos: {
    voice_call_success: ['rate>0.99'],
    voice_call_time_to_connected: ['p(95)<1500'],
    voice_call_time_to_first_agent_audio: ['p(95)<2500'],
    voice_call_turn_latency: ['p(95)<2000'],
    voice_call_turn_answered: ['rate>0.99'],
    voice_call_jitter: ['p(95)<30'],
    voice_call_packet_loss: ['p(95)<0.01'],
    voice_call_concealed_share: ['p(95)<0.02'],
    voice_call_mos: ['p(5)>4'],
    voice_calls: ['count>0'],
    checks: ['rate>0.99'],
  },
  abortInCapacity: ['voice_call_success', 'voice_call_turn_answered', 'voice_call_turn_latency', 'voice_call_time_to_connected'],
  /**
   * Executor per workload, in calls at once (VUs; an iteration is one call, about 5 s in smoke: the greeting, two turns
   * and their replies). A call costs the engine an Opus decoder, SRTP both ways and 50 packets a second each way.
   */
  workloads: {
    smoke: { executor: 'constant-vus', vus: 2, duration: '10s', gracefulStop: '20s' },
    nightly: { executor: 'constant-vus', vus: 20, duration: '5m', gracefulStop: '30s' },
    capacity: {
      executor: 'ramping-vus',
      startVUs: 5,
      stages: [
        { target: 25, duration: '1m' },
        { target: 100, duration: '3m' },
      ],
      gracefulStop: '30s',
    },
  },
  metrics: {
    voice_call_time_to_connected: 'trend',
    voice_call_time_to_first_agent_audio: 'trend',
    voice_call_offer_to_answer: 'trend',
    voice_call_turn_latency: 'trend',
    voice_call_jitter: 'trend',
    voice_call_rtt: 'trend',
    voice_call_packet_loss: 'trend',
    voice_call_concealed_share: 'trend',
    voice_call_mos: 'trend',
    voice_call_success: 'rate',
    voice_call_turn_answered: 'rate',
    voice_calls: 'counter',
    voice_call_turns: 'counter',
    voice_call_errors: 'counter',
    voice_call_packets_lost: 'counter',
    voice_call_packets_received: 'counter',
  },
  // Held calls speaking turns: the closed model holds calls for a whole step, each taking a turn every 4 s (its message
  // rate is turns a second), judged by the turns answered. A turn cycle (utterance, reply, pauses) is under 3 s.
  closedModel: {
    held: 'calls',
    sockets: 1,
    messageRate: 0.25,
    answered: 'voice_call_turns',
    // What a held call samples in the steady part: its turns (a call's own figures come at hang-up, in the tail). A call
    // beyond the known capacity waits for a seat until its connect times out: a failed check in the steady part.
    slos: ['voice_call_turn_latency', 'voice_call_turn_answered', 'checks'],
  },
};

export default defaults;
