// Remote modules as k6 loads them (/using-k6/modules/#remote-modules): `import … from 'https://…'`, in the script or in
// any module it imports, fetched when the script is bundled, redirects followed, a relative import inside a remote
// module resolved against that module's URL. Every module fetched is kept in a content-addressed cache, so the next run
// and a machine with no network find it there: `blobs/<sha256>` holds the text, `urls/<sha256 of the URL>.json` which
// blob a URL gave last. The network is asked first (a module changed upstream is seen, as k6 sees it); the cache
// answers when the network does not. An archive's modules (archive.ts) are a source of their own, asked before both.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { type Dispatcher, EnvHttpProxyAgent, fetch } from 'undici';

/** The environment variable that moves the module cache. */
export const CACHE_VARIABLE = 'DIALTONE_MODULE_CACHE';

/** The module cache's folder: DIALTONE_MODULE_CACHE, else $XDG_CACHE_HOME/dialtone/modules, else ~/.cache/dialtone/modules. */
export function moduleCacheDir(env: NodeJS.ProcessEnv): string {
  if (env[CACHE_VARIABLE]) return env[CACHE_VARIABLE];
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'dialtone', 'modules');
}

/** A remote module's text and the URL it came from after redirects (its own relative imports resolve against it). */
export interface Fetched {
  readonly url: string;
  readonly text: string;
}

/** Where remote modules come from: an archive's copies first when it has them (archive.ts), then network, then cache. */
export interface ModuleSource {
  get(url: string): Promise<Fetched>;
  /** Lets go of what the source holds open (connections), once the bundle is made. */
  close?(): Promise<void>;
}

/** Every remote module one bundle read, by the URL it was imported by, for an archive of the run. */
export type FetchedModules = Map<string, Fetched>;

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

/** The module cache: content-addressed blobs, and which blob each URL gave last. */
export class ModuleCache {
  constructor(readonly dir: string) {}

  read(url: string): Fetched | undefined {
    try {
      const entry = JSON.parse(readFileSync(join(this.dir, 'urls', `${sha256(url)}.json`), 'utf8')) as { final: string; sha256: string };
      const text = readFileSync(join(this.dir, 'blobs', entry.sha256), 'utf8');
      // A blob changed on disk is not the module the URL gave: not used.
      return sha256(text) === entry.sha256 ? { url: entry.final, text } : undefined;
    } catch {
      return undefined;
    }
  }

  write(url: string, fetched: Fetched): void {
    const hash = sha256(fetched.text);
    // Written beside and renamed, so a run reading at the same moment sees the old entry or the new one, never half.
    const put = (folder: string, name: string, body: string) => {
      mkdirSync(join(this.dir, folder), { recursive: true });
      const tmp = join(this.dir, folder, `.${name}.${process.pid}.tmp`);
      writeFileSync(tmp, body);
      renameSync(tmp, join(this.dir, folder, name));
    };
    put('blobs', hash, fetched.text);
    put('urls', `${sha256(url)}.json`, `${JSON.stringify({ url, final: fetched.url, sha256: hash, fetched: new Date().toISOString() })}\n`);
  }
}

/** A fetch that failed: the HTTP status the server gave, or why nothing answered. */
class FetchFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const FETCH_TIMEOUT_MS = 30_000;

/**
 * GETs `url` through `agent`, following redirects (fetch's own, at most 20); the final URL is the module's base. The
 * agent honours HTTPS_PROXY, HTTP_PROXY and NO_PROXY, as Go (and so k6) does.
 */
async function download(url: string, agent: Dispatcher): Promise<Fetched> {
  let res: Awaited<ReturnType<typeof fetch>>;
  try {
    res = await fetch(url, {
      dispatcher: agent,
      redirect: 'follow',
      headers: { 'user-agent': 'dialtone-engine' },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
  } catch (e) {
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err.name === 'TimeoutError') throw new FetchFailure(`no answer in ${FETCH_TIMEOUT_MS / 1000} s`);
    throw new FetchFailure(err.cause?.code ?? err.cause?.message ?? err.message);
  }
  const text = await res.text();
  if (res.status < 200 || res.status > 299) throw new FetchFailure(`HTTP ${res.status}`, res.status);
  return { url: res.url || url, text };
}

/** What a refused module says to do next. */
const NEXT = 'vendor the file next to the script and import it by path, run once with network so the cache has it, or use --engine k6';

/**
 * The network, then the module cache: what a run reads its remote modules from. A module fetched is written to the
 * cache; a server that answers 4xx (no such module) is an error even when the cache has the URL.
 */
export function networkThenCache(env: NodeJS.ProcessEnv): ModuleSource {
  const cache = new ModuleCache(moduleCacheDir(env));
  let agent: Dispatcher | undefined;
  return {
    async get(url) {
      if (!agent) {
        // TLS trusts the system's roots, or SSL_CERT_FILE's, as Go does.
        const ca = env.SSL_CERT_FILE ? readFileSync(env.SSL_CERT_FILE, 'utf8') : undefined;
        agent = new EnvHttpProxyAgent({
          ...(ca ? { connect: { ca }, requestTls: { ca } } : {}),
          httpProxy: env.HTTP_PROXY ?? env.http_proxy,
          httpsProxy: env.HTTPS_PROXY ?? env.https_proxy,
          noProxy: env.NO_PROXY ?? env.no_proxy,
        });
      }
      try {
        const fetched = await download(url, agent);
        try {
          cache.write(url, fetched);
        } catch {
          // A cache that cannot be written (read-only home) costs only the next offline run.
        }
        return fetched;
      } catch (e) {
        const failure = e as FetchFailure;
        // 4xx: the server has no such module. Anything else (no answer, a 5xx of a CDN in trouble): the cache's copy.
        if (failure.status !== undefined && failure.status < 500)
          throw new Error(`the remote module ${url} could not be fetched (${failure.message}): ${NEXT}`);
        const cached = cache.read(url);
        if (cached) return cached;
        throw new Error(`the remote module ${url} could not be fetched (${failure.message}) and is not in the module cache (${cache.dir}): ${NEXT}`);
      }
    },
    async close() {
      await agent?.close();
    },
  };
}

/** esbuild's `detail` on an error this plugin raised: its text is the whole line to print. */
export const REMOTE_REFUSAL = 'dialtone-remote-module';

const REMOTE = /^https?:\/\//;
const RELATIVE = /^\.{0,2}\//;

/**
 * The esbuild plugin that bundles remote modules: `https://` and `http://` imports from anywhere, and the relative
 * imports of a remote module, read from `source`; each module read is recorded in `fetched`.
 */
export function remoteModules(source: ModuleSource, fetched: FetchedModules): Plugin {
  return {
    name: 'dialtone-remote-modules',
    setup(build) {
      build.onResolve({ filter: REMOTE }, (args) => ({ path: args.path, namespace: 'remote' }));
      // Inside a remote module: a relative import is another remote module; a k6 module stays outside the bundle.
      build.onResolve({ filter: /.*/, namespace: 'remote' }, (args) => {
        if (args.path === 'k6' || args.path.startsWith('k6/')) return { path: args.path, external: true };
        const base = (args.pluginData as { base?: string } | undefined)?.base ?? args.importer;
        if (RELATIVE.test(args.path)) return { path: new URL(args.path, base).href, namespace: 'remote' };
        return {
          errors: [{ text: `the remote module ${base} imports '${args.path}', which is neither a URL nor a relative path`, detail: REMOTE_REFUSAL }],
        };
      });
      build.onLoad({ filter: /.*/, namespace: 'remote' }, async (args) => {
        try {
          // A second build of the same script (top-level await: as an ES module) reads what the first fetched.
          const got = fetched.get(args.path) ?? (await source.get(args.path));
          fetched.set(args.path, got);
          return { contents: got.text, loader: 'js', pluginData: { base: got.url } };
        } catch (e) {
          return { errors: [{ text: (e as Error).message, detail: REMOTE_REFUSAL }] };
        }
      });
    },
  };
}
