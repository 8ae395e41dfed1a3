import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dialtone, ROOT } from './run-cli.js';

describe('dialtone --version', () => {
  it("prints package.json's version and exits 0", async () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { version: string };
    const r = await dialtone(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`dialtone ${version}\n`);
  });
});
