// chat-turns: each iteration starts a chat conversation, sends several turns, says goodbye and
// closes it, on an arrival-rate executor so a slow target shows up as latency and dropped
// iterations rather than as fewer requests. When the profile names conversation scripts (`dialogues`), each
// iteration plays one of them instead: its turns in order, then the outcome it expects (end, handoff or none).
import { check, sleep } from 'k6';
import { SharedArray } from 'k6/data';
import exec from 'k6/execution';
import { Rate } from 'k6/metrics';
import type { Options } from 'k6/options';
import { ChatVu } from '../src/load/vu/chat.js';
import { loadConfig } from '../src/load/vu/config.js';
import { type DialogueData, dialogueAt, type PlayedDialogue } from '../src/load/vu/dialogues.js';
import type { StepControl } from '../src/load/vu/hold.js';
import { drawFrom } from '../src/load/vu/quantiles.js';

const cfg = loadConfig();
/** The data file, parsed at most once per VU's init (each SharedArray below reads it only on the first VU). */
let data: ({ messages: string[] } & DialogueData) | undefined;
const read = () => {
  data ??= JSON.parse(open(cfg.dataFile)) as { messages: string[] } & DialogueData;
  return data;
};
const messages = new SharedArray('messages', () => read().messages);
// The profile's conversation scripts, empty without: then every iteration says faker texts and the goodbye, as ever.
const dialogues = new SharedArray('dialogues', () => [...(read().dialogues ?? [])]);
const schedule = new SharedArray('dialogue schedule', () => [...(read().dialogue_schedule ?? [])]);

const TURNS_PER_CONVERSATION = 4;

// Per-request figures come from k6's own http_req_duration and http_reqs, tagged by op: a custom Trend or Counter per
// turn would record the same samples twice. Checks are per conversation, not per turn, for the same reason.
const completed = new Rate('chat_conversation_completed');

export const options: Options = {
  scenarios: { chat: cfg.shape },
  // The SLOs (scenarios/chat-turns.defaults.ts, with the profile's `slos`): a breach fails the run through k6's exit code (99).
  thresholds: cfg.thresholds,
  summaryTrendStats: ['avg', 'min', 'med', 'p(90)', 'p(95)', 'p(99)', 'max'],
};

// One client per VU, made on its first iteration (init code cannot read secrets lazily).
let chat: ChatVu | undefined;

const pick = () => messages[Math.floor(Math.random() * messages.length)] as string;

export default async function chatTurns(_data?: unknown, step?: StepControl): Promise<void> {
  chat ??= new ChatVu(cfg);
  // Round robin over the weighted schedule by iteration: every dialogue is played in its share even in a short run,
  // and iteration n plays the same dialogue on every run.
  const dialogue = dialogueAt(dialogues, schedule, exec.scenario.iterationInTest);
  // A dialogue's turns all go as respond messages (each answer then says whether it ends); without one, the
  // conversation opens with a faker text.
  // A learned workload's turns are all respond messages too: the model's turn counts and think times are between them.
  const learned = cfg.overrides?.learned;
  // A learned conversation outlasts a capacity step's window: each request is tagged with the phase it is sent in, so
  // the steady part judges what the target answered in it (a capacity step passes `step`; a load run does not).
  const mark = () => (learned ? step?.mark() : undefined);
  mark();
  const created = await chat.call('create', 'POST', dialogue || learned ? { channel: 'api' } : { channel: 'api', initial_message: pick() });
  const id = created.status === 200 ? (created.json('conversation_id') as string | undefined) : undefined;
  if (!check(id, { 'create answers a conversation_id': (v) => typeof v === 'string' })) {
    completed.add(false);
    return;
  }
  // Each answer is read once (one gjson lookup): 200 with a boolean end_conversation, and whether it is true. The turns
  // go one after another, each awaiting the previous answer, as a person in a conversation does.
  // A conversation the agent ends early stops there (the rest of a script would go to a conversation flagged to end).
  // A learned workload (`--workload learned`) draws how many turns, and how long the user thinks before each one.
  const count = dialogue ? dialogue.turns.length : learned ? Math.max(1, Math.round(drawFrom(learned.turns, Math.random()))) : TURNS_PER_CONVERSATION + 1;
  const say = (i: number) => (dialogue ? (dialogue.turns[i] as string) : i === count - 1 ? cfg.target.chat_script.goodbye_message : pick());
  let answered = true;
  let ended = false;
  let lastEnded = false;
  let handoff = false;
  for (let i = 0; i < count; i++) {
    const last = i === count - 1;
    if (learned && i > 0) await sleep(drawFrom(learned.thinkTimeS, Math.random()));
    mark();
    const res = await chat.call('respond', 'POST', { conversation_id: id, message: say(i) });
    const end = res.status === 200 ? res.json('end_conversation') : undefined;
    if (typeof end !== 'boolean') {
      answered = false;
      break;
    }
    ended = end;
    if (last) {
      lastEnded = end;
      // Document 1: a handoff is an object with destination and reason, both strings; read only where one is expected.
      handoff = dialogue?.expect === 'handoff' && typeof res.json('handoff.destination') === 'string' && typeof res.json('handoff.reason') === 'string';
    }
    if (ended && !last) break;
  }
  check(answered, { 'every turn answers 200 with a boolean end_conversation': (a) => a });
  const outcome = dialogue ? dialogueOutcome(dialogue, lastEnded, handoff) : check(ended, { 'goodbye flags the conversation to end': (e) => e });
  mark();
  const closed = await chat.call('close', 'PUT', { conversation_id: id });
  const ok = check(closed, { 'close answers success: true': (r) => r.status === 200 && r.json('success') === true });
  completed.add(answered && outcome && ok);
}

/** Checks what a dialogue expects of the answer to its last turn; a `none` dialogue expects nothing. */
function dialogueOutcome(dialogue: PlayedDialogue, lastEnded: boolean, handoff: boolean): boolean {
  if (dialogue.expect === 'end') return check(lastEnded, { 'the last turn of an end dialogue flags the conversation to end': (e) => e });
  if (dialogue.expect === 'handoff') {
    return check(handoff, { 'the last turn of a handoff dialogue answers a handoff with a destination and a reason': (h) => h });
  }
  return true;
}
