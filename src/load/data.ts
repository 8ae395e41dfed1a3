import { writeFileSync } from 'node:fs';
import { faker } from '@faker-js/faker/locale/en'; // the English faker alone: the main entry loads every locale
import type { DialogueSet, PlayedDialogue } from './dialogues.js';

/** What a chat virtual user says: ordinary questions, read by k6 through a SharedArray. */
export interface ChatData {
  readonly messages: string[];
  /** E.164 destinations for outbound-polling (UK +44 7700 9… numbers), made after the messages so those stay the same. */
  readonly phone_numbers: string[];
  /**
   * The profile's conversation scripts (src/load/dialogues.ts), present only when it names a file: chat-turns and
   * messaging-sockets then play these instead of `messages` (src/load/vu/dialogues.ts reads them).
   */
  readonly dialogues?: readonly PlayedDialogue[];
  /** Indices into `dialogues` in play order, each as often as its weight: iteration n plays entry n mod length. */
  readonly dialogue_schedule?: readonly number[];
}

const OPENERS = ['Hi, I have a question about', 'Can you help me with', 'I need to change', 'What is the status of', 'Could you check'];

/**
 * Makes the message texts in Node with faker, before the run: faker is never bundled into VUs.
 * The same seed gives the same texts, so two nights' runs send the same traffic.
 *
 * @example
 * writeChatData('/tmp/run/data.json', 42, 500);
 * writeChatData('/tmp/run/data.json', 42, 500, profileDialogues(loaded)); // with the profile's conversation scripts
 */
export function chatData(seed: number, count: number, dialogues?: DialogueSet): ChatData {
  faker.seed(seed);
  const messages = Array.from({ length: count }, () => {
    const opener = faker.helpers.arrayElement(OPENERS);
    const subject = faker.helpers.arrayElement([
      `my order ${faker.string.alphanumeric({ length: 8, casing: 'upper' })}`,
      `the delivery to ${faker.location.city()}`,
      `my booking on ${faker.date.soon({ days: 30 }).toDateString()}`,
      `the ${faker.commerce.productName()} I bought`,
      `my account for ${faker.internet.email()}`,
    ]);
    return `${opener} ${subject}?`;
  });
  const phone_numbers = Array.from({ length: count }, () => `+4477009${faker.string.numeric(5)}`);
  // The faker texts are made either way (same seed, same texts): the phone numbers follow them, and a scenario that
  // plays no dialogues keeps using them.
  return dialogues ? { messages, phone_numbers, dialogues: dialogues.dialogues, dialogue_schedule: dialogues.schedule } : { messages, phone_numbers };
}

export function writeChatData(path: string, seed: number, count: number, dialogues?: DialogueSet): void {
  writeFileSync(path, JSON.stringify(chatData(seed, count, dialogues)));
}
