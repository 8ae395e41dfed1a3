import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../src/cli/root.js';
import { explain, ruleIndex, rulesMarkdown } from '../src/cli/rule-index.js';
import { ruleList } from '../src/contract/index.js';
import { dialtone } from './run-cli.js';

const index = await ruleIndex(ROOT);

describe('the rule index', () => {
  it('is what docs/rules.md holds (regenerate with: npx dialtone rules --markdown > docs/rules.md)', () => {
    expect(readFileSync(`${ROOT}docs/rules.md`, 'utf8')).toBe(rulesMarkdown(index));
  });

  it('comes whole through a pipe, past the 64 KiB a pipe holds', async () => {
    const r = await dialtone(['rules', '--markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(65_536);
    expect(r.stdout).toBe(readFileSync(`${ROOT}docs/rules.md`, 'utf8'));
  });

  it('finds the case of every rule, at the line that declares it', () => {
    for (const r of ruleList) {
      const place = index.get(r.id)?.cases[0];
      expect(place, r.id).toBeDefined();
      const [file, line] = (place as string).split(':');
      expect(readFileSync(`${ROOT}${file}`, 'utf8').split('\n')[Number(line) - 1], r.id).toContain(`'${r.id}'`);
    }
  });

  it('walks a rule to the target route that serves the exchange its mutation rewrites', () => {
    const e = index.get('agents.branch.create');
    expect(e?.target.map((t) => t.via)).toContain('route of POST /v1/agents/*/branches');
    const place = e?.target.find((t) => t.via.startsWith('route of'))?.place as string;
    const [file, line] = place.split(':');
    expect(readFileSync(`${ROOT}${file}`, 'utf8').split('\n')[Number(line) - 1]).toContain("'/:agentId/branches'");
  });

  it('walks a rule with a defect to the target line that switches it', () => {
    const e = index.get('chat.close.success-true');
    const text = explain(e as NonNullable<typeof e>, 'pass');
    expect(text).toContain('conformance/chat/close.test.ts:');
    expect(text).toMatch(/src\/reference-target\/chat\/routes\.ts:\d+ {2}\(defect chat-close-success-false\)/);
    expect(text).toContain('PUT chat/close with a JSON body holding conversation_id');
  });
});
