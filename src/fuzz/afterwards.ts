import { ChatClient } from '../clients/chat.js';
import { MessagingClient } from '../clients/messaging.js';
import { VoiceClient } from '../clients/voice.js';
import type { LoadedProfile } from '../profile/load.js';

type Check = (loaded: LoadedProfile) => Promise<string | undefined>;

/** create, a turn, goodbye (flags the end), close (success). */
const chatConversation: Check = async (loaded) => {
  const chat = new ChatClient(loaded, []);
  const created = await chat.create({ channel: 'webchat' } as never);
  const id = created.json?.conversation_id;
  if (created.status !== 200 || !id) return `chat create answered ${created.status}`;
  const turn = await chat.respond({ conversation_id: id, message: 'What are your opening hours?' });
  if (turn.status !== 200) return `chat respond answered ${turn.status}`;
  const bye = await chat.respond({ conversation_id: id, message: loaded.profile.chat_script?.goodbye_message ?? 'Goodbye' });
  if (bye.json?.end_conversation !== true) return `goodbye did not end the conversation (${bye.status})`;
  const closed = await chat.close({ conversation_id: id });
  return closed.json?.success === true ? undefined : `chat close answered ${closed.status} ${closed.text?.slice(0, 100)}`;
};

/** token, session, socket with its history batch, join, a message answered by the agent. */
const messagingSession: Check = async (loaded) => {
  const m = new MessagingClient(loaded, []);
  try {
    const socket = await m.open(await m.handshake());
    await socket.waitFor((e) => e.type === 'EVENT_TYPE_EVENT_BATCH', { what: 'the history batch' });
    socket.sendEvent('EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN');
    await socket.waitFor((e) => e.type === 'EVENT_TYPE_SERVICE_AGENT_JOINED', { what: 'the agent joining' });
    socket.sendEvent('EVENT_TYPE_USER_MESSAGE', { text: 'Hello there', client_message_id: 'fuzz-after-1' });
    await socket.waitFor((e) => e.type === 'EVENT_TYPE_AGENT_MESSAGE' || e.type === 'EVENT_TYPE_AGENT_MESSAGE_CHUNK', { what: 'the agent reply' });
    return undefined;
  } catch (e) {
    return `messaging: ${(e as Error).message}`;
  } finally {
    await m.closeAll();
  }
};

/** An echo call that connects and sends audio back. */
const voiceCall: Check = async (loaded) => {
  const voice = new VoiceClient(loaded, []);
  try {
    const call = await voice.call({ offer: { mode: 'echo' }, source: { hz: 440, amplitude: 0.25 } });
    if (!call.answer) return `the call was not answered: ${JSON.stringify(call.error?.data)}`;
    await call.connected();
    call.startSending();
    await call.packets(10);
    return undefined;
  } catch (e) {
    return `voice: ${(e as Error).message}`;
  } finally {
    await voice.closeAll();
  }
};

/**
 * After the fuzz, the target must still serve a normal client on each live surface. Resolves to the problems found.
 *
 * @example
 * const problems = await checkAfterwards(loaded); // [] when chat, messaging and voice all work
 */
export async function checkAfterwards(loaded: LoadedProfile): Promise<string[]> {
  const out: string[] = [];
  for (const check of [chatConversation, messagingSession, voiceCall]) {
    const problem = await check(loaded).catch((e: Error) => e.message);
    if (problem) out.push(problem);
  }
  return out;
}
