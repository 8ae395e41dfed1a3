import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../src/cli/root.js';
import { explain, ruleIndex, rulesMarkdown } from '../src/cli/rule-index.js';
import { ruleList } from '../src/spec/index.js';

describe('the rule index', () => {
  const index = ruleIndex(ROOT);

  it('is what docs/rules.md holds (regenerate with: npx dialtone rules --markdown > docs/rules.md)', () => {
    expect(readFileSync(`${ROOT}docs/rules.md`, 'utf8')).toBe(rulesMarkdown(index));
  });

  it('finds the case of every rule, at the line that declares it', () => {
    for (const r of ruleList) {
      const place = index.get(r.id)?.cases[0];
      expect(place, r.id).toBeDefined();
      const [file, line] = (place as string).split(':');
      expect(readFileSync(`${ROOT}${file}`, 'utf8').split('\n')[Number(line) - 1], r.id).toContain(`'${r.id}'`);
    }
  });

  it('walks a rule with a defect to the target line that switches it', () => {
    const e = index.get('chat.close.success-true');
    const text = explain(e as NonNullable<typeof e>, 'pass');
    expect(text).toContain('conformance/chat/close.test.ts:');
    expect(text).toMatch(/src\/target\/chat\/routes\.ts:\d+ {2}\(defect chat-close-success-false\)/);
    expect(text).toContain('PUT chat/close with a JSON body holding conversation_id');
  });
});
