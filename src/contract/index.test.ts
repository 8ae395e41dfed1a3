import { describe, expect, it } from 'vitest';
import { Rules, ruleList } from './index.js';
import { Rule } from './rule.js';

describe('the rule catalogue', () => {
  it('holds only rules that parse with the Rule schema', () => {
    for (const r of ruleList) expect(Rule.safeParse(r).error?.issues ?? [], r.id).toEqual([]);
  });

  it('gives every rule an id that starts with its own surface', () => {
    for (const r of ruleList) expect(r.id.startsWith(`${r.surface}.`), r.id).toBe(true);
  });

  it('marks every open rule with the open kind and only those', () => {
    for (const r of ruleList) expect(r.open === true, r.id).toBe(r.kind === 'open');
  });

  it('has no two rules with the same id across surfaces', () => {
    const modules = ruleList.map((r) => r.id);
    expect(new Set(modules).size).toBe(modules.length);
    expect(Object.keys(Rules).length).toBe(modules.length);
  });

  it('covers all three documents', () => {
    expect(new Set(ruleList.map((r) => r.doc))).toEqual(new Set([1, 2, 3]));
  });
});
