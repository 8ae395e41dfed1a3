// The module cache of remote modules (remote-modules.ts): where it lives, and that it gives back only what a URL gave.
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModuleCache, moduleCacheDir, networkThenCache } from './remote-modules.js';

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
    // Port 9 on loopback: nothing listens (discard), the connection is refused at once.
    await expect(source.get('http://127.0.0.1:9/m.js')).rejects.toThrow(
      /^the remote module http:\/\/127\.0\.0\.1:9\/m\.js could not be fetched \(\w+\) and is not in the module cache .*: vendor the file/,
    );
  });
});
