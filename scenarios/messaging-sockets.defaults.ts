// messaging-sockets: what the scenario expects of a platform unless the target profile says otherwise (`slos`, `workloads`).
// Node reads this file to check a profile, print the SLOs and size the VU pool before anything runs; the scenario
// gets the outcome in its LoadConfig (`thresholds`, `shape`).
import { MAX_SOCKETS_PER_SESSION } from '../src/contract/messaging/wire.js';
import type { ScenarioDefaults } from '../src/load/config.js';

const defaults: ScenarioDefaults = {
  // The SLOs: a breach fails the run through k6's exit code (99).
  slos: {
    messaging_events_lost: ['count==0'],
    messaging_events_duplicated: ['count==0'],
    messaging_socket_over_cap_refused: ['rate==1'],
    // k6/websockets gives the script an error event ('websocket: bad handshake'), not the status; the status reaches
    // only the `status` tag of the built-in ws metrics, so the 429 itself is held here.
    'ws_sessions{op:messaging.ws.over_cap,status:429}': ['count>0'],
    messaging_socket_failed: ['rate<0.01'],
    messaging_time_to_history_batch: ['p(95)<1000'],
    messaging_time_to_agent_joined: ['p(95)<1000'],
    messaging_time_to_first_chunk: ['p(95)<1500'],
    messaging_time_to_full_reply: ['p(95)<3000'],
    messaging_reconnect_replay_time: ['p(95)<1000'],
    'http_req_duration{op:messaging.access_token}': ['p(95)<500'],
    'http_req_duration{op:messaging.session}': ['p(95)<500'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    messaging_session_completed: ['rate>0.99'],
  },
  abortInCapacity: ['messaging_socket_failed', 'messaging_time_to_history_batch', 'messaging_time_to_full_reply'],
  /**
   * Executor per load profile, in sessions per second; each session is 11 handshakes, 4 messages and about 300 events
   * received. Nightly is 10/s: on a 2-core machine that runs k6 and the reference target side by side, 20/s already
   * drops iterations (the executor cannot start them on time).
   */
  workloads: {
    smoke: { executor: 'constant-arrival-rate', rate: 2, timeUnit: '1s', duration: '15s', preAllocatedVUs: 4, maxVUs: 30, gracefulStop: '10s' },
    nightly: { executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '5m', preAllocatedVUs: 10, maxVUs: 150, gracefulStop: '15s' },
    capacity: {
      executor: 'ramping-arrival-rate',
      startRate: 5,
      timeUnit: '1s',
      preAllocatedVUs: 20,
      maxVUs: 800,
      stages: [
        { target: 50, duration: '1m' },
        { target: 150, duration: '3m' },
        { target: 300, duration: '2m' },
      ],
      gracefulStop: '15s',
    },
  },
  metrics: {
    messaging_time_to_history_batch: 'trend',
    messaging_time_to_agent_joined: 'trend',
    messaging_time_to_first_chunk: 'trend',
    messaging_time_to_full_reply: 'trend',
    messaging_reconnect_replay_time: 'trend',
    messaging_events_lost: 'counter',
    messaging_events_duplicated: 'counter',
    messaging_socket_over_cap_refused: 'rate',
    messaging_socket_failed: 'rate',
    messaging_sockets_opened: 'counter',
    messaging_messages: 'counter',
    messaging_events_received: 'counter',
    messaging_session_completed: 'rate',
  },
  // The token, the session, the sockets' history batches, the join, four replies and the reopened socket's replay.
  iteration: {
    steps: [
      { key: 'http_req_duration{op:messaging.access_token}', count: 1 },
      { key: 'http_req_duration{op:messaging.session}', count: 1 },
      { key: 'messaging_time_to_history_batch', count: 1 },
      { key: 'messaging_time_to_agent_joined', count: 1 },
      { key: 'messaging_time_to_full_reply', count: 4 },
      { key: 'messaging_reconnect_replay_time', count: 1 },
    ],
  },
  // Capped at 10 sockets per session, the surface is mostly refusals under an arrival rate: the closed model holds
  // sessions (their sockets up to the cap) and sends messages on each, judged by the replies.
  closedModel: {
    held: 'sessions',
    sockets: MAX_SOCKETS_PER_SESSION,
    messageRate: 1,
    answered: 'messaging_messages',
    slos: ['messaging_time_to_full_reply', 'checks'],
  },
};

export default defaults;
