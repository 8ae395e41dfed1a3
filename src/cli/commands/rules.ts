import { join } from 'node:path';
import { Rules } from '../../contract/index.js';
import { EXIT, UsageError } from '../../errors.js';
import { audit, auditText } from '../audit.js';
import { defineCommand, parseCommand } from '../command.js';
import { REPORT_DIR_FLAG } from '../flags.js';
import { ROOT } from '../root.js';
import { explain, lastOutcomes, ruleIndex, rulesMarkdown } from '../rule-index.js';

export const spec = defineCommand({
  name: 'rules',
  summary: 'lists the documented rules, or walks one from its sentence to its case and its last outcome',
  description: 'Lists the documented rules, one line each.',
  flags: {
    explain: {
      type: 'string',
      value: 'ID',
      help: 'walks one rule: its document, section and sentence, the spec names its case uses, the target code that obeys it (file:line), its case (file:line), what breaks it, and its last outcome (from DIR/conformance/results.json).',
    },
    markdown: { type: 'boolean', help: 'prints the table of docs/rules.md.' },
    audit: {
      type: 'boolean',
      help: 'prints, for every documented request field of every operation, the case that shows its effect (or why it cannot be observed); for every credential rule, each operation it covers and its case; for every documented event field, each delivery path and its case; then the counts per kind.',
    },
    'report-dir': { ...REPORT_DIR_FLAG, help: 'where --explain reads the last outcome from.' },
  },
  exits: {
    [EXIT.ok]: 'listed',
    [EXIT.failed]: 'under --audit, a row has neither a case nor a reason',
    [EXIT.usage]: 'an unknown rule id, or another usage error',
  },
});

/** Lists, explains, or prints the markdown table of the rule index. */
export async function rules(argv: string[]): Promise<number> {
  const { values } = parseCommand(spec, argv);
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
