import { describe, expect, it } from 'vitest';
import type { RuleProofRow } from '../report/results.js';
import { proofLines, summarizeProof, unproven, withDefects } from './proof.js';

const row = (over: Partial<RuleProofRow>): RuleProofRow => ({ rule: 'chat.close.success-true', surface: 'chat', defects: [], proven: false, ...over });

describe('the proof summary', () => {
  it('counts a rule proven by a defect or by its mutation, once', () => {
    const rows = withDefects(
      [row({ mutation: 'PUT /x #1: body emptied', proven: true }), row({ rule: 'chat.auth.headers-required', proven: false, reason: 'none' })],
      [{ id: 'chat-close-success-false', surface: 'chat', description: '', breaks: ['chat.close.success-true'], failed_rules: [], caught: true, exact: true }],
    );
    const s = summarizeProof(rows, 1500);
    expect([s.closed, s.by_defect, s.by_mutation, s.proven]).toEqual([2, 1, 1, 1]);
    expect(proofLines(s)[0]).toBe('rules proven able to fail: 1/2 (50%): 1 by a defect, 1 by a mutation (mutation run 1.5 s)');
  });

  it('reports a registered mutation that ran and did not prove its rule, but not one whose case was skipped', () => {
    const rows = [
      row({ mutation: 'PUT /x #1: body emptied', proven: false, why: 'its case still passed with the mutation armed' }),
      row({ rule: 'chat.auth.headers-required', mutation: 'POST /y #1: body emptied', proven: false, skipped: true }),
    ];
    expect(unproven(rows).map((r) => r.rule)).toEqual(['chat.close.success-true']);
    expect(proofLines(summarizeProof(rows))[1]).toContain('did not prove it: its case still passed');
  });
});
