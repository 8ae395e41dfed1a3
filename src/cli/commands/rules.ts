import { join } from 'node:path';
import { Rules } from '../../contract/index.js';
import { UsageError } from '../../errors.js';
import { parse } from '../args.js';
import { audit, auditText } from '../audit.js';
import { ROOT } from '../root.js';
import { explain, lastOutcomes, ruleIndex, rulesMarkdown } from '../rule-index.js';

export const usage = `dialtone rules [--explain ID] [--markdown] [--audit] [--report-dir DIR]
  Lists the documented rules, one line each. --explain ID walks one rule: its document, section and sentence, the spec
  names its case uses, the target code that obeys it (file:line), its case (file:line), what breaks it, and its last
  outcome (from DIR/conformance/results.json). --markdown prints the table of docs/rules.md. --audit prints, for every
  documented request field of every operation, the case that shows its effect (or why it cannot be observed); for every
  credential rule, each operation it covers and its case; for every documented event field, each delivery path and its
  case; then the counts per kind (exit 1 when a row has neither a case nor a reason).
  Exit 0, or 2 for an unknown rule id.`;

/** Lists, explains, or prints the markdown table of the rule index. */
export async function rules(argv: string[]): Promise<number> {
  const { values } = parse('rules', argv, {
    explain: { type: 'string' },
    markdown: { type: 'boolean' },
    audit: { type: 'boolean' },
    'report-dir': { type: 'string' },
  });
  const id = values.explain;
  if (id !== undefined && !Object.hasOwn(Rules, id)) throw new UsageError(`rules: --explain: no rule '${id}' (list them with: dialtone rules)`);
  const index = await ruleIndex(ROOT);
  if (values.audit) {
    const lines = audit(index);
    process.stdout.write(auditText(lines, index));
    return lines.some((l) => l.problem) ? 1 : 0;
  }
  if (values.markdown) {
    process.stdout.write(rulesMarkdown(index));
    return 0;
  }
  if (id !== undefined) {
    const outcomes = lastOutcomes(join(values['report-dir'] ?? 'reports', 'conformance', 'results.json'));
    const entry = index.get(id);
    if (entry) console.log(explain(entry, outcomes.get(id)));
    return 0;
  }
  for (const e of index.values()) console.log(`${e.rule.id}  ${e.cases[0] ?? '(no case)'}  ${e.rule.statement}`);
  return 0;
}
