import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialtone } from '../../tests/run-cli.js';
import { UsageError } from '../errors.js';
import { checkExpectations, expectationIssues } from './expectations.js';

/** Three mistakes: a metric chat-turns never emits, an expression k6 would not parse, a workload for no scenario. */
const THREE = {
  slos: { 'chat-turns': { chat_turn_latency: ['p(95)<500'], http_req_duration: ['p(95)<<500'] } },
  workloads: { 'chat-turn': { nightly: { rate: 10 } } },
};

const LINES = [
  /^slos\.chat-turns\["chat_turn_latency"\]: expected a metric this scenario emits \(.+\), found 'chat_turn_latency'$/,
  /^slos\.chat-turns\["http_req_duration"\]\[0\]: expected a threshold expression \(.+\), found 'p\(95\)<<500'$/,
  /^workloads\.chat-turn: expected a scenario \((.+, )?chat-turns, .+\), found 'chat-turn'$/,
];

describe("a profile's SLOs and workloads", () => {
  it('report every mistake, one line each saying what was expected and what was found', () => {
    const lines = expectationIssues(THREE as never);
    expect(lines).toHaveLength(3);
    for (const [i, line] of lines.entries()) expect(line).toMatch(LINES[i] as RegExp);
  });

  it('are refused in one block naming the file and how many problems it has', () => {
    let message = '';
    try {
      checkExpectations(THREE as never, 'bad.json');
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      message = (e as Error).message;
    }
    const [head, ...lines] = message.split('\n');
    expect(head).toBe('bad.json: 3 problems:');
    expect(lines.map((l) => l.replace(/^ {2}/, ''))).toEqual(LINES.map((re) => expect.stringMatching(re)));
  });

  it('are refused in one line when there is one mistake, and taken when there is none', () => {
    expect(() => checkExpectations({ slos: undefined, workloads: { 'chat-turns': { weekly: {} } } }, 'p.json')).toThrow(
      new UsageError("p.json: workloads.chat-turns.weekly: expected a workload (smoke, nightly, capacity), found 'weekly'"),
    );
    expect(() =>
      checkExpectations({ slos: { 'chat-turns': { checks: ['rate>0.9'] } }, workloads: { 'chat-turns': { nightly: { rate: 5 } } } }, 'p.json'),
    ).not.toThrow();
  });

  it('stop dialtone load with exit 2 and all three mistakes before any target is contacted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-expectations-'));
    const profile = join(dir, 'bad.json');
    // Port 9 answers nothing: a run that got as far as the target would exit 3, not 2.
    const fields = { name: 'bad', environment: 'sandbox', region: 'us-1', hosts: { base_url: 'http://127.0.0.1:9' }, account_id: 'a', project_id: 'p' };
    writeFileSync(profile, JSON.stringify({ ...fields, credentials: { chat_api_key: { env: 'DIALTONE_TEST_KEY' } }, ...THREE }));
    const r = await dialtone(['load', 'chat-turns', '--target', profile], { env: { DIALTONE_TEST_KEY: 'k-123456' } });
    expect(r.code, r.stderr).toBe(2);
    const [head, ...lines] = r.stderr.trim().split('\n');
    expect(head).toBe(`dialtone: ${profile}: 3 problems:`);
    expect(lines.map((l) => l.trim())).toEqual(LINES.map((re) => expect.stringMatching(re)));
  });
});
