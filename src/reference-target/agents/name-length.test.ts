import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentsClient } from '../../clients/agents.js';
import { AGENT_NAME_MAX, AgentsErrors } from '../../contract/agents/shapes.js';
import type { DefectId } from '../defects.js';
import { type RunningTarget, startTarget } from '../server.js';

// Agent names are 1 to 128 characters: counted as Unicode code points, whatever script or plane, never in bytes or
// UTF-16 units; one defect counts UTF-8 bytes.

const of = (ch: string, n: number) => ch.repeat(n);
const SCRIPTS: readonly [string, string][] = [
  ['ASCII', 'm'],
  ['Cyrillic (2 bytes each)', 'ж'],
  ['CJK (3 bytes each)', '語'],
  ['astral (4 bytes, 2 UTF-16 units each)', '😀'],
];

function withTarget(defects: DefectId[]) {
  const s = {} as { target: RunningTarget; agents: AgentsClient };
  beforeAll(async () => {
    s.target = await startTarget({ defects });
    s.agents = new AgentsClient(s.target.loaded);
  });
  afterAll(async () => {
    await s.target?.close();
  });
  return s;
}

describe('agent names counted in characters', () => {
  const s = withTarget([]);

  it.each(SCRIPTS)(`accepts ${AGENT_NAME_MAX} characters of %s and refuses ${AGENT_NAME_MAX + 1}`, async (_script, ch) => {
    const ok = await s.agents.createAgent({ name: of(ch, AGENT_NAME_MAX), description: 'longest name' });
    expect(ok.status).toBe(201);
    expect((ok.json as { name?: string }).name).toBe(of(ch, AGENT_NAME_MAX));
    const long = await s.agents.createAgent({ name: of(ch, AGENT_NAME_MAX + 1), description: 'one too long' });
    expect([long.status, long.json]).toEqual([400, { message: expect.any(String), errors: [{ field: 'name', message: AgentsErrors.NAME_LENGTH.text }] }]);
  });

  it('refuses an empty name with the same message', async () => {
    const res = await s.agents.createAgent({ name: '', description: 'empty' });
    expect([res.status, res.json]).toEqual([400, { message: expect.any(String), errors: [{ field: 'name', message: AgentsErrors.NAME_LENGTH.text }] }]);
  });
});

describe('the defect agents-name-counted-in-bytes', () => {
  const s = withTarget(['agents-name-counted-in-bytes']);

  it(`refuses ${AGENT_NAME_MAX} Cyrillic or CJK characters with the documented message, while ${AGENT_NAME_MAX} ASCII pass`, async () => {
    expect((await s.agents.createAgent({ name: of('m', AGENT_NAME_MAX), description: 'ascii' })).status).toBe(201);
    for (const ch of ['ж', '語']) {
      const res = await s.agents.createAgent({ name: of(ch, AGENT_NAME_MAX), description: 'non-Latin' });
      expect([res.status, res.json]).toEqual([400, { message: expect.any(String), errors: [{ field: 'name', message: AgentsErrors.NAME_LENGTH.text }] }]);
    }
  });
});
