// One k6 test across the engine's worker threads, against the sentences of k6's documentation it follows
// (/javascript-api/k6-execution/, /using-k6/k6-options/reference/). Every test runs the real engine in this process
// (run/in-process.ts) with a set number of worker threads (--workers); none asserts on time: the counts are exact
// whatever runs first.
import { describe, expect, it } from 'vitest';
import { runInProcess } from './run/in-process.js';

/** The `key=value` numbers of every console line of a run that start with `tag`. */
function lines(stderr: string, tag: string): Record<string, number>[] {
  return stderr
    .split('\n')
    .filter((l) => l.includes(`${tag} `) && l.includes('source=console'))
    .map((l) => Object.fromEntries([...l.matchAll(/(\w+)=(\d+)/g)].map((m) => [m[1], Number(m[2])])));
}

const upTo = (count: number, from = 0) => Array.from({ length: count }, (_, i) => i + from);
const sorted = (xs: readonly (number | undefined)[]) => [...xs].sort((a, b) => (a ?? 0) - (b ?? 0));

// Each test judges counts, never when anything ran, so they run side by side (vitest's maxConcurrency).
describe.concurrent('one test across worker threads', () => {
  // k6-execution docs: vu.idInTest is "The identifier of the VU across the instance" … "Iteration ids are generated
  // sequentially from 0, VU ids from 1"; scenario.iterationInTest is "The unique and zero-based sequential number of
  // the current iteration in the scenario."
  it.each([2, 4])('numbers 10 VUs 1..10 and their iterations 0..29 exactly once each on %i workers', async (workers) => {
    const r = await runInProcess(
      `import exec from 'k6/execution';
       export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 10, iterations: 3 } } };
       export default function () {
         console.log('it vu=' + exec.vu.idInTest + ' test=' + exec.scenario.iterationInTest + ' inst=' + exec.scenario.iterationInInstance + ' init=' + exec.instance.vusInitialized);
       }`,
      ['--workers', String(workers)],
    );
    expect(r.code).toBe(0);
    const seen = lines(r.stderr, 'it');
    expect(seen).toHaveLength(30);
    expect(sorted([...new Set(seen.map((l) => l.vu))])).toEqual(upTo(10, 1));
    expect(sorted(seen.map((l) => l.test))).toEqual(upTo(30));
    expect(sorted(seen.map((l) => l.inst))).toEqual(upTo(30));
    // Every VU of per-vu-iterations is made before the start: each iteration sees all ten, whichever worker made them.
    expect(seen.every((l) => l.init === 10)).toBe(true);
  });

  // shared-iterations docs: "A fixed amount of iterations are shared between a number of VUs"; k6-execution docs,
  // instance.iterationsCompleted: "The number of completed iterations in the current k6 instance".
  it('shares one pool of iterations among the VUs of every worker and counts them for the whole instance', async () => {
    const r = await runInProcess(
      `import exec from 'k6/execution';
       export const options = { scenarios: { s: { executor: 'shared-iterations', vus: 4, iterations: 40 } } };
       export default function () { console.log('it test=' + exec.scenario.iterationInTest); }
       export function teardown() {
         console.log('end completed=' + exec.instance.iterationsCompleted + ' initialized=' + exec.instance.vusInitialized);
       }`,
      ['--workers', '4'],
    );
    expect(r.code).toBe(0);
    expect(sorted(lines(r.stderr, 'it').map((l) => l.test))).toEqual(upTo(40));
    expect(lines(r.stderr, 'end')).toEqual([{ completed: 40, initialized: 4 }]);
  });

  // k6-execution docs, instance.vusActive: "The number of active VUs", and instance.iterationsCompleted: "The number of
  // completed iterations in the current k6 instance". One VU per worker: VU 1 waits until it sees all four active; the
  // other three stay active until they see VU 1's iteration completed. Only counts for the whole instance let both end.
  it('counts the VUs active and the iterations completed on every worker in exec.instance', async () => {
    const r = await runInProcess(
      `import exec from 'k6/execution';
       export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 4, iterations: 1, maxDuration: '10m' } } };
       const tick = () => new Promise((r) => setTimeout(r, 5));
       export default async function () {
         if (exec.vu.idInTest === 1) {
           let most = 0;
           while (most < 4) { most = Math.max(most, exec.instance.vusActive); await tick(); }
           console.log('active most=' + most);
         } else {
           while (exec.instance.iterationsCompleted < 1) await tick();
           console.log('waited completed=' + exec.instance.iterationsCompleted);
         }
       }`,
      ['--workers', '4'],
    );
    expect(r.code).toBe(0);
    expect(lines(r.stderr, 'active')).toEqual([{ most: 4 }]);
    expect(lines(r.stderr, 'waited')).toHaveLength(3);
  });

  // k6-execution docs, test.abort: "Aborts the test run with the exit code 108, and an optional string parameter"; the
  // facts sheet (§7): teardown still runs.
  it('aborts the whole test from a VU on any worker with exit 108, and still runs teardown', async () => {
    const r = await runInProcess(
      `import exec from 'k6/execution';
       export const options = { scenarios: { s: { executor: 'constant-vus', vus: 8, duration: '10m' } } };
       export default async function () {
         await new Promise((r) => setTimeout(r, 20));
         if (exec.vu.idInTest === 7) exec.test.abort('seven says stop');
       }
       export function teardown() { console.log('teardown ran=1'); }`,
      ['--workers', '4'],
    );
    expect(r.code).toBe(108);
    expect(r.stderr).toContain('seven says stop');
    expect(lines(r.stderr, 'teardown')).toEqual([{ ran: 1 }]);
  });

  // k6-execution docs: test.abort "also in init"; exit code 108 = ScriptAborted (errext/exitcodes).
  it('exits 108 when the init context aborts the test', async () => {
    const r = await runInProcess(`import exec from 'k6/execution';\nexec.test.abort('no target');\nexport default function () {}`);
    expect(r.code).toBe(108);
    expect(r.stderr).toContain('no target');
  });

  // The same sentence, for the init code of one VU on a worker thread, and for setup().
  it("exits 108 when one VU's init code on a worker, or setup(), aborts the test", async () => {
    const [vu, setup] = await Promise.all([
      runInProcess(
        `import exec from 'k6/execution';\nif (__VU === 3) exec.test.abort('vu three');\nexport const options = { vus: 4, iterations: 4 };\nexport ` +
          `default function () {}`,
        ['--workers', '2'],
      ),
      runInProcess(`import exec from 'k6/execution';\nexport function setup() { exec.test.abort('no data'); }\nexport default function () {}`),
    ]);
    expect([vu.code, setup.code]).toEqual([108, 108]);
    expect(vu.stderr).toContain('vu three');
    expect(setup.stderr).toContain('no data');
  });

  // options reference, console-output: console.* goes through k6's logger, to stderr by default, each line
  // `source=console`. The proof: 1,000 lines of 1,000, in order per VU, the last ones printed as the workers end.
  it('prints every console line of every VU, in order per VU, up to the last one before the workers end', async () => {
    const r = await runInProcess(
      `import exec from 'k6/execution';
       export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 10, iterations: 100 } } };
       export default async function () {
         if (exec.vu.iterationInScenario === 99) await new Promise((r) => setTimeout(r, 10));
         console.log('line vu=' + exec.vu.idInTest + ' n=' + exec.vu.iterationInScenario);
       }`,
      ['--workers', '4'],
    );
    expect(r.code).toBe(0);
    const seen = lines(r.stderr, 'line');
    expect(seen).toHaveLength(1000);
    for (const vu of upTo(10, 1))
      expect(
        seen.filter((l) => l.vu === vu).map((l) => l.n),
        `VU ${vu}`,
      ).toEqual(upTo(100));
    expect(r.stderr).toMatch(/^INFO\[\d{4}\] line vu=\d+ n=\d+ {2}source=console$/m);
  });
});
