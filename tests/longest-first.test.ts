import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONGEST } from './longest-first.js';
import { TIMING_SENSITIVE } from './timing-sensitive.js';

const ROOT = join(import.meta.dirname, '..');

describe("the unit project's longest files", () => {
  it('are files that exist and run in the unit project, not timing-sensitive ones', () => {
    for (const f of LONGEST) expect(existsSync(join(ROOT, f)), f).toBe(true);
    expect(LONGEST.filter((f) => TIMING_SENSITIVE.includes(f))).toEqual([]);
  });
});
