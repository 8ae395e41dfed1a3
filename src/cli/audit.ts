import type { DeliveryPath, Shown, SurfaceAudit } from '../contract/audit.js';
import { requestFields } from '../contract/exporter.js';
import { Audits, isRuleId, Rules, ruleList } from '../contract/index.js';
import type { Surface } from '../contract/rule.js';
import { Proofs } from '../suite/mutations/index.js';
import type { RuleEntry } from './rule-index.js';

/** A rule is a credential rule when its id names authentication (`<surface>.auth.…`) or an access token's or socket's credential check. */
const CREDENTIAL_RULE =
  /\.auth\.|^messaging\.(access-token\.(missing-headers|connector-token-not-found|validate-connector-failed)|session\.(missing-|invalid-access)|ws\.(auth-|token-))|^voice\.ice-servers\.(unauthorized|auth-required)$/;

/** One line of the audit: a kind, what is placed, and where it is shown (or the problem when it is not). */
export interface AuditLine {
  readonly kind: 'field' | 'credential' | 'event';
  readonly what: string;
  readonly shown: Shown | undefined;
  /** Why the line is a defect of the audit itself (an unknown case, no reason, no mutation for an operation). */
  readonly problem?: string;
}

const reasonOf = (s: Shown) => ('observed' in s ? s.observed : 'gap' in s ? s.gap : undefined);

/** The problem with a `shown`, if any: a case that names no rule with a case, or an empty reason. */
function problemOf(shown: Shown | undefined, index: ReadonlyMap<string, RuleEntry>): string | undefined {
  if (!shown) return 'no case and no reason';
  if ('case' in shown) {
    if (!isRuleId(shown.case)) return `names no rule '${shown.case}'`;
    if (Rules[shown.case].open) return `'${shown.case}' is open ("not shown"): it cannot fail, so it shows no effect`;
    return index.get(shown.case)?.cases.length ? undefined : `rule '${shown.case}' has no case`;
  }
  return reasonOf(shown)?.trim() ? undefined : 'a reason that is empty';
}

/** The rows of every documented request field: each field of `requestFields()` placed by some surface's audit. */
function fieldLines(audits: readonly SurfaceAudit[], index: ReadonlyMap<string, RuleEntry>): AuditLine[] {
  const placed = new Map<string, Shown>(audits.flatMap((a) => a.fields.map((f) => [`${f.operation} ${f.field}`, f.shown] as const)));
  const documented = new Set<string>(requestFields().flatMap((o) => o.fields.map((f) => `${o.operation} ${f}`)));
  const unknown = [...placed.keys()].filter((k) => !documented.has(k));
  return [
    ...[...documented].map((what) => {
      const shown = placed.get(what);
      const problem = problemOf(shown, index);
      return { kind: 'field' as const, what, shown, ...(problem ? { problem } : {}) };
    }),
    ...unknown.map((what) => ({ kind: 'field' as const, what, shown: placed.get(what), problem: 'no documented operation has this field' })),
  ];
}

/** The rows of every credential rule and operation it covers, each with its case and a mutation of its own. */
function credentialLines(audits: readonly SurfaceAudit[], index: ReadonlyMap<string, RuleEntry>): AuditLine[] {
  const rows = audits.flatMap((a) => a.credentials);
  const listed = new Set(rows.map((r) => r.rule));
  const missing = ruleList.filter((r) => CREDENTIAL_RULE.test(r.id) && !r.open && !listed.has(r.id));
  return [
    ...rows.flatMap((row) =>
      row.operations.map((operation, i): AuditLine => {
        const shown = { case: row.rule };
        const proof = isRuleId(row.rule) ? Proofs[row.rule] : undefined;
        const proven = proof && 'mutation' in proof && (i === 0 || proof.operations?.[operation] !== undefined);
        const problem = problemOf(shown, index) ?? (proven ? undefined : 'no mutation of its own proves this operation able to fail');
        return { kind: 'credential', what: `${row.rule} on ${operation}`, shown, ...(problem ? { problem } : {}) };
      }),
    ),
    ...missing.map((r): AuditLine => ({ kind: 'credential', what: r.id, shown: undefined, problem: 'a credential rule no audit row lists' })),
  ];
}

/** The rows of every documented event field and every path it travels. */
function eventLines(audits: readonly SurfaceAudit[], index: ReadonlyMap<string, RuleEntry>): AuditLine[] {
  return audits.flatMap((a) =>
    a.events.flatMap((e) =>
      (a.eventPaths ?? []).map((path: DeliveryPath): AuditLine => {
        const shown = e.paths[path];
        const problem = problemOf(shown, index);
        return { kind: 'event', what: `${e.event} ${e.field} (${path})`, shown, ...(problem ? { problem } : {}) };
      }),
    ),
  );
}

/**
 * The coverage audit: every documented request field of every operation, every credential rule on every operation it
 * covers, every documented event field on every path it travels, each with the case that shows it or the reason it
 * cannot be observed (or is a known gap). `audits` defaults to every surface's (`src/contract/<surface>/audit.ts`).
 *
 * @example
 * audit(await ruleIndex(ROOT)).filter((l) => l.problem) // [] when every row is placed
 */
export function audit(index: ReadonlyMap<string, RuleEntry>, audits: Readonly<Partial<Record<Surface, SurfaceAudit>>> = Audits): AuditLine[] {
  const all = Object.values(audits);
  return [...fieldLines(all, index), ...credentialLines(all, index), ...eventLines(all, index)];
}

/** Counts per kind: rows shown by a case, placed with a reason that they cannot be observed, known gaps, and problems. */
export function auditCounts(lines: readonly AuditLine[]): Record<AuditLine['kind'], { case: number; observed: number; gap: number; problem: number }> {
  const out = {
    field: { case: 0, observed: 0, gap: 0, problem: 0 },
    credential: { case: 0, observed: 0, gap: 0, problem: 0 },
    event: { case: 0, observed: 0, gap: 0, problem: 0 },
  };
  for (const l of lines) {
    const c = out[l.kind];
    if (l.problem || !l.shown) c.problem++;
    else if ('case' in l.shown) c.case++;
    else if ('observed' in l.shown) c.observed++;
    else c.gap++;
  }
  return out;
}

const SAYS: Record<AuditLine['kind'], string> = {
  field: 'request fields of every operation',
  credential: 'credential rules x operations they cover',
  event: 'event fields x delivery paths',
};

/** The audit as text: one line per row (`case`, `observed`, `gap` or `PROBLEM`), then the counts per kind. */
export function auditText(lines: readonly AuditLine[], index: ReadonlyMap<string, RuleEntry>): string {
  const row = (l: AuditLine) => {
    if (l.problem || !l.shown) return `PROBLEM   ${l.what}: ${l.problem}`;
    if ('case' in l.shown) return `case      ${l.what}: ${l.shown.case} (${index.get(l.shown.case)?.cases[0] ?? '?'})`;
    return `${'observed' in l.shown ? 'observed' : 'gap     '}  ${l.what}: ${reasonOf(l.shown)}`;
  };
  const counts = auditCounts(lines);
  const kinds = Object.keys(SAYS) as AuditLine['kind'][];
  return [
    ...kinds.flatMap((k) => [`# ${SAYS[k]}`, ...lines.filter((l) => l.kind === k).map(row), '']),
    ...kinds.map((k) => {
      const c = counts[k];
      return `${SAYS[k]}: ${c.case} shown by a case, ${c.observed} not observable (reason given), ${c.gap} known gaps (reason given), ${c.problem} problems`;
    }),
    '',
  ].join('\n');
}
