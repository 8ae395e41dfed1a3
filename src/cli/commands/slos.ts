import { EXIT } from '../../errors.js';
import { WORKLOADS } from '../../load/config.js';
import { SCENARIO_DEFAULTS } from '../../load/defaults.js';
import { checkExpectations } from '../../load/expectations.js';
import { checkScenario, scenarioNames } from '../../load/scenarios.js';
import { effectiveSlos, thresholdsFor } from '../../load/slos.js';
import { effectiveShape } from '../../load/workload.js';
import { parseProfile } from '../../profile/load.js';
import type { Profile } from '../../profile/schema.js';
import { defineCommand, parseCommand } from '../command.js';
import { TARGET_FLAG } from '../flags.js';
import { profileJson } from '../manifests.js';
import { ROOT } from '../root.js';
import { workloadName } from './load.js';

export const spec = defineCommand({
  name: 'slos',
  summary: 'prints the SLOs and workload each scenario is judged by against a profile, and where each came from',
  description: `Prints the SLOs each scenario is judged by against PROFILE (default: the scenarios' own defaults), each marked
  'default' or 'profile', and the workload's executor: rate, duration and VU pool, each with where it came from
  (default, profile, or sized by Little's law from the iteration time the SLOs allow). Reads no credential and starts
  nothing.`,
  flags: {
    target: { ...TARGET_FLAG, help: "the profile whose slos and workloads replace the scenarios' defaults." },
    scenario: { type: 'string', value: 'NAME', help: 'one scenario only.', defaultText: 'every scenario' },
    workload: { type: 'string', choices: WORKLOADS, help: 'the workload.', default: 'smoke' },
    json: { type: 'boolean', help: 'prints one JSON value instead of text lines.' },
  },
  exits: {
    [EXIT.ok]: 'printed',
    [EXIT.usage]: "the profile's slos or workloads would not be taken (one line per mistake says what was expected and what was found), or another usage error",
  },
  accepts: () => ({ scenarios: scenarioNames(ROOT), workloads: WORKLOADS }),
});

const shapeFigures = ['executor', 'rate', 'vus', 'duration', 'preAllocatedVUs', 'maxVUs', 'gracefulStop'] as const;

/** One scenario's SLOs and workload for a profile, as text lines or as one JSON value. */
function describe(scenario: string, workload: ReturnType<typeof workloadName>, profile: Pick<Profile, 'slos' | 'workloads'>) {
  const slos = effectiveSlos(scenario, profile);
  const { shape, sources, iterationS } = effectiveShape({ scenario, workload, profile, thresholds: thresholdsFor(scenario, workload, profile) });
  const figures = Object.fromEntries(
    shapeFigures.flatMap((k) => {
      const v = (shape as unknown as Record<string, unknown>)[k];
      return v === undefined ? [] : [[k, { value: v, source: sources[k] ?? 'default' }]];
    }),
  );
  return { scenario, workload, slos, shape: figures, iteration_s: iterationS };
}

/** Prints the effective SLOs and workloads of a profile. */
export async function slos(argv: string[]): Promise<number> {
  const { values } = parseCommand(spec, argv);
  const workload = workloadName(values.workload);
  const profile: Pick<Profile, 'slos' | 'workloads' | 'name'> = values.target
    ? parseProfile(profileJson(values.target), values.target)
    : { name: 'defaults', slos: undefined, workloads: undefined };
  checkExpectations(profile, values.target ?? 'defaults');
  if (values.scenario) checkScenario(ROOT, values.scenario);
  const names = values.scenario ? [values.scenario] : Object.keys(SCENARIO_DEFAULTS);
  const all = names.map((n) => describe(n, workload, profile));
  if (values.json) {
    console.log(JSON.stringify({ target: profile.name, workload, scenarios: all }, null, 2));
    return 0;
  }
  console.log(`SLOs and ${workload} workloads for ${values.target ? `profile ${profile.name}` : "the scenarios' defaults"}`);
  for (const s of all) {
    console.log(`\n${s.scenario}`);
    const width = Math.max(...s.slos.map((e) => e.key.length));
    for (const e of s.slos) {
      const list = e.expressions.map((t) => (typeof t === 'string' ? t : t.threshold)).join(', ');
      console.log(`  ${e.key.padEnd(width)}  ${list.padEnd(14)}  ${e.source}`);
    }
    const shape = Object.entries(s.shape).map(([k, v]) => `${k} ${v.value}${v.source === 'default' ? '' : ` (${v.source})`}`);
    console.log(`  workload: ${shape.join(', ')}`);
    if (s.iteration_s !== undefined) console.log(`  iteration at the SLOs: ${s.iteration_s.toFixed(1)} s (Little's law sizes the pool from it)`);
  }
  return 0;
}
