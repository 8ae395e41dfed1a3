// `k6`: check, group, sleep, fail, randomSeed (/javascript-api/k6/).
import type { VuHost } from '../../types.js';

/**
 * The `k6` module for one VU.
 *
 * `sleep` cannot block a Node VU, so it returns a promise that resolves after the time: `await sleep(1)` waits in
 * both engines (k6's sleep blocks and returns undefined, which `await` passes through).
 */
export function k6Module(vu: VuHost) {
  vu.sink.declare({ name: 'checks', type: 'rate', contains: 'default' });
  vu.sink.declare({ name: 'group_duration', type: 'trend', contains: 'time' });
  return {
    /**
     * k6 docs, /javascript-api/k6/check/: "Runs one or more checks on a value and generates a pass/fail result but
     * does not throw errors or otherwise interrupt execution upon failure." Returns whether all passed.
     */
    check(value: unknown, sets: Record<string, ((v: unknown) => unknown) | unknown>, tags?: Record<string, string>): boolean {
      let all = true;
      const base = vu.tags();
      for (const [name, test] of Object.entries(sets)) {
        let ok: boolean;
        try {
          ok = Boolean(typeof test === 'function' ? (test as (v: unknown) => unknown)(value) : test);
        } catch (e) {
          // A check function that throws ends the iteration, as an exception in k6 does.
          throw e instanceof Error ? e : new Error(String(e));
        }
        all &&= ok;
        // Tags of the sample: the VU's, the call's, and the check's name (/using-k6/tags-and-groups/#system-tags).
        const t = tags ? { ...base, ...tags, check: name } : { ...base, check: name };
        vu.sink.emit('checks', ok ? 1 : 0, t);
      }
      return all;
    },
    /**
     * k6 docs, /javascript-api/k6/group/: runs `fn` inside a named group; its samples carry the `group` tag `::name`,
     * and each call emits `group_duration` tagged with the group's own path (/using-k6/thresholds/). A function the
     * script's rewrite made async (it makes blocking calls) keeps the group until its promise settles.
     */
    group<T>(name: string, fn: () => T): T {
      if (name.includes('::')) throw new Error(`group: a group name cannot contain '::' (got '${name}')`);
      const outer = vu.group;
      const path = `${outer}::${name}`;
      vu.group = path;
      const started = Date.now();
      const end = () => {
        vu.group = outer;
        const now = Date.now();
        vu.sink.emit('group_duration', now - started, { ...vu.tags(), group: path }, now);
      };
      let out: T;
      try {
        out = fn();
      } catch (e) {
        end();
        throw e;
      }
      if (out instanceof Promise) return out.finally(end) as T;
      end();
      return out;
    },
    sleep(seconds: number): Promise<void> {
      const ms = Math.max(0, Number(seconds) * 1000);
      return vu.track(
        new Promise<void>((resolve) => {
          const t = setTimeout(resolve, ms);
          vu.signal.addEventListener('abort', () => clearTimeout(t), { once: true });
        }),
      );
    },
    /** k6 docs, /javascript-api/k6/fail/: throws, which ends the iteration. */
    fail(message?: string): never {
      throw new Error(message ?? 'fail');
    },
    /** k6 docs, /javascript-api/k6/random-seed/: "Set seed to get a reproducible pseudo-random number using Math.random." */
    randomSeed(seed: number): void {
      vu.seedRandom(seed);
    },
  };
}
