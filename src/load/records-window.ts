import { REFERENCE_HISTORY } from '../contract/conversations/shapes.js';
import type { Profile } from '../profile/schema.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The conversation-records window the paging scenario walks: the whole seeded history on the
 * reference target; on a real target the day before yesterday, which no traffic of the run can
 * change while it is paged.
 *
 * @example
 * recordsWindow(profile, Date.now()); // { start_time: '2026-09-01T00:00:00.000Z', end_time: '2026-11-01T00:00:00.000Z' }
 */
export function recordsWindow(profile: Pick<Profile, 'kind'>, now: number): { start_time: string; end_time: string } {
  if (profile.kind === 'reference') return { start_time: REFERENCE_HISTORY.start_time, end_time: REFERENCE_HISTORY.end_time };
  const end = Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;
  return { start_time: new Date(end - DAY_MS).toISOString(), end_time: new Date(end).toISOString() };
}
