import type { CountLimit } from '../../contract/limits.js';
import { type CaseApi, rule } from '../case.js';

/** One request against a limit: its status, and for one accepted, how to free its slot where the documents give a way. */
export interface Taken {
  readonly status: number;
  readonly release?: () => Promise<unknown>;
}

/** How a burst case meets one limit: what it fills (a session, an account), how much of it is already held, one request. */
export interface BurstOf<S> {
  readonly setup: (api: CaseApi) => Promise<S>;
  /** How many of the limit the scope already holds (an account's existing rules); none when absent. */
  readonly held?: (api: CaseApi, scope: S) => Promise<number>;
  readonly take: (api: CaseApi, scope: S) => Promise<Taken>;
}

/** Requests beyond the room a burst sends: the excess that must be refused, exactly. */
export const EXCESS = 3;
/** How often, and how far apart, a request after a release is tried again while the target records the release. */
const RETRIES = 20;
const RETRY_MS = 250;

const accepted = (t: Taken) => t.status >= 100 && t.status < 300;

/** Takes one slot, trying again while a release the target has not yet recorded keeps it refused. */
async function takeAgain<S>(api: CaseApi, how: BurstOf<S>, scope: S, refusal: number): Promise<Taken> {
  let last = await how.take(api, scope);
  for (let i = 0; i < RETRIES && last.status === refusal; i++) {
    await new Promise((done) => setTimeout(done, RETRY_MS));
    last = await how.take(api, scope);
  }
  return last;
}

/**
 * Declares the burst case of a documented count limit: as many simultaneous requests as the room left plus three, each
 * on a connection of its own, must be answered with exactly the room accepted and the three refused with the documented
 * status. Where the documents free a slot, three accepted ones are released, three more are accepted again once the
 * target has recorded the releases, and one past the limit is refused again.
 *
 * @example
 * burstCase(SOCKETS_PER_SESSION, { setup: (api) => api.t.messaging.handshake(), take: (api, h) => … });
 */
export function burstCase<S>(limit: CountLimit, how: BurstOf<S>): void {
  const freed = limit.frees ? `; ${EXCESS} released slots are taken again and one more is refused` : '';
  rule(
    limit.rule,
    `derived: a burst of simultaneous requests ${EXCESS} past a limit of ${limit.size} gets exactly ${EXCESS} refused with ${limit.refusal}${freed}`,
    async (api) => {
      const scope = await how.setup(api);
      const room = limit.size - ((await how.held?.(api, scope)) ?? 0);
      if (room < 1) api.skip(`the scope already holds all ${limit.size} of the limit: a burst cannot be judged`);
      const burst = await Promise.all(Array.from({ length: room + EXCESS }, () => how.take(api, scope)));
      const taken = burst.filter(accepted);
      const refused = burst.filter((t) => t.status === limit.refusal);
      const statuses = burst.map((t) => t.status).join(', ');
      api.check.that(
        taken.length === room && refused.length === EXCESS,
        `${room} accepted and ${EXCESS} refused with ${limit.refusal} of ${room + EXCESS} simultaneous requests`,
        `${taken.length} accepted, ${refused.length} refused with ${limit.refusal} (${statuses})`,
      );
      if (!limit.frees) return;
      const released = taken.slice(0, EXCESS);
      await Promise.all(released.map((t) => t.release?.()));
      const again = [];
      for (const _ of released) again.push(await takeAgain(api, how, scope, limit.refusal));
      api.check.that(
        again.every(accepted),
        `the ${EXCESS} released slots are taken again`,
        again.map((t) => t.status),
      );
      const past = await how.take(api, scope);
      api.check.status(
        { status: past.status, text: '', json: undefined, headers: {}, exchange: undefined as never },
        limit.refusal,
        `one past the limit is refused with ${limit.refusal} again`,
      );
    },
  );
}
