import { EXIT, UsageError } from '../../errors.js';
import { json, markdown, textLines } from '../../licenses/report.js';
import { walkTree } from '../../licenses/tree.js';
import { forbiddenLine, judgeTree } from '../../licenses/verdict.js';
import { defineCommand, parseCommand } from '../command.js';
import { ROOT } from '../root.js';

export const spec = defineCommand({
  name: 'licenses',
  summary: 'lists every package dialtone installs with its licence, and refuses AGPL, GPL and SSPL',
  description: `Lists dialtone's licence and, one line each (sorted, once per name@version), every package it installs with the
  licence it states: its dependencies as installed, resolved as Node resolves them (hoisted or nested). A package whose
  package.json names no licence shows 'UNKNOWN (see FILE)'. A missing required dependency is reported and does not
  change the exit code.`,
  flags: {
    json: { type: 'boolean', help: 'prints one JSON value.' },
    markdown: { type: 'boolean', help: 'prints a THIRD_PARTY.md.' },
    dev: { type: 'boolean', help: "adds dialtone's own devDependencies (for its repository)." },
  },
  exits: {
    [EXIT.ok]: 'listed, and nothing may not ship',
    [EXIT.failed]: "a package's licence is AGPL, GPL or SSPL in every alternative it offers (one line each says which)",
  },
});

/**
 * Prints the licences of everything dialtone installs; exit 1 when any of it may not ship with dialtone. `root` is the
 * package whose tree is walked (dialtone's own; tests hand in another).
 */
export async function licenses(argv: string[], root: string = ROOT): Promise<number> {
  const { values } = parseCommand(spec, argv);
  if (values.json && values.markdown) throw new UsageError('licenses: --json and --markdown are two formats; choose one');
  const dev = values.dev ?? false;
  const tree = walkTree(root, { dev });
  const { verdicts, forbidden } = judgeTree(tree);
  const report = { tree, verdicts, dev };
  if (values.json) console.log(JSON.stringify(json(report), null, 2));
  else if (values.markdown) process.stdout.write(markdown(report));
  else for (const line of textLines(report)) console.log(line);
  for (const m of tree.missing) console.error(`dialtone licenses: missing: ${m.name} (required by ${m.requiredBy}): ${m.problem}`);
  for (const v of forbidden) if (v.verdict === 'forbidden') console.error(forbiddenLine(v));
  return forbidden.length > 0 ? 1 : 0;
}
