// An archive of a test as `k6 archive` makes one (/misc/archive/): "A k6 archive is simply a tar file with all files
// needed to execute a k6 test." `metadata.json` (the consolidated options, the script's name as a file:// URL, the
// working folder, the -e variables), `data` (the main script), `file/<path>` for every local module and open()ed file
// (a home folder's user name made `nobody`, as k6 does), `https/<host>/<path>` for every remote module. The engine
// runs one with no network: its files are extracted to a folder of the run's own, its remote modules read from it.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { anonymized } from './archive-paths.js';
import type { Bundle } from './loader.js';
import type { Fetched, ModuleSource } from './remote-modules.js';
import { tar, untar } from './tar.js';

/** What an archive's metadata.json holds, as far as the engine reads and writes it. */
export interface ArchiveMetadata {
  readonly type: 'js';
  readonly options: Record<string, unknown>;
  /** The main script, `file:///home/nobody/tests/script.js`. */
  readonly filename: string;
  readonly pwd: string;
  readonly env: Record<string, string>;
  readonly compatibilityMode: string;
  readonly k6version: string;
  readonly goos: string;
  /** dialtone's own, which k6 does not read: the redirects its remote modules followed (imported URL to final URL). */
  readonly dialtone?: { readonly engine: string; readonly redirects: Record<string, string> };
}

export { anonymized };

/** The k6 semantics an archive of the built-in engine follows, as its metadata says (k6 reads `k6version`). */
const K6_SEMANTICS = '2.2.0';

/** True when a `run` argument is an archive rather than a script. */
export const isArchive = (path: string) => /\.tar$/i.test(path);

/**
 * The archive of a bundled script: its local files (modules and `opened`), its remote modules, and `metadata.json`.
 * A remote module over plain http has no place in k6's layout (its reader knows `file` and `https` only): refused.
 *
 * @example
 * writeFileSync('archive.tar', archiveOf({ script, bundle, opened, options, env, engine: 'dialtone-engine 0.1.0' }));
 */
export function archiveOf(parts: {
  readonly script: string;
  readonly bundle: Bundle;
  readonly opened: ReadonlySet<string>;
  readonly options: Record<string, unknown>;
  readonly env: Record<string, string>;
  readonly cwd: string;
  readonly engine: string;
}): Buffer {
  const plain = [...parts.bundle.remote.keys()].find((u) => !u.startsWith('https://'));
  if (plain) throw new Error(`the remote module ${plain} is not served over https, which a k6 archive holds only: vendor it next to the script`);
  const redirects: Record<string, string> = {};
  for (const [url, got] of parts.bundle.remote) if (got.url !== url) redirects[url] = got.url;
  const main = anonymized(parts.script);
  const metadata: ArchiveMetadata = {
    type: 'js',
    options: parts.options,
    filename: `file://${main}`,
    pwd: `file://${anonymized(parts.cwd)}/`,
    env: parts.env,
    compatibilityMode: 'extended',
    k6version: K6_SEMANTICS,
    goos: process.platform,
    dialtone: { engine: parts.engine, redirects },
  };
  const local = [...new Set([...parts.bundle.files, ...parts.opened])].sort();
  return tar([
    { name: 'metadata.json', data: Buffer.from(`${JSON.stringify(metadata, null, 2)}\n`) },
    { name: 'data', data: readFileSync(parts.script) },
    ...local.map((f) => ({ name: `file${anonymized(f)}`, data: readFileSync(f) })),
    ...[...parts.bundle.remote]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([url, got]) => ({ name: `https/${url.slice('https://'.length)}`, data: Buffer.from(got.text) })),
  ]);
}

/** An archive opened for a run: its main script extracted, its remote modules, its options and variables. */
export interface OpenedArchive {
  /** The main script, extracted under `dir`. */
  readonly script: string;
  readonly dir: string;
  /** Where the `file/` tree was extracted: an absolute path the script opens is read from under it. */
  readonly root: string;
  readonly modules: ModuleSource;
  readonly options: Record<string, unknown>;
  readonly env: Record<string, string>;
  close(): void;
}

/**
 * Opens an archive (the engine's or k6's own) for a run: every `file/` entry extracted into a fresh folder at its path,
 * the main script (`data`) at its name, the remote modules served from the `https/` tree. A module the archive lacks
 * is asked of `fallback` (the network, then the module cache).
 */
export function openArchive(path: string, fallback: ModuleSource): OpenedArchive {
  let entries: Map<string, Buffer>;
  try {
    entries = untar(readFileSync(path));
  } catch (e) {
    throw new Error(`cannot read the archive ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const meta = entries.get('metadata.json');
  const data = entries.get('data');
  if (!meta || !data) throw new Error(`${path} is no k6 archive: it has no ${meta ? 'data' : 'metadata.json'}`);
  const metadata = JSON.parse(meta.toString('utf8')) as ArchiveMetadata;
  const main = decodeURIComponent(new URL(metadata.filename, 'file:///').pathname);
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-archive-'));
  const root = join(dir, 'file');
  const remote = new Map<string, Buffer>();
  for (const [name, bytes] of entries) {
    if (name.startsWith('file/')) {
      const to = join(root, name.slice('file'.length));
      if (!to.startsWith(root)) continue;
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, bytes);
    } else if (name.startsWith('https/')) remote.set(`https://${name.slice('https/'.length)}`, bytes);
  }
  const script = join(root, main);
  mkdirSync(dirname(script), { recursive: true });
  writeFileSync(script, data);
  const redirects = metadata.dialtone?.redirects ?? {};
  return {
    script,
    dir,
    root,
    options: metadata.options ?? {},
    env: metadata.env ?? {},
    modules: {
      get: async (url): Promise<Fetched> => {
        const bytes = remote.get(url);
        return bytes ? { url: redirects[url] ?? url, text: bytes.toString('utf8') } : fallback.get(url);
      },
      close: async () => fallback.close?.(),
    },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}
