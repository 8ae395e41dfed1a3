import { describe, expect, it } from 'vitest';
import { AdjustableClock } from '../clock.js';
import { ConversationStore } from '../conversations.js';
import { SeededRandom } from '../ids.js';
import { REFERENCE_TENANT } from '../tenancy.js';
import { conversationSamples } from './shared-state.js';

describe('conversationSamples', () => {
  it('turns each stored chat turn into a latency sample of the reference account and project', () => {
    const clock = new AdjustableClock();
    const conversations = new ConversationStore(clock, new SeededRandom(1));
    const c = conversations.create({ source: 'chat', channel: 'api', variantId: undefined, integrationAttributes: undefined });
    c.turns.push({ userInput: 'hi', userAt: 1_000, agentResponse: 'hello', agentAt: 1_250, intent: 'acknowledge' });
    const samples = [...conversationSamples({ tenant: REFERENCE_TENANT, conversations })];
    expect(samples).toEqual([
      {
        accountId: REFERENCE_TENANT.accountId,
        projectIds: [REFERENCE_TENANT.projectId, REFERENCE_TENANT.projectSlug],
        at: 1_250,
        kind: 'turn',
        latencyMs: 250,
      },
    ]);
  });
});
