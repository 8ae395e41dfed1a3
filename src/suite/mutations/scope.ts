import type { MutationScope } from '../../clients/mutation.js';
import type { CaseMeta } from '../meta.js';
import { compile, type MutationSpec, mutationKey } from './spec.js';

/**
 * The mutation scope of one case: in a proof run, the mutation registered for the case's own rule (and nothing for
 * other rules' cases); in a tracing run, an empty scope that records what passed. Open rules are never mutated.
 *
 * @example
 * const scope = mutationScope('chat.close.success-true', false, { 'chat.close.success-true': spec }, meta);
 */
export function mutationScope(
  rule: string,
  open: boolean,
  mutations: Record<string, MutationSpec> | 'trace' | undefined,
  meta: CaseMeta,
  operation?: string,
): MutationScope {
  if (mutations === 'trace') {
    const trace: NonNullable<CaseMeta['trace']> = [];
    meta.trace = trace;
    return { mutation: undefined, applied: 0, trace };
  }
  const spec = open ? undefined : (mutations?.[mutationKey(rule, operation)] ?? mutations?.[rule]);
  if (!spec) return { mutation: undefined, applied: 0 };
  meta.mutation = { spec, applied: 0 };
  return { mutation: compile(spec), applied: 0 };
}
