// outbound-polling: each iteration starts an outbound call and polls its status with backoff until
// it is terminal (success or failure), then once more to see that it stays so. On an arrival-rate
// executor, so a slow target shows as latency and dropped iterations rather than as fewer calls.
// A status that goes backwards (success back to calling) and a 404 while the call is well inside
// its 2-hour retention are errors with zero tolerance.
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import {
  CALL_SID_PREFIX,
  isForwardTransition,
  isTerminalStatus,
  OUTBOUND_STATUSES,
  type OutboundStatusName as OutboundStatus,
} from '../src/contract/outbound/wire.js';
import { loadConfig } from '../src/load/vu/config.js';
import { OutboundVu } from '../src/load/vu/outbound.js';
import { sleep } from '../src/load/vu/wait.js';

const cfg = loadConfig();
const numbers = new SharedArray('phone numbers', () => (JSON.parse(open(cfg.dataFile)) as { phone_numbers: string[] }).phone_numbers);

/** Backoff between polls: from 250 ms, times 1.5, at most 2 s; an awaited timer, so the VU never blocks while it waits. */
const FIRST_WAIT_MS = 250;
const MAX_WAIT_MS = 2_000;
/** Bounds of one call's polling: a call that is not terminal by then counts as not terminal. */
const MAX_POLLS = 40;
const MAX_POLL_MS = 60_000;

const timeToTerminal = new Trend('outbound_time_to_terminal', true);
const pollsPerCall = new Trend('outbound_polls_per_call');
const transitions = new Counter('outbound_transitions');
const regressions = new Counter('outbound_regressions');
const lostBeforeRetention = new Counter('outbound_404_before_retention');
const terminal = new Rate('outbound_terminal');
const calls = new Counter('outbound_calls');

export const options: Options = {
  scenarios: { outbound: cfg.shape },
  // The SLOs (scenarios/outbound-polling.defaults.ts, with the profile's `slos`): a breach fails the run through k6's exit code (99).
  thresholds: cfg.thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

// One client per VU, made on its first iteration (init code cannot read secrets lazily).
let outbound: OutboundVu | undefined;

/** The documented statuses, looked up per poll (a Set lookup, not a schema parse). */
const STATUSES: ReadonlySet<string> = new Set(OUTBOUND_STATUSES);

/** The status a poll names, or undefined (a 404, or a body without a known status). */
function statusOf(res: { status: number; json: (path: string) => unknown }): OutboundStatus | undefined {
  if (res.status !== 200) return undefined;
  const status = res.json('status');
  return typeof status === 'string' && STATUSES.has(status) ? (status as OutboundStatus) : undefined;
}

export default async function outboundPolling(): Promise<void> {
  outbound ??= new OutboundVu(cfg);
  const to = numbers[Math.floor(Math.random() * numbers.length)] as string;
  const started = Date.now();
  const triggered = await outbound.trigger(to);
  const sid = triggered.status >= 200 && triggered.status < 300 ? (triggered.json('call_sid') as string | undefined) : undefined;
  calls.add(1);
  if (!check(sid, { 'trigger answers a call_sid starting OUT-': (s) => typeof s === 'string' && s.startsWith(CALL_SID_PREFIX) })) {
    terminal.add(false);
    return;
  }
  const callSid = sid as string;
  let last: OutboundStatus | undefined;
  let polls = 0;
  let wait = FIRST_WAIT_MS;
  let ended = false;
  let undocumented = 0;
  const seen = (res: Awaited<ReturnType<OutboundVu['status']>>): OutboundStatus | undefined => {
    polls++;
    // Every poll here is minutes, not hours, after the call ended: a 404 is a status lost too early.
    if (res.status === 404) lostBeforeRetention.add(1);
    const status = statusOf(res);
    if (status === undefined) undocumented++;
    if (status && last && status !== last) {
      transitions.add(1, { transition: `${last}>${status}` });
      if (!isForwardTransition(last, status)) regressions.add(1, { transition: `${last}>${status}` });
    }
    if (status) last = status;
    return status;
  };
  while (polls < MAX_POLLS && Date.now() - started < MAX_POLL_MS) {
    const status = seen(await outbound.status(callSid));
    if (status === undefined) break;
    if (isTerminalStatus(status)) {
      ended = true;
      timeToTerminal.add(Date.now() - started);
      break;
    }
    await sleep(wait);
    wait = Math.min(wait * 1.5, MAX_WAIT_MS);
  }
  // One more poll: a terminal status must stay as it is.
  if (ended) {
    const before = last;
    const again = seen(await outbound.status(callSid));
    check(again, { 'a terminal status stays terminal': (s) => s === before });
  }
  // Once per call, not per poll: the same check with far fewer samples.
  check(undocumented, { 'every poll answers 200 with a documented status': (n) => n === 0 });
  terminal.add(ended);
  pollsPerCall.add(polls);
}
