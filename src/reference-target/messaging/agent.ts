/** One scripted answer: who says it and what. */
interface Intent {
  readonly matches: (text: string) => boolean;
  readonly reply: (text: string) => string;
}

/** The messaging agent's intents, tried in order (a lookup table rather than an if-chain). */
const INTENTS: readonly Intent[] = [
  { matches: (t) => /\b(hi|hello|hey)\b/i.test(t), reply: () => 'Hello! You are chatting with the dialtone reference agent. How can I help?' },
  { matches: (t) => /\b(bye|goodbye)\b/i.test(t), reply: () => 'Thanks for chatting with us. Goodbye!' },
  { matches: () => true, reply: (t) => `Thanks for your message. You wrote: "${t.slice(0, 200)}". Is there anything else I can help with?` },
];

/**
 * The reference agent's answer to one user message.
 *
 * @example
 * agentReply('hello there') // 'Hello! You are chatting with …'
 */
export function agentReply(text: string): string {
  return (INTENTS.find((i) => i.matches(text)) as Intent).reply(text);
}

/** What the live (human) agent says back; the reference target scripts the human too. */
export function liveAgentReply(text: string): string {
  return `I have read your message ("${text.slice(0, 120)}") and I am looking into it now.`;
}

/** The live agent's display name. */
export const LIVE_AGENT_NAME = 'Robin (live agent)';

/**
 * Splits a response into incremental chunks of a few words each (at least two for any response of two words or
 * more); joining the chunks gives the response back exactly.
 *
 * @example
 * chunkText('one two three four five', 2) // ['one two ', 'three four ', 'five']
 */
export function chunkText(text: string, wordsPerChunk = 3): string[] {
  const words = text.match(/\S+\s*/g) ?? [text];
  const lead = text.match(/^\s*/)?.[0] ?? '';
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerChunk) chunks.push(words.slice(i, i + wordsPerChunk).join(''));
  if (chunks.length > 0) chunks[0] = lead + chunks[0];
  return chunks.length > 0 ? chunks : [text];
}
