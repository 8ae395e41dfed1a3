// The module cache of remote modules (remote-modules.ts): where it lives, and that it gives back only what a URL gave.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleScript } from './loader.js';
import { ModuleCache, moduleCacheDir, networkThenCache } from './remote-modules.js';
import { locator } from './script.js';

describe('the module cache', () => {
  it('lives in DIALTONE_MODULE_CACHE, else under XDG_CACHE_HOME, else under ~/.cache', () => {
    expect(moduleCacheDir({ DIALTONE_MODULE_CACHE: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(moduleCacheDir({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe(join('/x', 'dialtone', 'modules'));
    expect(moduleCacheDir({ HOME: '/h' })).toBe(join('/h', '.cache', 'dialtone', 'modules'));
  });

  it('gives back the text and final URL a URL gave, and nothing once the blob changed on disk', () => {
    const cache = new ModuleCache(mkdtempSync(join(tmpdir(), 'dialtone-cache-')));
    cache.write('https://cdn/a/latest/x.js', { url: 'https://cdn/a/1.0/x.js', text: 'export const x = 1;' });
    expect(cache.read('https://cdn/a/latest/x.js')).toEqual({ url: 'https://cdn/a/1.0/x.js', text: 'export const x = 1;' });
    expect(cache.read('https://cdn/other.js')).toBeUndefined();
    const [blob] = readdirSync(join(cache.dir, 'blobs'));
    writeFileSync(join(cache.dir, 'blobs', blob as string), 'export const x = 2;');
    expect(cache.read('https://cdn/a/latest/x.js')).toBeUndefined();
  });

  it('refuses a URL nothing answers and the cache lacks, naming the URL and what to do', async () => {
    const source = networkThenCache({ DIALTONE_MODULE_CACHE: mkdtempSync(join(tmpdir(), 'dialtone-cache-')) });
    // A port that was free a moment ago: nothing listens, the connection is refused at once.
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    await expect(source.get(`http://127.0.0.1:${port}/m.js`)).rejects.toThrow(
      new RegExp(
        `^the remote module http://127\\.0\\.0\\.1:${port}/m\\.js could not be fetched \\(ECONNREFUSED\\) and is not in the module cache .*: vendor the file`,
      ),
    );
    await source.close?.();
  });
});

describe('the network, then the cache', () => {
  it("reads the cache's copy when the server is in trouble (5xx), and refuses what it says does not exist (4xx)", async () => {
    let status = 200;
    const server = createHttpServer((_, res) => res.writeHead(status).end(status === 200 ? 'export const v = 1;' : 'trouble'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/m.js`;
    const source = networkThenCache({ DIALTONE_MODULE_CACHE: mkdtempSync(join(tmpdir(), 'dialtone-cache-')) });
    try {
      expect((await source.get(url)).text).toBe('export const v = 1;');
      status = 503;
      expect((await source.get(url)).text).toBe('export const v = 1;');
      status = 404;
      await expect(source.get(url)).rejects.toThrow(`the remote module ${url} could not be fetched (HTTP 404): vendor the file`);
    } finally {
      await source.close?.();
      server.close();
    }
  });
});

describe('behind a proxy', () => {
  // k6 fetches modules with Go's HTTP client, which takes HTTP_PROXY, HTTPS_PROXY and NO_PROXY from the environment.
  // The proxy here tunnels every CONNECT to one origin of its own, whatever host was asked for.
  it('asks HTTP_PROXY for a module, and not for a host NO_PROXY names', async () => {
    const origin = createHttpServer((_, res) => res.end('export const viaProxy = true;'));
    await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
    const asked: string[] = [];
    const proxy = createHttpServer();
    proxy.on('connect', (req, socket) => {
      asked.push(req.url ?? '');
      const upstream = connect((origin.address() as AddressInfo).port, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      socket.on('error', () => upstream.destroy());
      upstream.on('error', () => socket.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const env = {
      DIALTONE_MODULE_CACHE: mkdtempSync(join(tmpdir(), 'dialtone-cache-')),
      HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      NO_PROXY: 'direct.invalid',
    };
    const source = networkThenCache(env);
    try {
      expect((await source.get('http://modules.invalid/m.js')).text).toBe('export const viaProxy = true;');
      expect(asked).toEqual(['modules.invalid:80']);
      await expect(source.get('http://direct.invalid/m.js')).rejects.toThrow(/could not be fetched \((ENOTFOUND|EAI_AGAIN)/);
      expect(asked).toHaveLength(1);
    } finally {
      await source.close?.();
      proxy.closeAllConnections();
      origin.closeAllConnections();
      proxy.close();
      origin.close();
    }
  });
});

describe('a bundle with remote modules', () => {
  // Modules: "k6 adopts a browser-like module resolution": a relative import resolves against its module's URL, here
  // the URL a redirect ended at.
  it("resolves a remote module's relative import against its final URL, and names its lines by URL", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-remote-'));
    writeFileSync(join(dir, 's.js'), "import { boom } from 'https://cdn.example/lib/latest/index.js';\nexport default function () { boom(); }\n");
    const asked: string[] = [];
    const texts: Record<string, string> = {
      'https://cdn.example/lib/latest/index.js': "export { boom } from './boom.js';\n",
      'https://cdn.example/lib/1.0/boom.js': "export function boom() {\n  throw new Error('boom');\n}\n",
    };
    const modules = {
      get: async (url: string) => {
        asked.push(url);
        const text = texts[url];
        if (text === undefined) throw new Error(`no ${url}`);
        return { url: url.replace('/latest/', '/1.0/'), text };
      },
    };
    const b = await bundleScript(join(dir, 's.js'), { modules });
    expect(asked).toEqual(['https://cdn.example/lib/latest/index.js', 'https://cdn.example/lib/1.0/boom.js']);
    expect([...b.remote.keys()]).toEqual(asked);
    const line = b.code.split('\n').findIndex((l) => l.includes('throw new Error')) + 1;
    expect(locator(b.code)(line, 4)).toBe('https://cdn.example/lib/1.0/boom.js:2');
  });
});
