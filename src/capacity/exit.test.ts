import { describe, expect, it } from 'vitest';
import { EXIT } from '../errors.js';
import { analyse } from './analysis.js';
import { capacityExit } from './exit.js';
import type { CapacityResult } from './result.js';
import { DEFAULT_SEARCH, type SearchOptions, searchCapacity } from './search.js';
import { type SurfaceOptions, simulatedSurface } from './simulated-surface.js';

const OPTIONS: SearchOptions = { ...DEFAULT_SEARCH, stepSeconds: 10, warmupSeconds: 2, maxSteps: 8 };

/** A finished run on a simulated surface, as capacityExit sees it. */
async function runOn(surface: SurfaceOptions, o: SearchOptions = OPTIONS): Promise<CapacityResult> {
  const s = simulatedSurface(surface);
  const outcome = await searchCapacity(s.runStep, o, undefined, s.now);
  return {
    stopped: outcome.stopped,
    analysis: analyse(outcome.steps, o, o.closed ? 'messaging-sockets' : 'chat-turns'),
    steps: outcome.steps,
  } as unknown as CapacityResult;
}

const OPEN = { learned: false, failOnRegression: false };

describe('the exit of a capacity run', () => {
  it('is 0 for a refined search, whatever it found, and for one whose load generator was the limit', async () => {
    expect(capacityExit(await runOn({ capacity: 18 / 7 }), OPEN)).toEqual({ code: EXIT.ok });
    const generator = await runOn({ capacity: 10, generatorLimit: 3 }, { ...OPTIONS, maxSteps: 3 });
    expect(generator.analysis.limited_by).toBe('load-generator');
    expect(capacityExit(generator, OPEN)).toEqual({ code: EXIT.ok });
  });

  it('is 4 with one line when its step budget cut the search short before the knee: a rate that never broke is no capacity', async () => {
    const r = await runOn({ capacity: 18 / 7 }, { ...OPTIONS, maxSteps: 1 });
    expect(r.stopped).toBe('step-budget');
    expect(capacityExit(r, OPEN)).toEqual({
      code: EXIT.internal,
      error: 'the search was cut short by its step-budget before it refined the knee; raise --max-steps or --max-time',
    });
  });

  it('is 5 for a learned search whose load generator was the limit: the conversations asked were not delivered', async () => {
    const r = await runOn({ capacity: 10, generatorLimit: 3 }, { ...OPTIONS, maxSteps: 3 });
    const end = capacityExit(r, { learned: true, failOnRegression: false });
    expect(end.code).toBe(EXIT.loadNotDelivered);
    expect(end.error).toMatch(/^the load generator was the limit, so the learned workload was not delivered: at 4\.00\/s the engine ran out of VUs/);
  });

  it('is 6 for a regressed capacity under --fail-on-regression only, and 105 for an interrupted search', async () => {
    const r = { ...(await runOn({ capacity: 18 / 7 })), verdict: { status: 'regressed' } } as unknown as CapacityResult;
    expect(capacityExit(r, { learned: false, failOnRegression: true })).toEqual({ code: EXIT.regressed });
    expect(capacityExit(r, OPEN)).toEqual({ code: EXIT.ok });
    expect(capacityExit({ ...r, interrupted: { signal: 'SIGINT', at: 'step 2' } } as unknown as CapacityResult, OPEN)).toEqual({ code: EXIT.interrupted });
  });
});
