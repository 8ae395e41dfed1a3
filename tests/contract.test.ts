import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../src/cli/root.js';
import { contractFiles } from '../src/contract/exporter.js';

const files = contractFiles();

describe('the exported contract', () => {
  it('is what docs/contract holds (regenerate with: npx dialtone contract)', () => {
    for (const [name, text] of Object.entries(files)) expect(readFileSync(`${ROOT}docs/contract/${name}`, 'utf8'), name).toBe(text);
  });

  it('is valid OpenAPI 3.1 for the HTTP surfaces, with every documented operation', async () => {
    const doc = JSON.parse(files['openapi.json'] as string);
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(doc.paths)).toContain('/api/v1/ice-servers');
    expect(doc.paths['/{version}/{account_id}/{project_id}/chat/close'].put.requestBody.content['application/json'].schema.required).toEqual([
      'conversation_id',
    ]);
  });

  it('rejects a broken OpenAPI document, so the validation can fail', async () => {
    const doc = JSON.parse(files['openapi.json'] as string);
    doc.paths['/api/v1/ice-servers'].get.responses = 'none';
    expect((await new Validator().validate(doc)).valid).toBe(false);
  });

  it('is valid AsyncAPI 3 for both sockets, and a broken one is not', async () => {
    const parser = new Parser();
    for (const name of ['asyncapi-messaging.json', 'asyncapi-voice.json']) {
      const { diagnostics } = await parser.parse(files[name] as string);
      expect(
        diagnostics.filter((d) => d.severity === 0).map((d) => d.message),
        name,
      ).toEqual([]);
    }
    const broken = JSON.parse(files['asyncapi-voice.json'] as string);
    broken.operations.send.action = 'publish';
    const { diagnostics } = await parser.parse(JSON.stringify(broken));
    expect(diagnostics.filter((d) => d.severity === 0).length).toBeGreaterThan(0);
  });
});
