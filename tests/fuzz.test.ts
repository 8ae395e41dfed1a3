import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REGRESSIONS } from '../src/fuzz/regressions.js';
import { formatReport, runFuzz } from '../src/fuzz/run.js';

// A seeded slice of `npm run fuzz` (about a minute): the regression cases (every input that ever broke the target)
// before and after, random malformed HTTP requests and socket frames in between, then a normal chat conversation,
// messaging session and voice call. Answer times are printed, not asserted (tests never assert on time); `npm run fuzz`
// holds them to ANSWER_LIMIT_MS.
describe('the reference target under hostile input', () => {
  it('survives a seeded slice of malformed requests and frames, keeps every regression case handled, and still serves normal clients', async () => {
    const dir = join(tmpdir(), `dialtone-fuzz-${process.pid}`);
    const report = await runFuzz({ seed: 20_261_123, requests: 5000, frames: 1400, maxSeconds: 35, dir }).finally(() =>
      rmSync(dir, { recursive: true, force: true }),
    );
    console.log(formatReport(report));
    expect(report.problems).toEqual([]);
    expect(report.crashes).toBe(0);
    expect(report.status5xx).toBe(0);
    // The slice did fuzz: requests and frames went out, and every regression case ran twice.
    expect(report.requests).toBeGreaterThan(500);
    expect(report.frames).toBeGreaterThan(200);
    expect(report.regressions.map((r) => r.name)).toEqual([...REGRESSIONS, ...REGRESSIONS].map((r) => r.name));
  });
});
