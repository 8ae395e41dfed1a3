// npm run bench:capacity: the capacity search's error against a known capacity, per scenario.
//
// For each scenario the reference target serves the scenario's surface at N requests per second
// (dialtone target --capacity SURFACE=N); the known capacity in the scenario's unit is N divided by
// the requests one iteration makes to that surface. chat-turns makes a fixed 7; for the others the
// count is measured on the search's lightest step (http_reqs / iterations), so the known value is an
// estimate where polling or paging varies per iteration. Then, with --no-setting, the same search
// against the target's own limits on this machine, and who limited it.
//
// With --latency SPEC (e.g. realistic) the target's agent is slowed as by `dialtone target --latency`, and the search
// runs under SLOs that fit such an agent (a profile's `slos`, REALISTIC_SLOS below) with steps long enough for its
// conversations: the capacity proof for a slow agent.
//
//   node --import tsx scripts/bench-capacity.ts [--only chat-turns,outbound-polling] [--no-setting] [--latency realistic]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CapacityResult, runCapacity } from '../src/capacity/run.js';
import { DEFAULT_SEARCH, held, type SearchOptions } from '../src/capacity/search.js';
import { SCENARIO_UNITS, searchDefaultsFor } from '../src/capacity/units.js';
import { planLoad } from '../src/load/plan.js';
import { SCENARIOS } from '../src/load/scenario-declarations.js';
import type { Profile } from '../src/profile/schema.js';
import { parseLatency } from '../src/reference-target/latency-spec.js';
import { startTarget } from '../src/reference-target/server.js';

const ROOT = new URL('..', import.meta.url).pathname;
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

/** Per scenario: the surface's known capacity, in pieces of work a second, as its declaration's `bench.knownCapacity` says. */
const PLAN: Record<string, { perSecond: number }> = Object.fromEntries(
  Object.entries(SCENARIOS).flatMap(([name, d]) => (d.bench?.knownCapacity ? [[name, { perSecond: d.bench.knownCapacity }]] : [])),
);

/**
 * Requests per iteration, the median over the steps that held of each step's whole count (requests ÷ completed iterations, the
 * warm-up included): the steady window's own ratio runs high for long iterations, whose requests carry the phase they
 * started in.
 */
function requestsPerIteration(r: CapacityResult, fixed: number | undefined): number | undefined {
  if (fixed) return fixed;
  // Only steps that kept up: where a queue grew, requests outnumber the iterations that got to complete.
  const ratios = r.steps
    .filter((s) => held(s, DEFAULT_SEARCH))
    .map((s) => s.requests_per_iteration)
    .filter((x): x is number => x !== undefined)
    .sort((a, b) => a - b);
  return ratios.length ? ratios[Math.floor((ratios.length - 1) / 2)] : undefined;
}

/** Under --latency: SLOs a slow agent can meet (the keep-up rule finds the knee), and steps longer than an iteration. */
const REALISTIC_SLOS: NonNullable<Profile['slos']> = {
  'chat-turns': Object.fromEntries(['respond', 'create', 'close'].map((op) => [`http_req_duration{op:chat.${op}}`, ['p(95)<20000']])),
};
const SLOW_SEARCH: Partial<SearchOptions> = { startRate: 2, stepSeconds: 40, warmupSeconds: 12, maxSteps: 7 };

const latencyArg = arg('--latency');
const parsed = latencyArg === undefined ? undefined : parseLatency(latencyArg);
if (parsed && 'error' in parsed) throw new Error(parsed.error);
const latency = parsed && 'spec' in parsed ? parsed.spec : undefined;
/** Under --latency: a surface fast enough in requests that a slow agent's conversations still number a few a second. */
const SLOW_PLAN: Record<string, { perSecond: number }> = { 'chat-turns': { perSecond: 35 } };

async function one(scenario: string, setting: boolean) {
  const plan = (latency ? SLOW_PLAN[scenario] : undefined) ?? PLAN[scenario];
  const unit = SCENARIO_UNITS[scenario];
  if (!plan || !unit) throw new Error(`no plan for ${scenario}`);
  const target = await startTarget({
    ...(setting ? { capacity: { [unit.surface]: plan.perSecond } } : {}),
    ...(latency ? { latency, seed: 11 } : {}),
  });
  const defaults = searchDefaultsFor(scenario);
  // Bounded per scenario: nine steps, and the steps' own length sets the time (voice-browser's are minutes).
  const search: SearchOptions = { ...defaults, maxSteps: 9, ...(setting ? {} : { maxRate: 400 }), ...(latency ? SLOW_SEARCH : {}) };
  const loaded = latency ? { ...target.loaded, profile: { ...target.loaded.profile, slos: REALISTIC_SLOS } } : target.loaded;
  try {
    const { result, dir } = await runCapacity({
      plan: planLoad({ command: 'capacity', root: ROOT, scenario, workload: 'nightly', target: loaded }),
      reportDir: join(ROOT, 'reports', 'bench', setting ? 'capacity-known' : 'capacity-own'),
      search,
      onStep: (s) =>
        console.log(
          `  ${scenario} step ${s.index}: ${s.offered_rate.toFixed(2)}/s → ${s.throughput.toFixed(2)}/s, SLOs ${s.slo_held ? 'held' : 'broke'}, engine ` +
            `${s.generator_cpu_cores?.toFixed(2)} cores`,
        ),
    });
    const rpi = requestsPerIteration(result, unit.requestsPerIteration);
    const known = setting && rpi ? plan.perSecond / rpi : undefined;
    const found = result.analysis.max_sustainable_rate;
    return {
      scenario,
      unit: unit.unit,
      setting: setting ? `${unit.surface}=${plan.perSecond}` : 'none',
      latency: latencyArg ?? 'none',
      slo_set: result.slos?.slo_set,
      requests_per_iteration: rpi,
      known_capacity: known,
      max_sustainable_rate: found,
      error: known && found !== null ? (found - known) / known : undefined,
      limited_by: result.analysis.limited_by,
      limit_reason: result.analysis.limit_reason,
      steps: result.steps.length,
      wall_s: result.wall_s,
      report: join(dir, 'index.html'),
    };
  } catch (e) {
    return { scenario, setting: setting ? `${unit.surface}=${plan.perSecond}` : 'none', failed: (e as Error).message.split('\n')[0] };
  } finally {
    await target.close();
  }
}

const only = arg('--only')?.split(',') ?? Object.keys(PLAN);
const setting = !process.argv.includes('--no-setting');
const rows = [];
for (const scenario of only) {
  console.log(`${scenario} (${setting ? 'known capacity' : 'no setting'})`);
  const row = await one(scenario, setting);
  console.log(JSON.stringify(row));
  rows.push(row);
}
mkdirSync(join(ROOT, 'reports', 'bench'), { recursive: true });
const out = join(
  ROOT,
  'reports',
  'bench',
  `${setting ? 'capacity-known' : 'capacity-own'}${latencyArg ? `-latency-${latencyArg.replace(/[^a-z0-9]+/gi, '_')}` : ''}${arg('--only') ? `-${only.join('+')}` : ''}.json`,
);
writeFileSync(out, `${JSON.stringify({ measured_at: new Date().toISOString(), rows }, null, 2)}\n`);
console.log(`wrote ${out}`);
