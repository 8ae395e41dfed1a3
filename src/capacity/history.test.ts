import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendCapacityHistory, type CapacityRecord, capacityVerdictLine, judgeCapacity, readCapacityHistory } from './history.js';

const search = (rate: number | null, o: Partial<CapacityRecord> = {}): CapacityRecord => ({
  scenario: 'chat-turns',
  unit: 'conversations',
  target: 'staging',
  engine: { kind: 'builtin', version: 'v0.1.0' },
  started_at: '2026-11-25T02:17:00Z',
  max_sustainable_rate: rate,
  limited_by: 'target',
  stopped: 'refined',
  precision: 0.1,
  ...o,
});

describe('the capacity verdict', () => {
  it('calls a capacity more than 10 % under the median of the last searches regressed, and says by how much', () => {
    const v = judgeCapacity([search(100), search(96), search(104)], search(80));
    expect(v).toMatchObject({ status: 'regressed', median: 100, runs: 3, floor: 0.1 });
    expect(capacityVerdictLine(v, 'conversations/s')).toBe(
      'capacity verdict: regressed: 80.00 conversations/s against a median of 100.00 conversations/s over the last 3 searches (-20.0 %; a move beyond 10 % ' +
        'counts)',
    );
  });

  it('keeps a move within the floor unchanged, and widens the floor to a coarser search precision', () => {
    expect(judgeCapacity([search(100)], search(92)).status).toBe('unchanged');
    expect(judgeCapacity([search(100)], search(111)).status).toBe('improved');
    expect(judgeCapacity([search(100)], search(80, { precision: 0.25 })).status).toBe('unchanged');
  });

  it('compares only searches of the same scenario, target and kind of engine that found a capacity of the target', () => {
    const others = [
      search(200, { target: 'prod' }),
      search(200, { engine: { kind: 'k6', version: 'k6 v2.2.0' } }),
      search(200, { scenario: 'messaging-sockets' }),
      search(200, { limited_by: 'load-generator' }),
      search(200, { stopped: 'time-budget' }),
    ];
    expect(judgeCapacity(others, search(80)).status).toBe('no baseline');
    expect(judgeCapacity([...others, search(100)], search(80))).toMatchObject({ status: 'regressed', runs: 1 });
  });

  it("keeps searches that played a traffic model apart from the scenario's own, and each model's apart", () => {
    const learned = { workload: 'learned from traffic-model.json' };
    expect(judgeCapacity([search(100)], search(10, learned)).status).toBe('no baseline');
    expect(judgeCapacity([search(10, learned)], search(100)).status).toBe('no baseline');
    expect(judgeCapacity([search(10, { workload: 'learned from other.json' })], search(5, learned)).status).toBe('no baseline');
    expect(judgeCapacity([search(10, learned)], search(5, learned)).status).toBe('regressed');
  });

  it("does not judge a search whose figure is not the target's", () => {
    const v = judgeCapacity([search(100)], search(30, { limited_by: 'load-generator' }));
    expect(v.status).toBe('not judged');
    expect(capacityVerdictLine(v, 'conversations/s')).toBe(
      "capacity verdict: not judged: the search found no capacity of the target's (limited by load-generator, refined)",
    );
  });

  it('reads back what it appends, skipping lines that are not searches', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dialtone-capacity-history-')), 'history.jsonl');
    writeFileSync(path, 'not json\n{"scenario":"x"}\n');
    appendCapacityHistory(path, search(100));
    expect(readCapacityHistory(path)).toEqual([search(100)]);
  });
});
