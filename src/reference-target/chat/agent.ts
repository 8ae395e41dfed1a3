import type { Handoff } from '../../contract/chat/shapes.js';

/** What the scripted agent says for one user turn. */
export interface AgentTurn {
  readonly response: string;
  readonly endConversation: boolean;
  readonly handoff?: Handoff;
  /** An intent label, kept on the turn for conversation records. */
  readonly intent: string;
}

interface Intent {
  readonly name: string;
  readonly matches: (message: string) => boolean;
  readonly reply: (message: string) => Omit<AgentTurn, 'intent'>;
}

/**
 * The reference target's deterministic agent, a lookup table of intents tried in order:
 * asking for a person hands off (and flags the end), saying goodbye ends, silence is re-asked,
 * anything else is acknowledged.
 */
const INTENTS: readonly Intent[] = [
  {
    name: 'handoff',
    matches: (m) => /\b(person|human|someone real|representative|operator|live agent)\b/i.test(m),
    reply: () => ({
      response: 'Of course. Let me put you through to a colleague now.',
      endConversation: true,
      handoff: { destination: 'live-agent-queue', reason: 'caller_requested_human' },
    }),
  },
  {
    name: 'goodbye',
    matches: (m) => /\b(goodbye|bye)\b/i.test(m),
    reply: () => ({ response: 'Thanks for getting in touch. Goodbye!', endConversation: true }),
  },
  {
    name: 'silence',
    matches: (m) => m.trim() === '',
    reply: () => ({ response: "Sorry, I didn't catch that. Could you say it again?", endConversation: false }),
  },
  {
    name: 'acknowledge',
    matches: () => true,
    reply: (m) => ({ response: `I can help with that. You said: "${m.slice(0, 200)}"`, endConversation: false }),
  },
];

/** The agent's first message on a new conversation. */
export const GREETING = 'Hello, you are through to the dialtone reference agent. How can I help you today?';

/**
 * Answers one user message.
 *
 * @example
 * agentTurn('Can I speak to a person?').handoff // { destination: 'live-agent-queue', reason: 'caller_requested_human' }
 */
export function agentTurn(message: string | undefined): AgentTurn {
  const text = message ?? '';
  const intent = INTENTS.find((i) => i.matches(text)) as Intent;
  return { intent: intent.name, ...intent.reply(text) };
}
