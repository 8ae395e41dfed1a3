import { Rules } from '../contract/index.js';
import type { Rule } from '../contract/rule.js';
import type { CaseResult, RuleOutcome, RuleResult, Totals } from '../report/results.js';
import type { CollectedCase } from './reporter.js';

/**
 * The report's order of cases: the catalogue's order of their rules, then file, then the order a file declares its
 * cases in (for a stable sort): the same order whichever worker ran a file and whenever its cases ended.
 *
 * @example
 * cases.sort(reportOrder(ruleList));
 */
export function reportOrder(rules: readonly Pick<Rule, 'id'>[]): (a: CaseResult, b: CaseResult) => number {
  const position = new Map(rules.map((r, i) => [r.id, i]));
  return (a, b) => (position.get(a.rule) ?? 0) - (position.get(b.rule) ?? 0) || a.file.localeCompare(b.file);
}

/** Turns collected vitest cases into report cases with a one-line detail each. */
export function toCaseResults(collected: readonly CollectedCase[]): CaseResult[] {
  return [...collected.map(caseResultOf), ...derivedResults(collected)];
}

function caseResultOf(c: CollectedCase): CaseResult {
  const m = c.meta;
  const f = m?.failure;
  const detail =
    c.outcome === 'fail'
      ? f
        ? `Received: ${f.received} / Documented: ${f.documented}`
        : (c.error ?? 'failed')
      : c.outcome === 'skip'
        ? (m?.skipReason ?? 'skipped')
        : c.outcome === 'observed'
          ? (m?.observed ?? []).join('; ')
          : m?.chosen
            ? `target chose: ${m.chosen}`
            : 'as documented';
  return {
    rule: m?.rule ?? c.title.split(' ')[0] ?? c.title,
    title: c.title,
    outcome: c.outcome,
    detail,
    file: c.file,
    duration_ms: Math.round(c.durationMs),
    ...(f ? { documented: f.documented, received: f.received, reproduce: f.reproduce } : {}),
    ...(m?.observed ? { observed: m.observed } : {}),
    ...(m?.chosen ? { chosen: m.chosen } : {}),
    ...(m?.timings ? { timings: m.timings } : {}),
    ...(m?.wire ? { wire: m.wire } : {}),
    ...(f ? { check: f.check } : {}),
    ...(m?.mutation ? { mutation: { ...m.mutation } } : {}),
    ...(m?.trace ? { trace: m.trace.map((x) => ({ ...x })) } : {}),
  };
}

/**
 * The checks derived from the contract, one result each across the run: every answer and event any case saw, judged
 * against its documented shape (`src/suite/derived`). It fails with the first answer that broke it and the case that
 * saw it; it is not reported when no case met what it checks.
 */
export function derivedResults(collected: readonly CollectedCase[]): CaseResult[] {
  const byKey = new Map<
    string,
    { rule: string; what: string; unit: string; seen: number; cases: number; failure?: { documented: string; received: string }; by?: string }
  >();
  for (const c of collected) {
    for (const d of c.meta?.derived ?? []) {
      const key = `${d.rule}|${d.what}`;
      const acc = byKey.get(key) ?? { rule: d.rule, what: d.what, unit: d.unit, seen: 0, cases: 0 };
      acc.seen += d.seen;
      acc.cases++;
      if (d.failure && !acc.failure) {
        acc.failure = d.failure;
        acc.by = c.title;
      }
      byKey.set(key, acc);
    }
  }
  return [...byKey.values()].map((d) => {
    const open = Rules[d.rule as keyof typeof Rules]?.open === true;
    const outcome = d.failure ? (open ? 'observed' : 'fail') : open ? 'observed' : 'pass';
    const counted = `${d.seen} ${d.unit}${d.seen === 1 ? '' : 's'} in ${d.cases} ${d.cases === 1 ? 'case' : 'cases'}`;
    return {
      rule: d.rule,
      title: `${d.rule} derived: ${d.what} (${counted})`,
      outcome,
      detail: d.failure ? `Received: ${d.failure.received} / Documented: ${d.failure.documented} (seen by ${d.by})` : `as documented, ${counted}`,
      file: 'derived',
      duration_ms: 0,
      ...(d.failure ? { documented: d.failure.documented, received: d.failure.received, check: 'derived', reproduce: [`seen by the case ${d.by}`] } : {}),
    };
  });
}

const RANK: Record<RuleOutcome, number> = { fail: 4, pass: 3, observed: 2, skip: 1, uncovered: 0 };

/** Each catalogue rule with the worst outcome of its cases (fail beats pass beats skip). */
export function toRuleResults(rules: readonly Rule[], cases: readonly CaseResult[]): RuleResult[] {
  const byRule = new Map<string, CaseResult[]>();
  for (const c of cases) byRule.set(c.rule, [...(byRule.get(c.rule) ?? []), c]);
  return rules.map((r) => {
    const mine = byRule.get(r.id) ?? [];
    let outcome: RuleOutcome = 'uncovered';
    for (const c of mine) if (RANK[c.outcome] > RANK[outcome]) outcome = c.outcome;
    const chosen = mine.find((c) => c.chosen)?.chosen;
    return {
      id: r.id,
      doc: r.doc,
      section: r.section,
      statement: r.statement,
      kind: r.kind,
      surface: r.surface,
      outcome,
      cases: mine.length,
      ...(chosen ? { chosen } : {}),
    };
  });
}

/** Case totals, plus the number of rules no case covers yet. */
export function totalsOf(cases: readonly CaseResult[], rules: readonly RuleResult[]): Totals {
  const t: Totals = { pass: 0, fail: 0, skip: 0, observed: 0, uncovered: 0 };
  for (const c of cases) t[c.outcome]++;
  t.uncovered = rules.filter((r) => r.outcome === 'uncovered').length;
  return t;
}
