import { writeFileSync } from 'node:fs';
import { faker } from '@faker-js/faker';

/** What a chat virtual user says: ordinary questions, read by k6 through a SharedArray. */
export interface ChatData {
  readonly messages: string[];
  /** E.164 destinations for outbound-polling (UK +44 7700 9… numbers), made after the messages so those stay the same. */
  readonly phone_numbers: string[];
}

const OPENERS = ['Hi, I have a question about', 'Can you help me with', 'I need to change', 'What is the status of', 'Could you check'];

/**
 * Makes the message texts in Node with faker, before the run: faker is never bundled into VUs.
 * The same seed gives the same texts, so two nights' runs send the same traffic.
 *
 * @example
 * writeChatData('/tmp/run/data.json', 42, 500);
 */
export function chatData(seed: number, count: number): ChatData {
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
  return { messages, phone_numbers };
}

export function writeChatData(path: string, seed: number, count: number): void {
  writeFileSync(path, JSON.stringify(chatData(seed, count)));
}
