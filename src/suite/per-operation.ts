import type { CredentialCoverage } from '../contract/audit.js';
import type { RuleId } from '../contract/index.js';
import { type CaseApi, rule } from './case.js';

/** What one credential rule checks on an operation: the sentence of its cases and the body run for each operation. */
export interface PerOperationCase<Op extends string> {
  readonly sentence: string;
  readonly body: (api: CaseApi, operation: Op) => Promise<void>;
}

/**
 * Declares one case per credential rule and per operation it covers, from a surface audit's rows (`src/contract/<surface>/audit.ts`),
 * so the audit and the cases cannot drift apart. Each case is titled `<id> <sentence> on <operation>` and gets that
 * operation's registered mutation (`RuleProof.operations`).
 *
 * @example
 * perOperation(ChatAudit.credentials, { 'chat.auth.headers-required': { sentence: 'rejects …', body: async (api, op) => {…} } });
 */
export function perOperation<R extends RuleId, Op extends string>(
  rows: readonly CredentialCoverage<R, Op>[],
  cases: { readonly [K in R]: PerOperationCase<Op> },
): void {
  for (const { rule: id, operations } of rows) {
    const { sentence, body } = cases[id];
    for (const operation of operations) rule(id, `${sentence} on ${operation}`, (api) => body(api, operation), { operation });
  }
}
