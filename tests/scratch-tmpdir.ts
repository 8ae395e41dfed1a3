// vitest's global setup: every test file, and every process a test starts, makes its temporary folders under one
// scratch folder of this run (TMPDIR, which os.tmpdir() and child processes read), removed when the run ends, so dialtone's
// own suite leaves nothing behind in the machine's /tmp however a test ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function setup(): () => void {
  // Each vitest project that extends the root config runs this too: the first one's folder serves them all.
  if (process.env.DIALTONE_TESTS_SCRATCH) return () => {};
  const scratch = mkdtempSync(join(tmpdir(), 'dialtone-tests-'));
  const before = process.env.TMPDIR;
  process.env.TMPDIR = scratch;
  process.env.DIALTONE_TESTS_SCRATCH = scratch;
  return () => {
    delete process.env.DIALTONE_TESTS_SCRATCH;
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  };
}
