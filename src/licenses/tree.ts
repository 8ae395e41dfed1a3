import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { type DeclaredLicence, declaredLicence } from './declared.js';

/** One installed package: who it is, where it lies, and the licence it states. */
export interface InstalledPackage extends DeclaredLicence {
  readonly name: string;
  readonly version: string;
  /** Its folder (real path), relative to the root package's folder: `node_modules/x`, or `../x` when hoisted above it. */
  readonly path: string;
  /** Reached only through the root's devDependencies: dialtone's own repository needs it, its users never install it. */
  readonly dev: boolean;
}

/** A required dependency that is not installed, or whose package.json cannot be read: its licence cannot be known. */
export interface MissingPackage {
  readonly name: string;
  readonly requiredBy: string;
  readonly problem: string;
}

/** The tree as installed: the root package itself, every package it installs (one per name@version), what is missing. */
export interface InstalledTree {
  readonly root: InstalledPackage;
  readonly packages: InstalledPackage[];
  readonly missing: MissingPackage[];
}

interface Manifest {
  name?: string;
  version?: string;
  license?: unknown;
  licenses?: unknown;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** A package.json, or why it could not be read (absent is undefined: the caller decides whether absence matters). */
function readManifest(file: string): { manifest: Manifest } | { error: string } | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    return { error: (e as Error).message };
  }
  try {
    return { manifest: JSON.parse(text) as Manifest };
  } catch (e) {
    return { error: `its package.json is not JSON (${(e as Error).message})` };
  }
}

/**
 * Where Node would find `name` when `fromDir` requires it: `DIR/node_modules/NAME` for `fromDir` and each folder above
 * it, nearest first, skipping the `node_modules/node_modules` Node never looks in. So a package's own nested copy wins
 * over a hoisted one, and dialtone installed in another project's node_modules finds what npm hoisted beside it.
 *
 * @example
 * resolvePackage('vega', '/app/node_modules/dialtone'); // '/app/node_modules/vega' (hoisted), or undefined
 */
export function resolvePackage(name: string, fromDir: string): string | undefined {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return candidate;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Every dependency a package names, and whether its absence is fine (optional, or a peer the user brings). */
function dependenciesOf(m: Manifest): Array<{ name: string; optional: boolean }> {
  const optional = new Set([...Object.keys(m.optionalDependencies ?? {}), ...Object.keys(m.peerDependencies ?? {})]);
  // npm copies optionalDependencies into dependencies; a name in both is still optional.
  const names = new Set([...Object.keys(m.dependencies ?? {}), ...optional]);
  return [...names].sort().map((name) => ({ name, optional: optional.has(name) }));
}

/**
 * Walks the tree a package installs, as installed: its `dependencies`, optional and peer dependencies where installed,
 * transitively, each resolved as Node resolves it; with `dev`, also the root's own `devDependencies` and what they
 * install. A missing optional or peer dependency is skipped (a platform build for another machine, a peer the user
 * does not use); a missing required one is listed. Packages are kept once per name@version, however many copies lie
 * on disk.
 *
 * @example
 * const tree = walkTree(ROOT, { dev: true });
 * tree.packages.map((p) => `${p.name}@${p.version} ${p.license}`); // ['@esbuild/linux-x64@0.28.2 MIT', …]
 */
export function walkTree(rootDir: string, options: { dev?: boolean } = {}): InstalledTree {
  const root = realpathSync(rootDir);
  const read = readManifest(join(root, 'package.json'));
  if (!read || 'error' in read) throw new Error(`${root}: no readable package.json${read ? ` (${read.error})` : ''}`);
  const rootManifest = read.manifest;
  const describe = (dir: string, m: Manifest, fallbackName: string, dev: boolean): InstalledPackage => ({
    name: m.name ?? fallbackName,
    version: m.version ?? '',
    path: relative(root, dir) || '.',
    dev,
    ...declaredLicence(dir, m),
  });
  const rootPackage = describe(root, rootManifest, basename(root), false);
  const seenDirs = new Set<string>([root]);
  const byId = new Map<string, InstalledPackage>();
  const missing: MissingPackage[] = [];

  // Breadth first from a set of starting dependencies; a folder is visited once, whichever path reaches it first.
  const walk = (start: Array<{ name: string; optional: boolean }>, dev: boolean) => {
    const queue = start.map((d) => ({ ...d, fromDir: root, requiredBy: `${rootPackage.name}@${rootPackage.version}` }));
    for (let item = queue.shift(); item; item = queue.shift()) {
      const found = resolvePackage(item.name, item.fromDir);
      if (!found) {
        if (!item.optional) missing.push({ name: item.name, requiredBy: item.requiredBy, problem: 'not installed' });
        continue;
      }
      // Real paths: npm links and pnpm's store put a package behind a symlink, and Node resolves from where it really is.
      const dir = realpathSync(found);
      if (seenDirs.has(dir)) continue;
      seenDirs.add(dir);
      const manifest = readManifest(join(dir, 'package.json'));
      if (!manifest || 'error' in manifest) {
        missing.push({ name: item.name, requiredBy: item.requiredBy, problem: manifest?.error ?? 'not installed' });
        continue;
      }
      const pkg = describe(dir, manifest.manifest, item.name, dev);
      const id = `${pkg.name}@${pkg.version}`;
      if (!byId.has(id)) byId.set(id, pkg);
      for (const d of dependenciesOf(manifest.manifest)) queue.push({ ...d, fromDir: dir, requiredBy: id });
    }
  };
  walk(dependenciesOf(rootManifest), false);
  if (options.dev)
    walk(
      Object.keys(rootManifest.devDependencies ?? {}).map((name) => ({ name, optional: false })),
      true,
    );

  const packages = [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, undefined, { numeric: true }));
  return { root: rootPackage, packages, missing };
}
