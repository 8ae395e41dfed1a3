import { Rules } from '../../contract/index.js';
import type { Surface } from '../../contract/rule.js';
import { rule } from '../case.js';
import { derivedRequestChecks, opKey, type Sender } from './requests.js';

/**
 * Declares the derived request cases of one surface: for each documented operation whose requests carry a requirement
 * (a required header, a field with a documented bound or length), cases that send it broken and at its edges, each a
 * case of the rule that states the requirement. `senders` gives each such operation a valid request; an operation
 * without one is a gap the contract test names.
 *
 * @example
 * deriveRequestCases('messaging', { 'POST /api/v1/access-token': (api, c) => api.t.messaging.accessToken({ headers: c.headers }) });
 */
export function deriveRequestCases(surface: Surface, senders: Readonly<Record<string, Sender>>): void {
  for (const d of derivedRequestChecks()) {
    if (Rules[d.rule].surface !== surface) continue;
    const send = senders[opKey(d.op)];
    if (!send) throw new Error(`derived request checks: no sender for ${opKey(d.op)} in conformance/${surface}`);
    rule(d.rule, `derived: ${d.title}`, (api) => d.body(api, send), { operation: d.operation });
  }
}
