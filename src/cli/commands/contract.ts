import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { contractFiles } from '../../contract/exporter.js';
import { EXIT } from '../../errors.js';
import { REFERENCE_TARGET_OPENAPI, referenceTargetContract } from '../../reference-target/contract.js';
import { defineCommand, parseCommand } from '../command.js';

export const spec = defineCommand({
  name: 'contract',
  summary: 'writes the OpenAPI and AsyncAPI documents generated from the contract',
  description: `Writes the contract generated from src/contract: DIR/openapi.json (OpenAPI 3.1, every HTTP surface, alert deliveries as
  webhooks) and DIR/asyncapi-messaging.json, DIR/asyncapi-voice.json (AsyncAPI 3, the two sockets). Beside them
  DIR/${REFERENCE_TARGET_OPENAPI}: the reference target's contract, openapi.json plus the paths it serves where the
  documents are silent (each x-dialtone-not-shown, the document's sentence quoted, only a default response); for a
  validator in front of the reference target, never a platform's contract.`,
  flags: { out: { type: 'string', value: 'DIR', help: 'where the documents go.', default: 'docs/contract' } },
  exits: { [EXIT.ok]: 'written' },
});

/** Writes the OpenAPI and AsyncAPI files, and the reference target's OpenAPI file. */
export async function contract(argv: string[]): Promise<number> {
  const { values } = parseCommand(spec, argv);
  const dir = resolve(values.out);
  mkdirSync(dir, { recursive: true });
  const files = { ...contractFiles(), [REFERENCE_TARGET_OPENAPI]: await referenceTargetContract() };
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
    console.log(`wrote ${relative(process.cwd(), join(dir, name)) || join(dir, name)}`);
  }
  return 0;
}
