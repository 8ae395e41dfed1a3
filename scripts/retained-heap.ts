// node --expose-gc --import tsx scripts/retained-heap.ts [--sessions 2000 --conversations 2000]: what the reference
// target keeps per thing it served. Starts a target in this process, drives N messaging sessions the way the soak's
// messaging-sockets does (token, session, 3 sockets, join, 4 messages, one socket dropped and reopened from its cursor,
// all closed; streaming on every other one) and N chat conversations the way chat-turns does (create, 3 responds,
// close), and prints the heap after a full GC before and after each, per item. Then it moves the target clock past the
// session expiry and the retention age and prints what is left. A measuring tool, not a test.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { ChatClient } from '../src/clients/chat.js';
import { MessagingClient } from '../src/clients/messaging.js';
import { SESSION_IDLE_EXPIRY_MS } from '../src/contract/messaging/shapes.js';
import { startTarget } from '../src/reference-target/server.js';

const { values } = parseArgs({
  options: { sessions: { type: 'string', default: '2000' }, conversations: { type: 'string', default: '2000' }, snapshot: { type: 'string' } },
});
// --snapshot DIR: heap snapshots at each measuring point, to see what the bytes are (Chrome DevTools opens them).
const snapshot = (name: string) => values.snapshot && writeHeapSnapshot(join(values.snapshot, `${name}.heapsnapshot`));
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('retained-heap: run with node --expose-gc --import tsx scripts/retained-heap.ts');
  process.exit(2);
}
const heapMb = () => {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};
const external = () => process.memoryUsage().arrayBuffers / 2 ** 20;

const RETENTION = { maxCount: 1_000_000, maxAgeMs: 24 * 3_600_000 };
const target = await startTarget({ retention: RETENTION });
/** `n` calls of `one`, `width` at a time. */
const pool = async (n: number, width: number, one: (i: number, worker: number) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async (_, worker) => {
      while (next < n) await one(next++, worker);
    }),
  );
};
/** An access token per worker, as the scenario's VUs keep theirs: the target allows 1000 requests a minute per token. */
const tokens = new Map<number, { accessToken: string; expiresIn: number }>();

const say = (i: number) => `I ordered item ${i} last week and it still has not arrived, can you check where it is?`;
async function session(i: number, worker: number): Promise<void> {
  const m = new MessagingClient(target.loaded);
  const token = tokens.get(worker) ?? (await m.token());
  tokens.set(worker, token);
  const h = { ...token, sessionId: await m.session(token.accessToken, { streaming_enabled: i % 2 === 0 }) };
  const sockets = await Promise.all([m.open(h), m.open(h), m.open(h)]);
  const [keeper, asker, dropped] = sockets as [NonNullable<(typeof sockets)[0]>, NonNullable<(typeof sockets)[0]>, NonNullable<(typeof sockets)[0]>];
  await asker.waitFor((e) => e.type === 'EVENT_TYPE_EVENT_BATCH', { what: 'batch' });
  asker.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN', {});
  await keeper.waitFor((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED', { what: 'join' });
  const turn = async (n: number) => {
    const from = keeper.events.length;
    const id = `s${i}-m${n}`;
    asker.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: say(i), client_message_id: id }, { tag: id });
    await keeper.waitFor((e) => e.type === 'EVENT_TYPE_TYPING_INDICATOR' && (e.payload as { is_typing?: boolean }).is_typing === false, {
      what: 'reply',
      from,
    });
  };
  await turn(0);
  await turn(1);
  await dropped.close();
  const cursor = `seq:${dropped.events.length - 1}`;
  await turn(2);
  const back = await m.open(h, cursor);
  await back.waitFor((e) => e.type === 'EVENT_TYPE_EVENT_BATCH', { what: 'replay' });
  await turn(3);
  await m.closeAll();
}

async function conversation(i: number): Promise<void> {
  const chat = new ChatClient(target.loaded);
  const id = (await chat.create({ channel: 'api', initial_message: say(i) })).json?.conversation_id as string;
  for (let n = 0; n < 3; n++) await chat.respond({ conversation_id: id, message: say(i + n) });
  await chat.close({ conversation_id: id });
}

/** Moves the target clock past the session expiry and the retention age, then makes each store sweep. */
async function forgetAll(): Promise<void> {
  target.context.clock.advance(Math.max(SESSION_IDLE_EXPIRY_MS, RETENTION.maxAgeMs));
  await conversation(0);
  // The session store sweeps every 256 sessions it makes: 256 empty ones make it sweep once.
  const m = new MessagingClient(target.loaded);
  const { accessToken } = await m.token();
  for (let i = 0; i < 256; i++) await m.session(accessToken);
  tokens.clear();
}

const nSessions = Number(values.sessions);
const nConversations = Number(values.conversations);
// A warm-up round first, let go again: the first sessions and conversations load modules and compile code (faker's
// locales, zod's checks) that are no part of what an item keeps.
await pool(200, 16, session);
await pool(200, 16, conversation);
await forgetAll();
const base = heapMb();
snapshot('base');
console.log(`heap after start ${base.toFixed(1)} MB (array buffers ${external().toFixed(1)} MB)`);
await pool(nSessions, 16, session);
await new Promise((r) => setTimeout(r, 500));
const afterSessions = heapMb();
snapshot('sessions');
console.log(
  `${nSessions} messaging sessions, closed, kept for their idle expiry: heap +${(afterSessions - base).toFixed(1)} MB, ` +
    `${(((afterSessions - base) * 2 ** 20) / nSessions / 1024).toFixed(2)} KB each (array buffers ${external().toFixed(1)} MB)`,
);
await pool(nConversations, 16, conversation);
const afterChat = heapMb();
console.log(
  `${nConversations} chat conversations, closed, kept within the retention: heap +${(afterChat - afterSessions).toFixed(1)} MB, ` +
    `${(((afterChat - afterSessions) * 2 ** 20) / nConversations / 1024).toFixed(2)} KB each`,
);
await forgetAll();
const afterExpiry = heapMb();
snapshot('expired');
console.log(`after the expiry and one more sweep: heap +${(afterExpiry - base).toFixed(1)} MB over the start`);
await target.close();
