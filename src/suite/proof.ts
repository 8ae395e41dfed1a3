import { type RuleId, ruleList } from '../contract/index.js';
import type { LoadedProfile } from '../profile/load.js';
import type { CaseResult, DefectVerdict, ProofSummary, RuleProofRow } from '../report/results.js';
import { matchesGlob } from './glob.js';
import { Proofs } from './mutations/index.js';
import { describeMutations, type MutationSpec, mutationKey } from './mutations/spec.js';
import { SuiteRunner } from './run.js';

/** The mutations the registry holds, by rule id (and `id@operation` for a case per operation), for the rules `only` selects. */
function armed(only: string | undefined): Record<string, MutationSpec> {
  const out: Record<string, MutationSpec> = {};
  for (const [id, p] of Object.entries(Proofs)) {
    if (!p || !('mutation' in p) || !matchesGlob(id, only)) continue;
    out[id] = p.mutation;
    for (const [op, spec] of Object.entries(p.operations ?? {})) out[mutationKey(id, op)] = spec;
  }
  return out;
}

/** The rule ids of the armed mutations, once each (the `--only` list of the proof run). */
const armedRules = (mutations: Record<string, MutationSpec>) => [...new Set(Object.keys(mutations).map((k) => k.split('@')[0]))].join(',');

/** Whether a rule's cases prove its mutation: every case that ran failed on a named check, with the mutation applied. */
function verdictOf(cases: readonly CaseResult[]): Pick<RuleProofRow, 'proven' | 'check' | 'documented' | 'why' | 'skipped'> {
  const ran = cases.filter((c) => c.outcome !== 'skip');
  if (ran.length === 0) return { proven: false, skipped: true, why: cases.length ? `its case was skipped: ${cases[0]?.detail}` : 'no case ran' };
  const passed = ran.find((c) => c.outcome !== 'fail');
  if (passed) return { proven: false, why: `its case still ${passed.outcome === 'pass' ? 'passed' : passed.outcome} with the mutation armed` };
  const unapplied = ran.find((c) => (c.mutation?.applied ?? 0) === 0);
  if (unapplied) return { proven: false, why: 'the mutation matched no answer of its case', check: unapplied.check };
  const crashed = ran.find((c) => c.check === 'error' || c.check === undefined);
  if (crashed) return { proven: false, why: `its case crashed instead of failing a check: ${crashed.detail}`, check: 'error' };
  const first = ran[0] as CaseResult;
  return { proven: true, ...(first.check ? { check: first.check } : {}), ...(first.documented ? { documented: first.documented } : {}) };
}

/**
 * The mutation proof: one run of the suite against `loaded` with every documented rule's registered mutation armed in
 * that rule's own case(s) only. A rule is proven when each of its cases then fails on a named check (a CheckFailure,
 * not a crash or a timeout) after the mutation rewrote at least one answer. Rules with no mutation carry the
 * registry's reason. `withDefects` adds the defects that break each rule.
 *
 * @example
 * const { rows } = await runMutationProof(root, loaded, 'chat.*');
 * rows.filter((r) => r.proven).length
 */
export async function runMutationProof(root: string, loaded: LoadedProfile, only: string | undefined): Promise<{ rows: RuleProofRow[]; durationMs: number }> {
  const started = Date.now();
  const mutations = armed(only);
  const runner = await SuiteRunner.create(root);
  let cases: CaseResult[];
  try {
    cases = Object.keys(mutations).length ? (await runner.run(loaded, armedRules(mutations), { mutations })).cases : [];
  } finally {
    await runner.close();
  }
  const byRule = new Map<string, CaseResult[]>();
  for (const c of cases) byRule.set(c.rule, [...(byRule.get(c.rule) ?? []), c]);
  const rows = ruleList
    .filter((r) => !r.open && matchesGlob(r.id, only))
    .map((r): RuleProofRow => {
      const p = Proofs[r.id as RuleId];
      const base = { rule: r.id, surface: r.surface, defects: [] };
      if (!p) return { ...base, proven: false, why: 'no mutation registered' };
      if ('reason' in p) return { ...base, proven: false, why: p.reason, reason: p.reason };
      return { ...base, mutation: describeMutations(p), ...verdictOf(byRule.get(r.id) ?? []) };
    });
  return { rows, durationMs: Date.now() - started };
}

/** The rows with the defects that break each rule and were caught exactly. */
export function withDefects(rows: readonly RuleProofRow[], defects: readonly DefectVerdict[]): RuleProofRow[] {
  return rows.map((r) => ({ ...r, defects: defects.filter((d) => d.exact && d.breaks.includes(r.rule)).map((d) => d.id) }));
}

/** Registered mutations that ran and did not prove their rule: each is a self-test failure, like a defect not caught. */
export function unproven(rows: readonly RuleProofRow[]): RuleProofRow[] {
  return rows.filter((r) => r.mutation !== undefined && !r.proven && !r.skipped);
}

/** Totals of the proof rows: a rule counts as proven when a defect or its mutation proves it. */
export function summarizeProof(rows: RuleProofRow[], durationMs = 0): ProofSummary {
  const proven = rows.filter((r) => r.proven || r.defects.length > 0).length;
  return {
    rules: rows,
    closed: rows.length,
    by_defect: rows.filter((r) => r.defects.length > 0).length,
    by_mutation: rows.filter((r) => r.proven).length,
    proven,
    share: rows.length ? proven / rows.length : 0,
    mutation_run_ms: durationMs,
  };
}

/**
 * The proof's summary for the terminal: the share proven, then each registered mutation that did not prove its rule.
 *
 * @example
 * proofLines(summary) // ['rules proven able to fail: 330/330 (100%): 97 by a defect, 330 by a mutation']
 */
export function proofLines(p: ProofSummary): string[] {
  const head =
    `rules proven able to fail: ${p.proven}/${p.closed} (${Math.round(p.share * 100)}%): ${p.by_defect} by a defect, ${p.by_mutation} by a ` +
    `mutation (mutation run ${(p.mutation_run_ms / 1000).toFixed(1)} s)`;
  return [head, ...unproven(p.rules).map((r) => `  mutation of ${r.rule} (${r.mutation}) did not prove it: ${r.why}`)];
}
