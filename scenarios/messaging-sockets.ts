// messaging-sockets: each iteration is one Messaging API session driven the way document 1 describes it. The VU's
// access token (one per VU, reused until shortly before it expires), a new session (streaming on in every other
// iteration, off in the rest), sockets up to the 10-connection cap, each waiting for its history batch, then one
// more socket, which must be refused with 429. Then the join request, messages (first chunk and full reply timed),
// and one socket dropped and reopened with its cursor while the session goes on. Every socket, the reopened one
// included, must end up with exactly the events of the one that never closed, none lost and none twice.
//
// Rate limits: the scenario stays under the documented ones rather than raising them on the reference target. One
// access token per VU keeps token requests at the number of VUs (the reference allows 1000 per minute per
// connector); sessions per token and messages per session stay far below theirs. So the same script runs unchanged
// against a real environment, which has no control surface, and a 429 on the token or the session is a real finding.
//
// k6/websockets cannot drop a TCP connection without a close frame, so "drop" is a clean close (1000); the document
// ends a session on neither. Each iteration is a bounded sequence: every wait has its own timeout, a deadline closes
// whatever is still open, and the iteration ends once all its sockets are closed.
//
// Conversation scripts: when the profile names `dialogues`, a session's user messages are its dialogue's turns in
// order (again from the first when the session needs more) instead of faker texts. Only the turns that leave the
// agent talking: the closing turn of an `end` or `handoff` dialogue is left out, since every message here must get the
// virtual agent's full reply (a platform may end the session or pass it to a person on those phrases).
import { check } from 'k6';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { Options } from 'k6/options';
import { clearTimeout, setTimeout } from 'k6/timers';
import { MAX_SOCKETS_PER_SESSION } from '../src/contract/messaging/wire.js';
import { loadConfig } from '../src/load/vu/config.js';
import { type DialogueData, dialogueAt, openingTurns } from '../src/load/vu/dialogues.js';
import type { HoldControl } from '../src/load/vu/hold.js';
import { answers, compareHistory, EventSocket, MessagingVu, until, type WireEvent } from '../src/load/vu/messaging.js';
import { sleep } from '../src/load/vu/wait.js';

const cfg = loadConfig();
/** The data file, parsed at most once per VU's init (each SharedArray below reads it only on the first VU). */
let data: ({ messages: string[] } & DialogueData) | undefined;
const read = () => {
  data ??= JSON.parse(open(cfg.dataFile)) as { messages: string[] } & DialogueData;
  return data;
};
const texts = new SharedArray('messages', () => read().messages);
// The profile's conversation scripts, empty without: then every message is a faker text, as ever.
const dialogues = new SharedArray('dialogues', () => [...(read().dialogues ?? [])]);
const schedule = new SharedArray('dialogue schedule', () => [...(read().dialogue_schedule ?? [])]);
/** The user-message event type as the platform spells it (the document does not name it; the profile's names may). */
const USER_MESSAGE = cfg.target.names?.messaging_events.user_message ?? 'EVENT_TYPE_USER_MESSAGE';

/** User messages before the drop; one more goes while a socket is away and one after it is back. */
const MESSAGES_BEFORE_DROP = 2;
/** Bound of each wait on the target (open, batch, join, reply, close), at least. */
const WAIT_MS = 5_000;
/**
 * How long the scenario waits for what an SLO times before it gives up: twice what the SLO allows at its percentile, and
 * at least WAIT_MS. A slower platform's SLOs (the profile's `slos`) so give its agent the time they grant it; a sample
 * past the percentile is the SLO's to judge, not a wait's to cut off.
 */
const waitFor = (key: string) => Math.max(WAIT_MS, 2 * (cfg.sloBoundsMs[key] ?? 0));
const REPLY_WAIT_MS = waitFor('messaging_time_to_full_reply');
const JOIN_WAIT_MS = waitFor('messaging_time_to_agent_joined');
const BATCH_WAIT_MS = waitFor('messaging_time_to_history_batch');
const REPLAY_WAIT_MS = waitFor('messaging_reconnect_replay_time');
/** Bound of one whole iteration: past it, every socket is closed and the iteration fails. Twice the SLOs' iteration time. */
const ITERATION_MS = Math.max(30_000, 2 * (cfg.iterationBoundMs ?? 0));
/** Attempts to reopen the dropped socket: the target may free its slot a moment after the close. */
const REOPEN_ATTEMPTS = 3;

const timeToHistoryBatch = new Trend('messaging_time_to_history_batch', true);
const timeToAgentJoined = new Trend('messaging_time_to_agent_joined', true);
const timeToFirstChunk = new Trend('messaging_time_to_first_chunk', true);
const timeToFullReply = new Trend('messaging_time_to_full_reply', true);
const reconnectReplay = new Trend('messaging_reconnect_replay_time', true);
const eventsLost = new Counter('messaging_events_lost');
const eventsDuplicated = new Counter('messaging_events_duplicated');
/** The socket past the cap: true when it was refused at the handshake. Expected, so never an error. */
const overCapRefused = new Rate('messaging_socket_over_cap_refused');
/** Sockets that should have opened (up to the cap, and the reopened one): true when one failed instead. */
const socketFailed = new Rate('messaging_socket_failed');
const socketsOpened = new Counter('messaging_sockets_opened');
const messages = new Counter('messaging_messages');
const eventsReceived = new Counter('messaging_events_received');
const completed = new Rate('messaging_session_completed');

export const options: Options = {
  scenarios: { messaging: cfg.shape },
  // The SLOs (scenarios/messaging-sockets.defaults.ts, with the profile's `slos`): a breach fails the run through k6's exit code (99).
  thresholds: cfg.thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

// One HTTP client per VU, made on its first iteration (init code cannot read secrets lazily); it keeps the token.
let vu: MessagingVu | undefined;

const pick = () => texts[Math.floor(Math.random() * texts.length)] as string;

/** Set once a VU found that no dialogue has a turn that leaves the agent talking: faker texts from then on. */
let noOpeningTurns = false;

/**
 * The user messages of session `n`: the opening turns of its dialogue in the weighted schedule (round robin, passing
 * over a dialogue that has none), or undefined without dialogues (faker texts).
 */
function sessionTurns(n: number): readonly string[] | undefined {
  if (noOpeningTurns) return undefined;
  for (let k = 0; k < schedule.length; k++) {
    const d = dialogueAt(dialogues, schedule, n + k);
    const turns = d ? openingTurns(d) : [];
    if (turns.length > 0) return turns;
  }
  noOpeningTurns = true;
  return undefined;
}

/**
 * One user message on `socket`: times the first chunk (streaming) and the full reply, and checks the reply's form.
 * True when the full reply came.
 */
async function turn(socket: EventSocket, streaming: boolean, n: number, text: string): Promise<boolean> {
  const from = socket.events.length;
  const id = `vu${exec.vu.idInTest}-it${exec.vu.iterationInScenario}-m${n}`;
  const sentAt = Date.now();
  if (!socket.send(USER_MESSAGE, { text, client_message_id: id }, id)) return false;
  // Only this message's answers: the previous one's last events may still be on their way to this socket.
  const isChunk = (e: WireEvent) => e.type === 'EVENT_TYPE_AGENT_MESSAGE_CHUNK';
  const isReply = (e: WireEvent) => e.type === 'EVENT_TYPE_AGENT_MESSAGE' || (isChunk(e) && e.payload.final === true);
  const isError = (e: WireEvent) => e.type === 'EVENT_TYPE_SYSTEM_MESSAGE';
  const end = await socket.next((e) => answers(e, id) && (isReply(e) || isError(e)), REPLY_WAIT_MS, from);
  const tag = { streaming: streaming ? 'on' : 'off' };
  const reply = end && isReply(end) ? end : undefined;
  const after = socket.events.slice(from).filter((e) => answers(e, id));
  if (reply) {
    timeToFullReply.add(reply.at - sentAt, tag);
    messages.add(1);
  }
  const chunks = after.filter((e) => isChunk(e) && e.payload.message_id === reply?.payload.message_id);
  const first = chunks[0];
  if (streaming && first) timeToFirstChunk.add(first.at - sentAt, tag);
  return check(reply, {
    'every message gets a full reply': (r) => r !== undefined && typeof r.payload.message_id === 'string',
    'streaming on: chunks 0..n in order, the last final; off: one complete message': () =>
      streaming
        ? chunks.length > 0 && chunks.every((c, i) => c.payload.index === i && c.payload.final === (i === chunks.length - 1))
        : reply?.type === 'EVENT_TYPE_AGENT_MESSAGE' && after.every((e) => !isChunk(e)),
  });
}

/** Reopens a session's socket from `cursor`; retries while the target still counts the old one against the cap. */
async function reopen(m: MessagingVu, token: string, sessionId: string, cursor: number): Promise<EventSocket | undefined> {
  for (let attempt = 1; attempt <= REOPEN_ATTEMPTS; attempt++) {
    const socket = new EventSocket(m.socketUrl(token, sessionId, cursor), 'messaging.ws.reopen');
    const at = await socket.batch(REPLAY_WAIT_MS);
    if (at !== undefined) {
      reconnectReplay.add(at - socket.startedAt);
      return socket;
    }
    if (socket.state !== 'refused') {
      await socket.close(WAIT_MS);
      return undefined;
    }
    if (attempt < REOPEN_ATTEMPTS) await sleep(100 * attempt);
  }
  return undefined;
}

/** The iteration's steps; false as soon as one fails (its check says which). */
async function converse(m: MessagingVu, streaming: boolean, sockets: EventSocket[], say: (n: number) => string): Promise<boolean> {
  const token = await m.accessToken();
  if (!check(token, { 'access token answers 200 with a token': (t) => typeof t === 'string' })) return false;
  const sessionId = await m.session(token as string, streaming);
  if (!check(sessionId, { 'session answers a session_id': (s) => typeof s === 'string' })) return false;
  const url = m.socketUrl(token as string, sessionId as string);

  // Up to the cap, all at once; each waits for its history batch (empty on a new session).
  const full = Array.from({ length: MAX_SOCKETS_PER_SESSION }, () => new EventSocket(url, 'messaging.ws'));
  sockets.push(...full);
  const batches = await Promise.all(full.map((s) => s.batch(BATCH_WAIT_MS)));
  for (const s of full) {
    socketFailed.add(s.batchAt === undefined);
    if (s.batchAt === undefined) continue;
    socketsOpened.add(1);
    timeToHistoryBatch.add(s.batchAt - s.startedAt);
  }
  if (!check(batches, { 'every socket up to the cap opens and gets its history batch': (b) => b.every((at) => at !== undefined) })) return false;

  // One more: refused at the handshake (an error event, no open). Expected, so counted apart from failures.
  const extra = new EventSocket(url, 'messaging.ws.over_cap');
  sockets.push(extra);
  const opened = await extra.opened(WAIT_MS);
  overCapRefused.add(extra.state === 'refused');
  check(extra, { 'the socket past the cap is refused at the handshake': (s) => opened === false && s.state === 'refused' });

  // The keeper never sends, so it holds only what the session broadcast: the view every other socket must match.
  const [keeper, asker] = full as [EventSocket, EventSocket];
  check(full, {
    'a new session replays an empty history and the agent waits for the join request': (all) =>
      all.every((s) => s.batchSize === 0 && s.events.every((e) => e.type !== 'EVENT_TYPE_SERVICE_AGENT_JOINED')),
  });
  // The join, once every socket has its batch; all sockets hear it, the asking one is timed.
  const joinFrom = asker.events.length;
  const joinAt = Date.now();
  asker.send('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {}, 'join');
  const joined = await asker.next((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED' && answers(e, 'join'), JOIN_WAIT_MS, joinFrom);
  if (joined) timeToAgentJoined.add(joined.at - joinAt);
  if (!check(joined, { 'the agent joins after the join request': (j) => j !== undefined })) return false;

  let n = 0;
  for (; n < MESSAGES_BEFORE_DROP; n++) if (!(await turn(full[1 + (n % (full.length - 2))] as EventSocket, streaming, n, say(n)))) return false;

  // Drop the last socket, go on without it, then reopen it from what it had seen.
  const dropped = full[full.length - 1] as EventSocket;
  const cursor = dropped.history.length;
  if (!check(await dropped.close(WAIT_MS), { 'a socket closes when asked': (c) => c })) return false;
  if (!(await turn(asker, streaming, n, say(n)))) return false;
  n++;
  const back = await reopen(m, token as string, sessionId as string, cursor);
  if (back) sockets.push(back);
  socketFailed.add(back === undefined);
  if (!check(back, { 'the socket reopens with its cursor and gets a batch': (b) => b !== undefined })) return false;
  if (back) socketsOpened.add(1);
  if (!(await turn(back as EventSocket, streaming, n, say(n)))) return false;

  // Every socket's view of the history against the keeper's; the dropped one's is what it saw, then what it got back.
  const views = () => full.map((s) => (s === dropped ? [...dropped.history, ...(back as EventSocket).history] : s.history));
  // Settled when every view matches the keeper's; a view with a loss or a repeat never settles, so it is judged after
  // the whole second, when nothing of the last message can still be on its way.
  await until(
    () =>
      views().every((v) => {
        const d = compareHistory(keeper.history, v);
        return d.inOrder && d.duplicated === 0;
      }),
    1_000,
  );
  let lost = 0;
  let duplicated = 0;
  let inOrder = true;
  for (const view of views()) {
    const d = compareHistory(keeper.history, view);
    lost += d.lost;
    duplicated += d.duplicated;
    inOrder &&= d.inOrder;
  }
  eventsLost.add(lost);
  eventsDuplicated.add(duplicated);
  return check(null, {
    'no socket, the reopened one included, lost an event or got one twice': () => lost === 0 && duplicated === 0,
    'every socket saw the same events in the same order': () => inOrder,
  });
}

export default async function messagingSockets(): Promise<void> {
  vu ??= new MessagingVu(cfg);
  // Zero samples first, so the zero thresholds are judged on every run, even one that never got as far as the check.
  eventsLost.add(0);
  eventsDuplicated.add(0);
  const streaming = exec.scenario.iterationInTest % 2 === 0;
  // Session n plays dialogue n / 2 of the schedule: each dialogue once with streaming on and once with it off.
  const script = sessionTurns(Math.floor(exec.scenario.iterationInTest / 2));
  const say = (n: number) => (script ? (script[n % script.length] as string) : pick());
  const sockets: EventSocket[] = [];
  // Past the deadline, close what is open: the waits then end at once and the iteration finishes.
  const deadline = setTimeout(() => {
    for (const s of sockets) void s.close(WAIT_MS);
  }, ITERATION_MS);
  let ok = false;
  try {
    ok = await converse(vu, streaming, sockets, say);
  } finally {
    clearTimeout(deadline);
    await Promise.all(sockets.map((s) => s.close(WAIT_MS)));
    for (const s of sockets) eventsReceived.add(s.events.length);
    completed.add(ok);
  }
}

/**
 * The closed model of a capacity step (`dialtone capacity messaging-sockets --model closed`): one session held for the
 * whole step, its sockets up to the cap open, and each socket sending `ctl.messageRate` user messages a second, in turn
 * and on schedule (a slow reply never delays the next message), every full reply timed. The setup (token, session,
 * sockets, join) falls in the step's warm-up. Streaming is off: the figure is messages answered, not chunks.
 */
export async function hold(ctl: HoldControl): Promise<void> {
  vu ??= new MessagingVu(cfg);
  ctl.mark();
  const sockets: EventSocket[] = [];
  try {
    const token = await vu.accessToken();
    if (!check(token, { 'access token answers 200 with a token': (t) => typeof t === 'string' })) return;
    const sessionId = await vu.session(token as string, false);
    if (!check(sessionId, { 'session answers a session_id': (s) => typeof s === 'string' })) return;
    const url = vu.socketUrl(token as string, sessionId as string);
    const full = Array.from({ length: MAX_SOCKETS_PER_SESSION }, () => new EventSocket(url, 'messaging.ws'));
    sockets.push(...full);
    const batches = await Promise.all(full.map((s) => s.batch(BATCH_WAIT_MS)));
    for (const s of full) socketFailed.add(s.batchAt === undefined);
    if (!check(batches, { 'every socket up to the cap opens and gets its history batch': (b) => b.every((at) => at !== undefined) })) return;
    const asker = full[0] as EventSocket;
    asker.send('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {}, 'join');
    const joined = await asker.next((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED' && answers(e, 'join'), JOIN_WAIT_MS);
    if (!check(joined, { 'the agent joins after the join request': (j) => j !== undefined })) return;
    // One message every gap, the sockets in turn: each socket sends messageRate a second.
    const gapMs = 1000 / (ctl.messageRate * full.length);
    const started = Date.now();
    const replies: Promise<boolean>[] = [];
    for (let n = 0; ; n++) {
      const wait = started + n * gapMs - Date.now();
      if (wait > 0) await sleep(Math.min(wait, ctl.remainingMs()));
      if (ctl.remainingMs() <= 0) break;
      ctl.mark();
      replies.push(turn(full[n % full.length] as EventSocket, false, n, pick()));
    }
    // The step is over: replies still on their way count in its tail, not its steady part.
    ctl.mark();
    await Promise.all(replies);
  } finally {
    await Promise.all(sockets.map((s) => s.close(WAIT_MS)));
  }
}
