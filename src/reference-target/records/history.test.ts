import { describe, expect, it } from 'vitest';
import { generateHistory } from './history.js';
import { compareRecords } from './model.js';
import { paginate } from './page.js';

const spec = (seed: number) => ({
  seed,
  count: 500,
  fromMs: Date.parse('2026-09-01T00:00:00Z'),
  toMs: Date.parse('2026-09-08T00:00:00Z'),
  variants: [
    { id: 'VARIANT-main', name: 'Main site' },
    { id: 'VARIANT-north', name: 'North branch' },
  ],
  lines: ['+442071838750'],
  inProgress: 3,
});

describe('the seeded history', () => {
  it('is the same for the same seed and different for another', () => {
    const a = generateHistory(spec(7));
    expect(JSON.stringify(generateHistory({ ...spec(7) }))).toBe(JSON.stringify(a));
    expect(generateHistory(spec(8))[0]?.id).not.toBe(a[0]?.id);
  });

  it('lies in its window, ascending, with unique ids and only the newest records in progress', () => {
    const records = generateHistory(spec(9));
    const s = spec(9);
    expect(records).toHaveLength(500);
    expect(new Set(records.map((r) => r.id)).size).toBe(500);
    expect(records.every((r, i) => r.startedAt >= s.fromMs && r.startedAt < s.toMs && (i === 0 || compareRecords(records[i - 1] as never, r) < 0))).toBe(true);
    expect(records.filter((r) => r.inProgress).map((r) => records.indexOf(r))).toEqual([497, 498, 499]);
    expect(records.filter((r) => !r.inProgress).every((r) => (r.endedAt ?? 0) > (r.turns.at(-1)?.agentAt ?? Infinity))).toBe(true);
  });

  it('pages by keyset without skipping or repeating across page edges', () => {
    const records = generateHistory(spec(10));
    const walked: string[] = [];
    let after: (typeof records)[number] | undefined;
    for (let n = 0; n < 100; n++) {
      const page = paginate(records, { limit: 37, offset: 0, after });
      walked.push(...page.records.map((r) => r.id));
      if (!page.more) break;
      after = page.records.at(-1);
    }
    expect(walked).toEqual(records.map((r) => r.id));
  });
});
