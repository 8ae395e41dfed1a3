import { z } from 'zod';
import { RuleKind, Surface } from '../contract/rule.js';
import type { WaitName } from '../profile/schema.js';

/** How one case ended. `observed` is for what the documents leave open and never fails the gate. */
export const Outcome = z.enum(['pass', 'fail', 'skip', 'observed']);
export type Outcome = z.infer<typeof Outcome>;

/** How one rule stands: the worst of its cases, or `uncovered` when no case checks it yet. */
export const RuleOutcome = z.enum(['pass', 'fail', 'skip', 'observed', 'uncovered']);
export type RuleOutcome = z.infer<typeof RuleOutcome>;

export const CaseResult = z.object({
  rule: z.string(),
  title: z.string(),
  outcome: Outcome,
  /** One line: the failure (Received / Documented), the skip reason, or what was observed. */
  detail: z.string(),
  file: z.string(),
  duration_ms: z.number(),
  documented: z.string().optional(),
  received: z.string().optional(),
  reproduce: z.array(z.string()).optional(),
  observed: z.array(z.string()).optional(),
  chosen: z.string().optional(),
  timings: z.record(z.string(), z.number()).optional(),
  wire: z.array(z.object({ request: z.string(), response: z.string(), ms: z.number() })).optional(),
  /** The named check that failed (status, schema, equal, that, …; `error` when the case crashed instead). */
  check: z.string().optional(),
  /** The mutation proof: the mutation armed in this case and how often it rewrote an answer. */
  mutation: z.object({ spec: z.unknown(), applied: z.number() }).optional(),
  /** A tracing run: what passed the mutation hook (HTTP answers and received frames), in order. */
  trace: z.array(z.record(z.string(), z.unknown())).optional(),
});
export type CaseResult = z.infer<typeof CaseResult>;

export const RuleResult = z.object({
  id: z.string(),
  doc: z.number(),
  section: z.string(),
  statement: z.string(),
  kind: RuleKind,
  surface: Surface,
  /** `not_run`: a stop signal ended the gate before any case of the rule finished (never skipped, never covered). */
  outcome: z.union([RuleOutcome, z.literal('not_run')]),
  cases: z.number(),
  chosen: z.string().optional(),
});
export type RuleResult = z.infer<typeof RuleResult>;

export const Totals = z.object({
  pass: z.number(),
  fail: z.number(),
  skip: z.number(),
  observed: z.number(),
  uncovered: z.number(),
  /** An interrupted gate: the rules no case of which finished. */
  not_run: z.number().optional(),
});
export type Totals = z.infer<typeof Totals>;

/** One defect's self-test verdict: which rules failed against which the defect breaks. */
export const DefectVerdict = z.object({
  id: z.string(),
  surface: Surface,
  description: z.string(),
  breaks: z.array(z.string()),
  failed_rules: z.array(z.string()),
  caught: z.boolean(),
  /** True when exactly the broken rules failed, no others. */
  exact: z.boolean(),
  /** The cases of rules the defect does not break that failed anyway, each with its one-line detail: what to look at. */
  unexpected: z.array(z.object({ rule: z.string(), detail: z.string() })).optional(),
  /**
   * Set when the first run also failed other rules and the defect was run again by itself (the verdict is the second
   * run's): the first run's failures that did not come back, with their details.
   */
  beside_others: z.array(z.object({ rule: z.string(), detail: z.string() })).optional(),
  /** The time its surface's cases took against its target (summed over the cases, in a run it may share with other surfaces). */
  duration_ms: z.number().optional(),
});
export type DefectVerdict = z.infer<typeof DefectVerdict>;

/**
 * How one documented rule is proven able to fail: by the defects of the reference target that break it (caught
 * exactly), and by its wire-level mutation (its case failed on a named check with the mutation armed). `reason` says
 * why a rule has no mutation; `why` says why a registered mutation did not prove it in this run.
 */
export const RuleProofRow = z.object({
  rule: z.string(),
  surface: Surface,
  defects: z.array(z.string()),
  mutation: z.string().optional(),
  /** The mutation proved the rule in this run. */
  proven: z.boolean(),
  /** The rule's case was skipped in this run (a real environment without the control surface, for example). */
  skipped: z.boolean().optional(),
  check: z.string().optional(),
  documented: z.string().optional(),
  why: z.string().optional(),
  reason: z.string().optional(),
});
export type RuleProofRow = z.infer<typeof RuleProofRow>;

/** The proof section: every documented rule's row, and how many are proven by either means. */
export const ProofSummary = z.object({
  rules: z.array(RuleProofRow),
  closed: z.number(),
  by_defect: z.number(),
  by_mutation: z.number(),
  proven: z.number(),
  share: z.number(),
  /** How long the one run with every rule's mutation armed took. */
  mutation_run_ms: z.number(),
});
export type ProofSummary = z.infer<typeof ProofSummary>;

/** results.json: the machine-readable record of one conformance run. */
/** A wait the run used: its length, and whether the profile named it or it was the default. */
const WaitUsed = z.object({ ms: z.number(), source: z.enum(['profile', 'default']) });

/** The waits a run reports, one for each wait a profile names: its field in `target` and its label. */
export const WAITS_REPORTED: Readonly<Record<WaitName, { readonly field: 'agent_reply_wait' | 'case_wait'; readonly label: string }>> = {
  agent_reply_ms: { field: 'agent_reply_wait', label: 'Agent reply wait' },
  case_ms: { field: 'case_wait', label: 'Case bound' },
};

export const Results = z.object({
  tool: z.literal('dialtone'),
  /** dialtone's version (package.json); absent in reports older than 0.1.0's package. */
  tool_version: z.string().optional(),
  kind: z.literal('conformance'),
  started_at: z.string(),
  duration_ms: z.number(),
  target: z.object({
    name: z.string(),
    kind: z.string(),
    environment: z.string(),
    hosts: z.record(z.string(), z.string()),
    /** How certificates were trusted: the system store, a CA file, or not at all (`insecure`, shown loudly). */
    tls: z.object({ ca_file: z.string().nullable(), insecure: z.boolean() }).optional(),
    /** The names the documents leave out, as this run spelled them (the profile's `names`, or the reference's). */
    names: z.record(z.string(), z.unknown()).optional(),
    /** How long cases waited for the agent on a socket, and whether the profile said so or it was the default. */
    agent_reply_wait: WaitUsed.optional(),
    /** How long one case could take in all (the profile's waits.case_ms, or the default). */
    case_wait: WaitUsed.optional(),
  }),
  filter: z.string().nullable(),
  gate: z.enum(['pass', 'fail']),
  totals: Totals,
  cases: z.array(CaseResult),
  rules: z.array(RuleResult),
  errors: z.array(z.string()),
  /** Things a case created on the target and could not delete (a real account's limits): ids, by kind. */
  left_behind: z.array(z.object({ kind: z.string(), id: z.string(), rule: z.string() })).optional(),
  selftest: z.object({ defects: z.array(DefectVerdict), caught: z.number(), total: z.number(), mutation_score: z.number() }).optional(),
  /** With --selftest: per documented rule, whether (and by what) it is proven able to fail. */
  proof: ProofSummary.optional(),
  /** A stop signal ended the run early: the cases that finished are reported, the gate fails, and these rules got no finished case. */
  interrupted: z.object({ signal: z.string(), at: z.string(), rules_not_run: z.array(z.string()) }).optional(),
});
export type Results = z.infer<typeof Results>;
