import { describe, expect, it } from 'vitest';
import { Profile } from './schema.js';

/** The profile's `slos` field alone, with one threshold object whose delayAbortEval is `delay`. */
const slos = (delay: string) =>
  Profile.shape.slos.safeParse({ 'chat-turns': { http_req_duration: [{ threshold: 'p(95)<500', abortOnFail: true, delayAbortEval: delay }] } });

describe("a profile SLO's delayAbortEval", () => {
  it('takes any Go duration, as k6 reads it', () => {
    for (const delay of ['10s', '500ms', '1m30s', '1.5s', '0']) expect(slos(delay).success, delay).toBe(true);
  });

  it('refuses a negative duration, a number without its unit and what is no duration, with the one message', () => {
    for (const delay of ['soon', '10', '-5s', '10d', '']) {
      const r = slos(delay);
      expect(r.success, delay).toBe(false);
      expect(r.error?.issues[0]?.message, delay).toBe('must be a duration such as 10s');
    }
  });
});
