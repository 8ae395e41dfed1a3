import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformancePage } from '../report/conformance-page.js';
import { writeIndexPage } from '../report/index-page.js';
import { junitXml } from '../report/junit.js';
import type { CaseResult, Results, RuleResult } from '../report/results.js';
import { interruptedResults } from './gate-report.js';

const at = '2026-11-28T19:00:00.000Z';
const rule = (id: string, outcome: RuleResult['outcome'], cases = 1): RuleResult => ({
  id,
  doc: 1,
  section: 's',
  statement: `${id} holds`,
  kind: 'field',
  surface: 'chat',
  outcome,
  cases,
});
const kase = (r: string, outcome: CaseResult['outcome'], detail: string): CaseResult => ({
  rule: r,
  title: `${r} case`,
  outcome,
  detail,
  file: 'f.ts',
  duration_ms: 1,
});

// A gate cut by a signal: chat.a passed, chat.b's case never finished (vitest: skipped, no reason), chat.c skipped itself
// with a reason, chat.d has no case.
const cutGate = (): Results =>
  ({
    tool_version: '0.1.0',
    started_at: at,
    duration_ms: 5000,
    target: { name: 'reference', kind: 'reference', environment: 'sandbox', hosts: {} },
    filter: null,
    gate: 'pass',
    totals: { pass: 1, fail: 0, skip: 2, observed: 0, uncovered: 1 },
    cases: [kase('chat.a', 'pass', 'as documented'), kase('chat.b', 'skip', 'skipped'), kase('chat.c', 'skip', 'no messaging host in the profile')],
    rules: [rule('chat.a', 'pass'), rule('chat.b', 'skip'), rule('chat.c', 'skip'), rule('chat.d', 'uncovered', 0)],
    errors: [],
  }) as unknown as Results;

describe('an interrupted gate, reported', () => {
  const r = interruptedResults(cutGate(), { signal: 'SIGINT', at });

  it('counts a rule whose case never finished as not run, never as skipped or covered, and keeps a skip with its reason', () => {
    expect(r.gate).toBe('fail');
    expect(r.totals).toEqual({ pass: 1, fail: 0, skip: 1, observed: 0, uncovered: 1, not_run: 1 });
    expect(r.interrupted?.rules_not_run).toEqual(['chat.b']);
    expect(r.rules.map((x) => x.outcome)).toEqual(['pass', 'not_run', 'skip', 'uncovered']);
    expect(r.cases.map((c) => c.rule)).toEqual(['chat.a', 'chat.c']);
    expect(r.errors.at(-1)).toBe(`interrupted by SIGINT at ${at}: 2 cases finished, 1 rules got no finished case`);
  });

  it('says the same on the page, in JUnit and on the index: interrupted, not run counted, never a pass or fail badge for the run', () => {
    const html = conformancePage(r);
    expect(html).toMatch(/<h1>Conformance: reference <span class="badge interrupted">interrupted<\/span><\/h1>/);
    expect(html).toContain('<span class="badge not_run">not run</span> 1');
    expect(html).toContain('<span class="badge skip">skip</span> 1');
    expect(junitXml(r)).toMatch(/<testsuites [^>]*failures="1" skipped="1"/);

    const dir = mkdtempSync(join(tmpdir(), 'dialtone-cut-index-'));
    mkdirSync(join(dir, 'conformance'));
    writeFileSync(join(dir, 'conformance', 'results.json'), JSON.stringify(r));
    mkdirSync(join(dir, 'load', 'chat-turns'), { recursive: true });
    const load = {
      scenario: 'chat-turns',
      started_at: at,
      passed: false,
      profile: 'smoke',
      headline: ['interrupted by SIGINT'],
      interrupted: { signal: 'SIGINT', at },
    };
    writeFileSync(join(dir, 'load', 'chat-turns', 'result.json'), JSON.stringify(load));
    const index = readFileSync(writeIndexPage(dir), 'utf8');
    // The runs' own badges (the totals' badges name each outcome with its count, fail 0 among them).
    expect(index).toMatch(/<p><span class="badge interrupted">interrupted<\/span> <a href="conformance\/index.html">/);
    expect(index).toMatch(/chat-turns<\/a><\/td><td><span class="badge interrupted">interrupted<\/span><\/td>/);
    expect(index).toContain('<span class="badge not_run">not run</span> 1');
  });
});
