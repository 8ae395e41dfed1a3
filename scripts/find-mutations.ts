// Finds a wire-level mutation for each documented rule that has none registered yet, and writes the registry
// (src/suite/mutations/<surface>.ts). It traces one run of the suite (every answer and frame each case received), then
// tries, round by round, one candidate per unproven rule (the case's exchanges from the last back, each rewritten in
// each way) with every rule's candidate armed in its own case only. The first candidate that makes the case fail with
// a named check (not a crash or a timeout) is kept. The conformance self-test proves every kept entry again on each
// run, so this script is only how entries are found, never what proves them.
//
//   node --import tsx scripts/find-mutations.ts [--rounds N] [--only GLOB]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Rules, ruleList } from '../src/contract/index.js';
import type { RuleKind, Surface } from '../src/contract/rule.js';
import { startTarget } from '../src/reference-target/server.js';
import { issueCredentials } from '../src/reference-target/tenancy.js';
import type { CaseResult } from '../src/report/results.js';
import { matchesGlob } from '../src/suite/glob.js';
import { Proofs } from '../src/suite/mutations/index.js';
import { FrameHow, HttpHow, type MutationSpec, pathPattern, type RuleProof } from '../src/suite/mutations/spec.js';
import { SuiteRunner } from '../src/suite/run.js';

const { values } = parseArgs({ options: { rounds: { type: 'string' }, only: { type: 'string' } } });
const MAX_ROUNDS = Number(values.rounds ?? 60);
const root = new URL('..', import.meta.url).pathname;

type Seen = { method: string; path: string; status: number } | { socket: 'messaging' | 'voice'; type: string };

/** The ways to try first for each kind of rule, so the failure is the rule's own check rather than a step before it. */
const FIRST: Record<RuleKind, { http: HttpHow[]; frame: FrameHow[] }> = {
  status: { http: ['status-near', 'status-class'], frame: ['retype', 'drop'] },
  'error-text': { http: ['values', 'empty'], frame: ['values', 'empty'] },
  transition: { http: ['status-class', 'values'], frame: ['drop', 'retype'] },
  limit: { http: ['drop-item', 'repeat-item', 'status-class'], frame: ['repeat', 'drop'] },
  field: { http: ['empty', 'values'], frame: ['empty', 'values'] },
  enum: { http: ['values'], frame: ['values', 'retype'] },
  event: { http: ['values', 'empty'], frame: ['drop', 'repeat', 'retype'] },
  open: { http: [], frame: [] },
};

const ordered = <T extends string>(first: T[], all: readonly T[]) => [...first, ...all.filter((h) => !first.includes(h))];

/** Every candidate for one case: each way (those fitting the rule's kind first), on its exchanges from the last back. */
function candidates(trace: Seen[], kind: RuleKind, tenant: string[]): MutationSpec[] {
  const counts = new Map<string, number>();
  const targets: MutationSpec['on'][] = [];
  for (const s of trace) {
    const key = 'method' in s ? `${s.method} ${pathPattern(s.path, tenant)}` : `${s.socket} ${s.type}`;
    const nth = counts.get(key) ?? 0;
    counts.set(key, nth + 1);
    targets.push('method' in s ? { method: s.method, path: pathPattern(s.path, tenant), nth } : { socket: s.socket, type: s.type, nth });
  }
  targets.reverse();
  const out: MutationSpec[] = [];
  const hows = new Set([...ordered(FIRST[kind].http, HttpHow.options), ...ordered(FIRST[kind].frame, FrameHow.options)]);
  for (const how of hows) {
    for (const on of targets) {
      if ('method' in on && (HttpHow.options as readonly string[]).includes(how)) out.push({ on, how: how as HttpHow });
      if ('socket' in on && (FrameHow.options as readonly string[]).includes(how)) out.push({ on, how: how as FrameHow });
    }
  }
  return out;
}

const credentials = issueCredentials();
const target = await startTarget({ credentials });
const runner = await SuiteRunner.create(root);
const found = new Map<string, RuleProof>();
try {
  const traced = await runner.run(target.loaded, values.only, { mutations: 'trace' });
  const todo = new Map<string, MutationSpec[]>();
  const p = target.loaded.profile;
  const tenant = [p.account_id, p.account_id_alt, p.project_id, p.project_id_alt].filter((x): x is string => typeof x === 'string');
  for (const c of traced.cases) {
    const r = Rules[c.rule as keyof typeof Rules];
    if (!r || r.open || c.outcome !== 'pass' || Proofs[c.rule as keyof typeof Proofs]) continue;
    todo.set(c.rule, candidates((c.trace ?? []) as Seen[], r.kind, tenant));
  }
  console.log(`${todo.size} rules to search`);
  for (let round = 0; round < MAX_ROUNDS && todo.size > 0; round++) {
    const armed: Record<string, MutationSpec> = {};
    for (const [rule, list] of todo) {
      const c = list[round];
      if (c) armed[rule] = c;
    }
    const ids = Object.keys(armed);
    if (ids.length === 0) break;
    const t0 = Date.now();
    const results = await runner.run(target.loaded, ids.join(','), { mutations: armed });
    const byRule = new Map<string, CaseResult[]>();
    for (const c of results.cases) byRule.set(c.rule, [...(byRule.get(c.rule) ?? []), c]);
    for (const id of ids) {
      const ran = (byRule.get(id) ?? []).filter((c) => c.outcome !== 'skip');
      const proven = ran.length > 0 && ran.every((c) => c.outcome === 'fail' && c.check !== 'error' && (c.mutation?.applied ?? 0) > 0);
      if (proven) {
        found.set(id, { mutation: armed[id] as MutationSpec });
        todo.delete(id);
      }
    }
    console.log(`round ${round + 1}: ${ids.length} tried, ${found.size} found so far, ${todo.size} left (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  for (const id of todo.keys()) console.log(`  none found: ${id}`);
} finally {
  await runner.close();
  await target.close();
}

// The registry, one file per surface: what was there, plus what this search found.
const bySurface = new Map<Surface, [string, RuleProof][]>();
for (const r of ruleList) {
  if (r.open || (values.only && !matchesGlob(r.id, values.only) && !Proofs[r.id as keyof typeof Proofs])) continue;
  const p = Proofs[r.id as keyof typeof Proofs] ?? found.get(r.id);
  if (p) bySurface.set(r.surface, [...(bySurface.get(r.surface) ?? []), [r.id, p]]);
}
const camel = (s: string) => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
for (const [surface, entries] of bySurface) {
  const lines = entries.map(([id, p]) => `  '${id}': ${JSON.stringify(p)},`);
  writeFileSync(
    `${root}src/suite/mutations/${surface}.ts`,
    `import type { Proofs } from './spec.js';\n\n/** How each documented ${surface} rule is broken from outside (found by scripts/find-mutations.ts, ` +
      `proven by every self-test). */\nexport const ${camel(surface)}Proofs: Proofs = {\n${lines.join('\n')}\n};\n`,
  );
}
console.log(`wrote ${[...bySurface.keys()].join(', ')}`);
