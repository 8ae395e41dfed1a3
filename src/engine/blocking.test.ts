import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BlockingRefusal, rewriteBlocking } from './blocking.js';
import { bundleScript } from './loader.js';

const at = (line: number) => `script.js:${line}`;
const rewrite = (code: string) => rewriteBlocking(code, (line) => at(line));
const HTTP = 'var import_http = __toESM(require("k6/http"));\nvar import_k6 = require("k6");\n';

/** Bundles files written to a fresh folder (the first is the script) as the engine does. */
async function bundleFiles(files: Record<string, string>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-blocking-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return (await bundleScript(join(dir, Object.keys(files)[0] as string))).code;
}

describe('the rewrite of blocking k6 calls', () => {
  // k6 docs, /javascript-api/k6-http/get/: `http.get(url, [params])` returns "Response: HTTP Response object."
  it('awaits a blocking call where it is made and makes its function async', () => {
    const { code } = rewrite(`${HTTP}function f(u) { return import_http.default.get(u).status; }`);
    expect(code).toContain('async function f(u) { return (await import_http.default.get(u)).status; }');
  });

  it('awaits calls of a function made async, up through every caller, and not calls already awaited', () => {
    const { code, madeAsync } = rewrite(
      `${HTTP}function login() { return import_http.default.post("/l").json("t"); }\nconst go = () => login();\nasync function main() { await go(); ` +
        `(0, import_k6.sleep)(1); }`,
    );
    expect(code).toContain('async function login()');
    expect(code).toContain('const go = async () => (await login());');
    expect(code).toContain('async function main() { await go(); (await (0, import_k6.sleep)(1)); }');
    expect(madeAsync).toBe(2);
  });

  it('follows methods of classes and objects by their names', () => {
    const { code } = rewrite(
      `${HTTP}var C = class { get(p) { return import_http.default.get(p); } static make() { return new C(); } };\nconst api = { list: function () { ` +
        `return import_http.default.get("/l"); } };\nfunction f(c) { c.get("/a").status; api.list(); }`,
    );
    expect(code).toContain('async get(p) { return (await import_http.default.get(p)); }');
    expect(code).toContain('list: async function () {');
    expect(code).toContain('async function f(c) { (await c.get("/a")).status; (await api.list()); }');
  });

  it("does not take a plain function's name for every method of that name", () => {
    const { code } = rewrite(`${HTTP}function get(p) { return import_http.default.get(p); }\nfunction f(m) { [1].forEach((k) => m.get(k)); get("/"); }`);
    expect(code).toContain('async function f(m) { [1].forEach((k) => m.get(k)); (await get("/")); }');
  });

  // k6 docs, /javascript-api/k6/group/: "Runs code inside a group."; the rewrite keeps the group until its function settles.
  it('awaits group() when its function blocks, and leaves it alone when it does not', () => {
    const { code } = rewrite(
      `${HTTP}function f() { (0, import_k6.group)("a", function () { import_http.default.get("/"); }); (0, import_k6.group)("b", () => 1); }`,
    );
    expect(code).toContain('(await (0, import_k6.group)("a", async function () { (await import_http.default.get("/")); }));');
    expect(code).toContain('(0, import_k6.group)("b", () => 1);');
  });

  // k6 docs, /javascript-api/k6-ws/connect/: connect(url, params, callback), "callback: The callback function that will
  // be called when the WebSocket connection is initiated"; k6 runs it before connect returns, so it may block.
  it('lets ws.connect() take a handler that blocks, and awaits the connect', () => {
    const { code } = rewrite(
      `${HTTP}var import_ws = __toESM(require("k6/ws"));\nfunction f() { import_ws.default.connect("ws://h", {}, function (s) { (0, import_k6.sleep)(1); }); }`,
    );
    expect(code).toContain('(await import_ws.default.connect("ws://h", {}, async function (s) { (await (0, import_k6.sleep)(1)); }));');
  });

  it('runs forEach and map over an array one element after the other, each blocking call awaited, the answers in order', async () => {
    const { code } = rewrite(
      `${HTTP}async function f(us) { const rs = us.map((u) => import_http.default.get(u)); new Set(["c"]).forEach(function (u) { ` +
        `import_http.default.get(u); }); return rs.map((r) => r.u); }\nmodule.exports = f;`,
    );
    expect(code.split('\n').length).toBe(4);
    const sent: string[] = [];
    // Answers come back in the reverse order of their sending: only awaiting each in turn keeps the order.
    const get = (u: string) => new Promise((r) => setTimeout(() => r({ u: sent.push(u) && u }), u === 'a' ? 20 : 1));
    const module = { exports: {} as unknown };
    new Function('require', '__toESM', 'module', code)(
      () => ({ get }),
      (m: unknown) => ({ default: m }),
      module,
    );
    expect(await (module.exports as (us: string[]) => Promise<string[]>)(['a', 'b'])).toEqual(['a', 'b']);
    expect(sent).toEqual(['a', 'b', 'c']);
  });

  it('leaves a script in the async style byte for byte as it was', () => {
    const script = `${HTTP}async function f() { const r = await import_http.default.asyncRequest("GET", "/"); await (0, import_k6.sleep)(1); return r; }`;
    const out = rewrite(script);
    expect(out.code).toBe(script);
    expect(out.madeAsync).toBe(0);
  });

  // fail(): "a simple convenience wrapper on top of JavaScript's throw()", its message "printed to stderr"; k6 prints a
  // thrown string with the script's file:line, so a throw that may throw one hands its value and stack to the engine.
  it('marks a throw of anything but `new …` so the engine can tell where a thrown string came from, the value unchanged', () => {
    const out = rewrite(`${HTTP}function f(x) { if (x) throw "boom: " + x; throw new Error("e"); }`);
    expect(out.code).toContain('throw __dialtone_thrown("boom: " + x);');
    expect(out.code).toContain('throw new Error("e");');
    expect(out.code.split('\n')).toHaveLength(`${HTTP}x`.split('\n').length);
    const seen: unknown[] = [];
    (globalThis as { __dialtone_throws?: unknown }).__dialtone_throws = (v: unknown, stack: string) => seen.push(v, typeof stack);
    const f = new Function('require', '__toESM', `${out.code}; return f;`)(
      () => ({}),
      (m: unknown) => m,
    ) as (x: string) => void;
    expect(() => f('a')).toThrow('boom: a');
    expect(seen).toEqual(['boom: a', 'string']);
    delete (globalThis as { __dialtone_throws?: unknown }).__dialtone_throws;
    expect(rewrite(`${HTTP}function g() { throw new Error("e"); }`).code).toBe(`${HTTP}function g() { throw new Error("e"); }`);
    expect(rewrite(`${HTTP}function h(a, b) { throw a, b; }`).code).toContain('throw __dialtone_thrown((a, b));');
    expect(rewrite(`${HTTP}function k(a) { throw(a); }`).code).toContain('throw(__dialtone_thrown(a));');
    expect(rewrite(`${HTTP}function m() { throw"x"; }`).code).toContain('throw __dialtone_thrown("x");');
  });

  it('lists the calls that send, for the judgement of a run that sent nothing', () => {
    expect(rewrite(`${HTTP}\nasync function f() { await import_http.default.asyncRequest("GET", "/"); }`).sends).toEqual(['http.asyncRequest at script.js:4']);
    expect(rewrite(`${HTTP}function f() { return (0, import_k6.check)(1, {}); }`).sends).toEqual([]);
  });

  describe('refuses, with file:line and why, what it cannot follow', () => {
    const refusal = (code: string) => {
      try {
        rewrite(code);
      } catch (e) {
        expect(e).toBeInstanceOf(BlockingRefusal);
        return (e as Error).message;
      }
      throw new Error('not refused');
    };
    it('a blocking function handed to code that does not wait for it', () => {
      expect(refusal(`${HTTP}\n\nfunction f(us) { us.filter((u) => import_http.default.get(u)); }`)).toBe(
        'script.js:5: a function makes http.get at script.js:5 and is passed to filter(), which would not wait for it; call it directly (a for…of loop; ' +
          'forEach and map are followed)',
      );
    });
    it('a request in the init context', () => {
      expect(refusal(`${HTTP}const r = import_http.default.get("/");`)).toBe(
        'script.js:3: http.get runs in the init context, where k6 makes no requests and does not sleep; move it into a function',
      );
    });
    it('a getter that blocks, and a blocking k6 function used as a value', () => {
      expect(refusal(`${HTTP}const o = { get v() { return import_http.default.get("/"); } };`)).toMatch(/^script\.js:3: the getter 'v' makes http\.get/);
      expect(refusal(`${HTTP}const g = import_http.default.get;`)).toBe(
        'script.js:3: http.get is used as a value; the built-in engine can only wait for it where it is called',
      );
    });
  });

  it('follows helpers across the files a script imports, as esbuild bundles them', async () => {
    const code = await bundleFiles({
      'script.js': `import http from 'k6/http';\nimport { get } from 'k6/http';\nimport { login } from './lib.js';\nexport default function () { login(); get('/x'); }`,
      'lib.js': `import http from 'k6/http';\nexport function login() { return http.post('/login').json('token'); }`,
    });
    expect(code).toMatch(/async function login\(\) \{\n\s+return \(await import_http\d*\.default\.post\("\/login"\)\)\.json\("token"\);/);
    expect(code).toMatch(/async function script_default\(\) \{\n\s+\(await login\(\)\);\n\s+\(await \(0, import_http\d*\.get\)\("\/x"\)\);/);
  });

  it('names the imported file and its line in a refusal', async () => {
    await expect(
      bundleFiles({
        'script.js': `import { each } from './lib.js';\nexport default function () { each(['/a']); }`,
        'lib.js': `import http from 'k6/http';\n\nexport function each(us) {\n  return us.some((u) => http.get(u));\n}`,
      }),
    ).rejects.toThrow(/^the script cannot run on the built-in engine: .*lib\.js:4: a function makes http\.get at .*lib\.js:4 and is passed to some\(\)/);
  });
  // /javascript-api/k6-net-grpc/client/client-connect/: connect "will block until a connection is made or a connection
  // error is thrown"; Client.invoke "Invokes an unary RPC request": both return their result in k6, so both are awaited
  // on the variable that holds the client; asyncInvoke returns a promise in k6 too and is left alone.
  it('awaits connect and invoke of a grpc.Client, and refuses connect in the init context', async () => {
    const code = await bundleFiles({
      'script.js':
        "import grpc from 'k6/net/grpc';\nconst client = new grpc.Client();\nclient.load([], 'x.proto');\n" +
        "function call() { return client.invoke('p.S/M', {}).status; }\n" +
        "export default function () { client.connect('127.0.0.1:1', { plaintext: true }); call(); client.asyncInvoke('p.S/M', {}); client.close(); }\n",
    });
    const r = { code, sends: rewriteBlocking(code, (line) => at(line)).sends };
    expect(r.code).toMatch(/async function call\(\) \{\s*return \(await client\.invoke\("p\.S\/M", \{\}\)\)\.status;/);
    expect(r.code).toMatch(/\(await client\.connect\(/);
    expect(r.code).toMatch(/\(await call\(\)\)/);
    expect(r.code).not.toMatch(/await client\.asyncInvoke|await client\.close|await client\.load/);
    expect(r.sends[0]).toMatch(/^net\/grpc\.Client at /);
    const init = bundleFiles({
      'script.js': "import grpc from 'k6/net/grpc';\nconst client = new grpc.Client();\nclient.connect('127.0.0.1:1');\nexport default function () {}\n",
    });
    await expect(init).rejects.toThrow(/script\.js:3: grpc\.Client\.connect runs in the init context/);
  });

  it('awaits invoke on a client it cannot follow (a parameter, a wrapper class) by its name, in a script importing k6/net/grpc', async () => {
    const code = await bundleFiles({
      'script.js':
        "import { Client } from 'k6/net/grpc';\nclass Api { constructor() { this.client = new Client(); } " +
        "say(t) { return this.client.invoke('p.S/Say', { t }).message; } }\nconst api = new Api();\n" +
        "function call(c) { return c.invoke('p.S/M', {}).status; }\nexport default function () { api.say('x'); call(api.client); }\n",
    });
    expect(code).toMatch(/async say\(t\) \{\s*return \(await this\.client\.invoke\(/);
    expect(code).toMatch(/async function call\(c\) \{\s*return \(await c\.invoke\(/);
    // Without the import, a method of that name is the script's own.
    const own = await bundleFiles({ 'script.js': 'const o = { invoke: () => 1 };\nexport default function () { return o.invoke(); }\n' });
    expect(own).not.toContain('await');
  });
});
