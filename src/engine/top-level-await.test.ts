// k6's fs example (https://grafana.com/docs/k6/next/javascript-api/k6-experimental/fs/open/) awaits at the top level of
// the script: "const file = await open('bonjour.txt');". esbuild bundles such a script only as an ES module; these
// tests hold what top-level-await.ts makes of that bundle: a body the engine runs as an async function, every line
// where it was, and k6's blocking calls still found by the rewrite that awaits them (blocking.ts).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rewriteBlocking } from './blocking.js';
import { bundleScript } from './loader.js';
import { compileScript } from './script.js';
import { ASYNC_BUNDLE, asyncBody } from './top-level-await.js';

const ESM = [
  'import http from "k6/http";',
  'import { check as ok, sleep } from "k6";',
  'import * as enc from "k6/encoding";',
  'var data = await Promise.resolve(2);',
  'function run() {',
  '  const r = http.get("http://x");',
  '  ok(r, { ok });',
  '  sleep(enc.b64encode("a").length);',
  '}',
  'export {',
  '  run as default,',
  '  data,',
  '  ok',
  '};',
  '',
].join('\n');

describe('a bundle with top-level await', () => {
  it('becomes an async body with every line where it was, its imports required and its exports on module.exports', () => {
    const body = asyncBody(ESM);
    expect(body.startsWith(ASYNC_BUNDLE)).toBe(true);
    expect(body.split('\n')).toHaveLength(ESM.split('\n').length);
    expect(body).toContain('require("k6/http")');
    expect(body).not.toMatch(/^\s*(import|export)\b/m);
    // The shorthand property keeps its key.
    expect(body).toContain('{ ok: (0, import_k6_1["check"]) }');
  });

  it('makes import.meta an empty object, as esbuild does in CommonJS, since a function body has none', () => {
    const body = asyncBody('var base = import.meta.url;\nawait 0;\nexport { base };\n');
    expect(body).toContain('var base = ({}).url;');
    expect(() => new (Object.getPrototypeOf(async () => {}).constructor)('module', body)).not.toThrow();
  });

  it("keeps k6's blocking calls visible to the rewrite that awaits them", () => {
    const out = rewriteBlocking(asyncBody(ESM), () => 'script.js:1');
    // http.get and the two sleeps are awaited, and run() made async.
    expect(out.awaited).toBe(2);
    expect(out.madeAsync).toBe(1);
    expect(out.sends).toHaveLength(1);
  });

  it('runs: the exports are there once the init context settled, the imports from the VU require', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-tla-'));
    const script = join(dir, 'script.js');
    writeFileSync(join(dir, 'lib.js'), 'export const n = await Promise.resolve(41);\n');
    writeFileSync(script, "import { n } from './lib.js';\nimport { check } from 'k6';\nexport const answer = (await n) + 1;\nexport default () => check;\n");
    const { code } = await bundleScript(script);
    const required: string[] = [];
    const check = () => true;
    const made = compileScript(
      code,
      script,
    )({
      require: (name) => {
        required.push(name);
        return { check };
      },
      __ENV: {},
      __k6: { __VU: 1, __ITER: 0 },
      open: () => '',
      console,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      Math,
    });
    expect(made.ready).toBeInstanceOf(Promise);
    await made.ready;
    expect(made.exports.answer).toBe(42);
    expect((made.exports.default as () => unknown)()).toBe(check);
    expect(required).toEqual(['k6']);
  });

  it('leaves a script without one as before: no async body, no ready promise', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-tla-'));
    const script = join(dir, 'script.js');
    writeFileSync(script, 'export const answer = 42;\n');
    const { code } = await bundleScript(script);
    expect(code.startsWith(ASYNC_BUNDLE)).toBe(false);
  });
});
