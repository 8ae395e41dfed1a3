// chat-turns: each iteration starts a chat conversation, sends several turns, says goodbye and
// closes it, on an arrival-rate executor so a slow target shows up as latency and dropped
// iterations rather than as fewer requests.
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import { Rate } from 'k6/metrics';
import type { Options, Scenario } from 'k6/options';
import type { WorkloadName } from '../src/load/config.js';
import { ChatVu } from '../src/load/vu/chat.js';
import { loadConfig, shapeFor } from '../src/load/vu/config.js';

const cfg = loadConfig();
const messages = new SharedArray('messages', () => (JSON.parse(open(cfg.dataFile)) as { messages: string[] }).messages);

const TURNS_PER_CONVERSATION = 4;

/** Executor per load profile: smoke proves the path, nightly holds the SLO, capacity ramps to the knee. */
const SHAPES: Record<WorkloadName, Scenario> = {
  smoke: { executor: 'constant-arrival-rate', rate: 5, timeUnit: '1s', duration: '15s', preAllocatedVUs: 5, maxVUs: 30, gracefulStop: '5s' },
  nightly: { executor: 'constant-arrival-rate', rate: 40, timeUnit: '1s', duration: '5m', preAllocatedVUs: 40, maxVUs: 300, gracefulStop: '10s' },
  capacity: {
    executor: 'ramping-arrival-rate',
    startRate: 10,
    timeUnit: '1s',
    preAllocatedVUs: 50,
    maxVUs: 1000,
    stages: [
      { target: 100, duration: '1m' },
      { target: 400, duration: '3m' },
      { target: 800, duration: '2m' },
    ],
    gracefulStop: '10s',
  },
};

// Per-request figures come from k6's own http_req_duration and http_reqs, tagged by op: a custom Trend or Counter per
// turn would record the same samples twice. Checks are per conversation, not per turn, for the same reason.
const completed = new Rate('chat_conversation_completed');

export const options: Options = {
  scenarios: { chat: shapeFor(SHAPES, cfg) },
  // The SLOs: a breach fails the run through k6's exit code (99).
  thresholds: {
    'http_req_duration{op:chat.respond}': [{ threshold: 'p(95)<500', abortOnFail: cfg.profile === 'capacity' }],
    'http_req_duration{op:chat.create}': ['p(95)<500'],
    'http_req_duration{op:chat.close}': ['p(95)<500'],
    // Turns happened (and their count and rate reach the summary).
    'http_reqs{op:chat.respond}': ['count>0'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    chat_conversation_completed: ['rate>0.99'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

// One client per VU, made on its first iteration (init code cannot read secrets lazily).
let chat: ChatVu | undefined;

const pick = () => messages[Math.floor(Math.random() * messages.length)] as string;

export default async function chatTurns(): Promise<void> {
  chat ??= new ChatVu(cfg);
  const created = await chat.call('create', 'POST', { channel: 'api', initial_message: pick() });
  const id = created.status === 200 ? (created.json('conversation_id') as string | undefined) : undefined;
  if (!check(id, { 'create answers a conversation_id': (v) => typeof v === 'string' })) {
    completed.add(false);
    return;
  }
  // Each answer is read once (one gjson lookup): 200 with a boolean end_conversation, and whether it is true. The turns
  // go one after another, each awaiting the previous answer, as a person in a conversation does.
  let answered = true;
  let ended = false;
  for (let i = 0; i <= TURNS_PER_CONVERSATION; i++) {
    const last = i === TURNS_PER_CONVERSATION;
    const res = await chat.call('respond', 'POST', { conversation_id: id, message: last ? cfg.target.chat_script.goodbye_message : pick() });
    const end = res.status === 200 ? res.json('end_conversation') : undefined;
    if (typeof end !== 'boolean') {
      answered = false;
      break;
    }
    ended = end;
    if (ended && !last) break;
  }
  check(answered, { 'every turn answers 200 with a boolean end_conversation': (a) => a });
  check(ended, { 'goodbye flags the conversation to end': (e) => e });
  const closed = await chat.call('close', 'PUT', { conversation_id: id });
  const ok = check(closed, { 'close answers success: true': (r) => r.status === 200 && r.json('success') === true });
  completed.add(answered && ended && ok);
}
