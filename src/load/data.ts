import { writeFileSync } from 'node:fs';
import { faker } from '@faker-js/faker';

/** What a chat virtual user says: ordinary questions, read by k6 through a SharedArray. */
export interface ChatData {
  readonly messages: string[];
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
  return { messages };
}

export function writeChatData(path: string, seed: number, count: number): void {
  writeFileSync(path, JSON.stringify(chatData(seed, count)));
}
