// A whole capacity run: prepare k6, search, analyse, write DIR/capacity/SCENARIO/.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedProfile } from '../profile/load.js';
import { analyse } from './analysis.js';
import { prepareSteps } from './prepare.js';
import { writeCapacityReport } from './report.js';
import type { CapacityResult } from './result.js';
import { type SearchOptions, searchCapacity } from './search.js';
import type { StepResult } from './step.js';
import { unitOf } from './units.js';

export type { CapacityResult } from './result.js';

export interface CapacityRun {
  readonly root: string;
  readonly scenario: string;
  readonly loaded: LoadedProfile;
  readonly reportDir: string;
  readonly search: SearchOptions;
  readonly allowLive?: boolean;
  readonly onStep?: (s: StepResult) => void;
}

/**
 * Runs the search for one scenario and writes capacity.json, steps.csv and index.html.
 *
 * @example
 * const { result } = await runCapacity({ root: ROOT, scenario: 'chat-turns', loaded, reportDir: 'reports', search: DEFAULT_SEARCH });
 * result.analysis.max_sustainable_rate;
 */
export async function runCapacity(o: CapacityRun): Promise<{ result: CapacityResult; dir: string }> {
  const dir = join(o.reportDir, 'capacity', o.scenario);
  const work = join(dir, '.work');
  rmSync(work, { recursive: true, force: true });
  const ctx = await prepareSteps(o.root, o.scenario, o.loaded, work, o.allowLive ?? false);
  const started = new Date().toISOString();
  const outcome = await searchCapacity(ctx, o.search, o.onStep);
  const result: CapacityResult = {
    scenario: o.scenario,
    unit: unitOf(o.scenario).unit,
    target: o.loaded.profile.name,
    started_at: started,
    search: o.search,
    stopped: outcome.stopped,
    wall_s: outcome.wall_s,
    analysis: analyse(outcome.steps, o.search),
    steps: outcome.steps,
  };
  await writeCapacityReport(dir, result, ctx.secrets);
  rmSync(work, { recursive: true, force: true });
  return { result, dir };
}
