import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type InstalledPackage, installedPackage, type Run, runIn } from './installed-package.js';
import { ROOT } from './run-cli.js';

// dialtone installed as a package into a project of its own (tests/installed-package.ts): what it packs, how it
// installs, and the commands that start no load. Its load runs, from the same install, are tests/package-runs.test.ts's.

const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
let pkg: InstalledPackage;
const npx = (...args: string[]): Run => runIn(pkg.project, 'npx', ['--no-install', 'dialtone', ...args]);

beforeAll(() => {
  pkg = installedPackage();
}, 600_000);

describe('dialtone installed as a package into a project of its own', () => {
  it('packs only what runs: the commands, the suite and the scenarios, never tests, benches, tools or reports', () => {
    for (const must of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'THIRD_PARTY.md', 'bin/dialtone.mjs', 'scripts/setup.mjs']) {
      expect(pkg.packed, must).toContain(must);
    }
    expect(pkg.packed.some((f) => f.startsWith('conformance/chat/'))).toBe(true);
    expect(pkg.packed).toContain('scenarios/chat-turns.ts');
    const stray = pkg.packed.filter(
      (f) => /^(tests|tools|reports|\.github|\.ci)\//.test(f) || /^src\/.*\.test\.ts$/.test(f) || /^src\/(tools|fuzz|soak)\//.test(f),
    );
    expect(stray).toEqual([]);
    expect(pkg.packed.filter((f) => f.startsWith('scripts/')).sort()).toEqual(['scripts/build.mjs', 'scripts/setup.mjs']);
    expect(pkg.packed.filter((f) => f.startsWith('dist/'))).toEqual([]); // built at install (postinstall), not shipped
  });

  it('carries every file README, docs/ and --help point at, so each link resolves from an installed copy', () => {
    const linked = new Set<string>();
    const docs = pkg.packed.filter((f) => /^docs\/.+\.md$/.test(f));
    expect(docs).toContain('docs/commands.md');
    for (const file of ['README.md', ...docs]) {
      for (const [, target] of readFileSync(join(pkg.installed, file), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (!/^[a-z]+:/.test(target as string)) linked.add(normalize(join(dirname(file), target as string)));
      }
    }
    // --help names files by their path in the package; docs/commands.md holds every command's help (src/cli/help.test.ts).
    const help = `${npx('--help').out}\n${readFileSync(join(pkg.installed, 'docs', 'commands.md'), 'utf8')}`;
    for (const [path] of help.matchAll(/\b(?:docs|src|scenarios|conformance)\/[\w./-]*[a-z]\.(?:md|ts|png)\b/g)) linked.add(path);
    expect(linked.size).toBeGreaterThan(15);
    expect([...linked].filter((f) => !pkg.packed.includes(f) || !existsSync(join(pkg.installed, f)))).toEqual([]);
  });

  it('installs from the tarball and builds no Go tool, only dist/: its sources transpiled, fresh, so no start needs tsx', async () => {
    const { install, installed } = pkg;
    expect(install.code, install.out).toBe(0);
    // No warning the project cannot act on: dialtone pins light-my-request to a release on cookie 1 (cookie 2 wants Node 22).
    expect(install.out).not.toMatch(/EBADENGINE/);
    expect(existsSync(join(installed, 'bin', 'dialtone.mjs'))).toBe(true);
    expect(existsSync(join(installed, '.tools'))).toBe(false);
    expect(install.out).not.toMatch(/building (actionlint|kubeconform)|go build/);
    const { isFresh } = await import(join(installed, 'bin', 'build-state.mjs'));
    expect(isFresh(installed)).toBe(true);
    expect(existsSync(join(installed, 'dist', 'src', 'cli', 'main.js'))).toBe(true);
  });

  it('prints the version package.json holds', () => {
    const r = npx('--version');
    expect(r.code, r.out).toBe(0);
    // stdout alone: npm may warn on stderr about the user's own npm config (an unknown key in ~/.npmrc, say).
    expect(r.stdout.trim()).toBe(`dialtone ${version}`);
  });

  it("lists its licences and its dependencies' from where it is installed, none of them AGPL, GPL or SSPL", () => {
    const r = npx('licenses');
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(new RegExp(`dialtone@?\\s*${version.replace(/\./g, '\\.')}.*Apache-2\\.0`));
    expect(r.out).toMatch(/\bzod\b.*MIT/);
  });

  it('sets the project up with init: profiles, .gitignore and workflows that install dialtone as a package', () => {
    const r = npx('init');
    expect(r.code, r.out).toBe(0);
    for (const f of ['.gitignore', '.github/workflows/dialtone-gate.yml', '.github/workflows/dialtone-nightly.yml'])
      expect(existsSync(join(pkg.project, f)), f).toBe(true);
    expect(readdirSync(join(pkg.project, 'dialtone', 'profiles')).length).toBeGreaterThan(0);
    const workflows = ['dialtone-gate.yml', 'dialtone-nightly.yml'].map((f) => readFileSync(join(pkg.project, '.github', 'workflows', f), 'utf8')).join('\n');
    expect(workflows).toMatch(/npm ci/);
    expect(workflows).toMatch(/run: node_modules\/\.bin\/dialtone conformance/);
    expect(workflows).not.toMatch(/git clone|actions\/setup-go|go build/);
  });

  it("writes the contract, lists the rules and prints the SLOs from the package's own files", () => {
    const contract = npx('contract', '--out', 'contract');
    expect(contract.code, contract.out).toBe(0);
    expect(existsSync(join(pkg.project, 'contract', 'openapi.json'))).toBe(true);
    const rules = npx('rules');
    expect(rules.code, rules.out).toBe(0);
    expect(rules.out).toMatch(/^chat\.close\.\S+\s+conformance\/chat\/close\.test\.ts:\d+/m);
    const slos = npx('slos', '--scenario', 'chat-turns');
    expect(slos.code, slos.out).toBe(0);
    expect(slos.out).toMatch(/http_req_duration\{op:chat\.respond\}\s+p\(95\)<500\s+default/);
  });
});
