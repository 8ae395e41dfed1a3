import { ChatCreateResponse, ChatRespondResponse } from '../../src/contract/chat/shapes.js';
import { type CaseApi, rule } from '../../src/suite/case.js';
import { type LoosePage, marker, ownRecords, page, windows } from './records.js';

/** What one chat conversation sent and was answered, in order: the turns a record of it must show. */
interface Held {
  readonly id: string;
  readonly variant: string;
  readonly turns: { readonly user: string; readonly agent: string }[];
  readonly handoff?: { readonly destination: string; readonly reason: string };
}

/** Holds a chat conversation: create with a variant and a first message, a respond, a silent respond, then a request for a person. */
async function holdConversation(api: CaseApi): Promise<Held> {
  const { t, check } = api;
  // A variant other than the default, where the profile names one: a record that ignored it would show the default.
  const variant = t.profile.variant_id_alt ?? t.profile.variant_id ?? 'VARIANT-main';
  const first = `I want to check my booking ${marker()}`;
  const created = check.schema(
    await t.chat.create({ variant_id: variant, channel: 'webchat', initial_message: first }),
    ChatCreateResponse,
    'the create response',
  );
  // The create's response is the greeting followed by the reply to the first message; the record keeps the reply's turn.
  const turns: Held['turns'][number][] = [{ user: first, agent: created.response }];
  let handoff: Held['handoff'];
  for (const message of [`And my seat too ${marker()}`, '', 'Can I speak to a person please?']) {
    const res = check.schema(await t.chat.respond({ conversation_id: created.conversation_id, message }), ChatRespondResponse, 'the respond response');
    turns.push({ user: message, agent: res.response });
    if (res.handoff) handoff = res.handoff;
  }
  return { id: created.conversation_id, variant, turns, ...(handoff ? { handoff } : {}) };
}

/** The record of `id`, as the v3 list shows it. */
async function recordOf(api: CaseApi, id: string): Promise<Record<string, unknown>> {
  const record = (await ownRecords(api, [id])).get(id);
  api.check.that(record !== undefined, 'the conversation is listed as a record', 'not found in the recent window');
  return record as Record<string, unknown>;
}

const turnsOf = (r: Record<string, unknown>) => (Array.isArray(r.turns) ? (r.turns as Record<string, unknown>[]) : []);

rule('conversations.record.shows-what-chat-sent', 'shows the variant, each message and reply, and the handoff a chat conversation had', async (api) => {
  const { check, observe } = api;
  const held = await holdConversation(api);
  const record = await recordOf(api, held.id);
  check.equal(record.variant_id, held.variant, 'variant_id is the one create gave');
  const turns = turnsOf(record);
  check.equal(
    turns.map((tn) => tn.user_input),
    held.turns.map((tn) => tn.user),
    "the turns' user_input are the initial message and each respond's message, in order",
  );
  const replies = turns.map((tn) => tn.agent_response);
  check.equal(
    replies.slice(1),
    held.turns.slice(1).map((tn) => tn.agent),
    "the turns' agent_response are respond's replies",
  );
  check.that(
    typeof replies[0] === 'string' && held.turns[0]?.agent.endsWith(replies[0]) === true,
    "the first turn's agent_response is the reply create gave to the initial message",
    { record: replies[0], create: held.turns[0]?.agent },
  );
  check.that(held.handoff !== undefined, 'respond handed the conversation off when asked for a person', 'no handoff');
  check.equal(
    { handoff: record.handoff, destination: record.handoff_destination, reason: record.handoff_reason },
    { handoff: true, destination: held.handoff?.destination, reason: held.handoff?.reason },
    'handoff, handoff_destination and handoff_reason are what respond answered',
  );
  observe('channel sent webchat, recorded as', record.channel);
  observe('integration_attributes', 'not sent: where a record shows them (state) is not shown');
});

rule('conversations.record.counts-agree', 'gives num_silences and num_ood equal to the turns marked is_silence and is_ood', async (api) => {
  const { check } = api;
  const held = await holdConversation(api);
  const own = await recordOf(api, held.id);
  const seeded = (await page(api, { ...windows(api.t).day, client_env: 'live', limit: 500 })) as LoosePage;
  const records = [own, ...(seeded.conversations as Record<string, unknown>[])].filter((r) => turnsOf(r).length > 0);
  const count = (r: Record<string, unknown>, flag: string) => turnsOf(r).filter((tn) => tn[flag] === true).length;
  const wrong = records
    .filter((r) => r.num_silences !== count(r, 'is_silence') || r.num_ood !== count(r, 'is_ood'))
    .map((r) => ({ id: r.id, num_silences: r.num_silences, silent: count(r, 'is_silence'), num_ood: r.num_ood, ood: count(r, 'is_ood') }));
  check.that(
    count(own, 'is_silence') > 0,
    "the case's own conversation has its silent turn marked is_silence",
    turnsOf(own).map((tn) => tn.is_silence),
  );
  check.that(wrong.length === 0, 'num_silences and num_ood count the marked turns', wrong.slice(0, 3));
});
