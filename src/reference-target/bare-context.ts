import { AdjustableClock } from './clock.js';
import type { TargetContext } from './context.js';
import { ConversationStore } from './conversations.js';
import { DefectSet } from './defects.js';
import { SeededRandom } from './ids.js';
import { LatencyPlan } from './latency.js';
import { DEFAULT_RETENTION } from './retention.js';
import { issueCredentials, REFERENCE_TENANT } from './tenancy.js';

/**
 * A context with no defect, no latency and the default retention, on a fresh adjustable clock: for listing the
 * surfaces' routes (the fuzz) and for tests of one surface's state. The running target builds its own from its options.
 *
 * @example
 * const ctx = bareContext({ seed: 5 });
 * ctx.clock.advance(60_000);
 */
export function bareContext(options: { seed?: number; voiceClientPage?: boolean } = {}): TargetContext {
  const clock = new AdjustableClock();
  const rng = new SeededRandom(options.seed ?? 1);
  return {
    clock,
    defects: new DefectSet([]),
    rng,
    tenant: REFERENCE_TENANT,
    credentials: issueCredentials(),
    conversations: new ConversationStore(clock, rng),
    chatVersions: ['v1'],
    voiceClientPage: options.voiceClientPage ?? true,
    latency: new LatencyPlan(),
    retention: DEFAULT_RETENTION,
  };
}
