import type { AdjustableClock } from './clock.js';
import type { ConversationStore } from './conversations.js';
import type { DefectSet } from './defects.js';
import type { SeededRandom } from './ids.js';
import type { LatencyPlan } from './latency.js';
import type { TrafficShape } from './records/traffic-seed.js';
import type { Retention } from './retention.js';
import type { IssuedCredentials, Tenant } from './tenancy.js';

/** Everything a surface module of the reference target needs, passed in rather than imported. */
export interface TargetContext {
  readonly clock: AdjustableClock;
  readonly defects: DefectSet;
  readonly rng: SeededRandom;
  readonly tenant: Tenant;
  readonly credentials: IssuedCredentials;
  readonly conversations: ConversationStore;
  /** API versions accepted in the chat `{version}` segment. */
  readonly chatVersions: readonly string[];
  /** Whether the gateway host serves the browser voice client page (a sandbox convenience, not a documented path). */
  readonly voiceClientPage: boolean;
  /** How long each op takes (`dialtone target --latency`); an empty plan: as fast as the target can. */
  readonly latency: LatencyPlan;
  /** How many finished items each store keeps, and how long (`dialtone target --retain`, `--retain-age`). */
  readonly retention: Retention;
  /**
   * Seeded traffic of known distributions in place of the reference history (`dialtone target --traffic-seed`): its
   * seed, where its window ends and how many days it covers (`--traffic-days`).
   */
  readonly traffic?: ({ readonly seed: number; readonly toMs: number } & TrafficShape) | undefined;
}
