import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dialtoneInProcess } from './in-process-cli.js';
import { dialtone } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dialtone-report-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the report folder, checked before anything runs', () => {
  it('refuses a folder under /proc or /sys in one line with exit 2 (Node would loop for ever making it)', async () => {
    for (const where of ['/proc/x', '/sys/x/y']) {
      const r = await dialtoneInProcess(['load', 'chat-turns', '--report-dir', where]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`--report-dir: cannot write to ${where} (`);
      expect(r.stderr).toMatch(/kernel's (proc|sysfs) file system/);
    }
  });

  // A process of its own: the folder goes when the process exits.
  it('leaves no empty folder behind when the run fails after making it', async () => {
    const reports = join(dir, 'new', 'deep', 'reports');
    const r = await dialtone(['load', 'chat-turns', '--target', join(dir, 'no-such-profile.json'), '--report-dir', reports]);
    expect(r.code, r.stderr).toBe(2);
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });
});
