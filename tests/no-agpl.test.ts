import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './run-cli.js';

// dialtone is Apache-2.0 and carries no AGPL code: it never fetches, builds, vendors or ships k6 (AGPL), and depends on
// no package under a licence of the GPL family or a source-available one. The module path is put together here so
// that this file does not name it either.
const K6_MODULE = ['go.k6.io', 'k6'].join('/');
/** Licences this project may not use: AGPL, GPL (LGPL is fine), SSPL, BUSL, Commons Clause. */
const FORBIDDEN = /AGPL|(^|[^L])GPL|SSPL|BUSL|Commons-Clause/i;

interface Lock {
  packages: Record<string, { license?: unknown; name?: string }>;
}

describe('no AGPL code in dialtone', () => {
  it(`no file of the repository names k6's Go module`, () => {
    // git grep exits 1 when nothing matches; any other failure is the test's.
    let found = '';
    try {
      found = execFileSync('git', ['grep', '-l', K6_MODULE], { cwd: ROOT, encoding: 'utf8' });
    } catch (e) {
      if ((e as { status?: number }).status !== 1) throw e;
    }
    expect(found.trim().split('\n').filter(Boolean)).toEqual([]);
  });

  it('package.json and package-lock.json name no package under the AGPL, GPL, SSPL or a source-available licence', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { license: string };
    expect(pkg.license).toBe('Apache-2.0');
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
    const bad: string[] = [];
    let read = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      if (!path) continue; // the project itself
      // The installed package's own package.json, where it is installed (optional platform packages may not be); the
      // lock's copy of the licence otherwise.
      const manifest = join(ROOT, path, 'package.json');
      let licence = entry.license;
      if (existsSync(manifest)) {
        const m = JSON.parse(readFileSync(manifest, 'utf8')) as { license?: unknown; licenses?: unknown };
        licence = m.license ?? m.licenses ?? licence;
        read++;
      }
      if (FORBIDDEN.test(JSON.stringify(licence ?? ''))) bad.push(`${path.replace(/^.*node_modules\//, '')} (${JSON.stringify(licence)})`);
    }
    expect(read, 'node_modules holds the locked packages (npm install)').toBeGreaterThan(0);
    expect(bad).toEqual([]);
  });

  it('the licence check catches the licences it is for', () => {
    for (const l of ['AGPL-3.0-only', 'GPL-2.0-or-later', 'SSPL-1.0', 'BUSL-1.1', { type: 'GPL-3.0' }, ['MIT', 'AGPL-3.0']]) {
      expect(FORBIDDEN.test(JSON.stringify(l)), JSON.stringify(l)).toBe(true);
    }
    for (const l of ['MIT', 'Apache-2.0', 'LGPL-3.0-or-later', 'BSD-3-Clause', 'ISC', '(MIT OR Apache-2.0)']) {
      expect(FORBIDDEN.test(JSON.stringify(l)), l).toBe(false);
    }
  });
});
