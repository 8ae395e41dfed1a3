// k6 allows `await` at the top level of a script (the init context), as its fs and csv examples do:
// `const file = await open('data.txt')`. esbuild refuses top-level await in CommonJS, the form the engine runs, so a
// script that has one is bundled as an ES module and turned here into the body of an async function of the same
// parameters (script.ts): its imports of k6 modules into the `require` calls esbuild's CommonJS output makes (so
// blocking.ts follows them as it does there), its exports into `module.exports`. It replaces text within lines only,
// never adds or removes a line, so the bundle's source map still maps each line. A script without top-level await
// never comes here: its bundle is as before.
import { type Node, parse } from 'acorn';
import * as scope from 'eslint-scope';

/** What a bundle made by this module starts with, on its first line: script.ts runs such a bundle as an async function. */
export const ASYNC_BUNDLE = '/* dialtone: top-level await */ ';

type N = Node & { [key: string]: unknown };

/** An edit of the source: the text between start and end replaced. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const literal = (n: N): string => JSON.stringify((n.source as N).value);
/** The newlines a replaced range held: put back after its replacement, so no line moves. */
const newlinesIn = (code: string, from: number, to: number): string => '\n'.repeat((code.slice(from, to).match(/\n/g) ?? []).length);

/**
 * Turns esbuild's ES-module bundle (its imports only of k6 modules, its exports one `export { … }`) into the body of an
 * async function that takes `require`, `module` and `exports`, marked with ASYNC_BUNDLE.
 *
 * @example
 * asyncBody('import http from "k6/http";\nvar r = await f();\nfunction d() { http.get(u); }\nexport { d as default };\n');
 * // ASYNC_BUNDLE + 'var import_k6_http_0 = require("k6/http");\nvar r = await f();\n'
 * //   + 'function d() { import_k6_http_0.default.get(u); }\nmodule.exports["default"] = d;\n'
 */
export function asyncBody(code: string): string {
  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'module', ranges: true }) as unknown as N;
  const edits: Edit[] = [];
  const walked = walkOnce(ast);
  /** What each imported binding becomes: `import_k6.check`, `import_k6_http.default`, or the namespace's variable. */
  const replacement = new Map<N, string>();
  /** The same by the local name (module scope: one binding a name). */
  const byName = new Map<string, string>();
  let n = 0;
  for (const stmt of ast.body as N[]) {
    if (stmt.type !== 'ImportDeclaration') continue;
    const specifiers = stmt.specifiers as N[];
    const src = literal(stmt);
    const name = `import_${String((stmt.source as N).value).replace(/\W/g, '_')}_${n++}`;
    edits.push({ start: stmt.start, end: stmt.end, text: `var ${name} = require(${src});${newlinesIn(code, stmt.start, stmt.end)}` });
    for (const s of specifiers) {
      const local = s.local as N;
      if (s.type === 'ImportNamespaceSpecifier') replacement.set(local, name);
      else if (s.type === 'ImportDefaultSpecifier') replacement.set(local, `${name}.default`);
      else {
        const imported = s.imported as N;
        const key = imported.type === 'Identifier' ? (imported.name as string) : String(imported.value);
        // As esbuild writes a named import's use: `(0, import_k6.check)(…)`, called with no `this`.
        replacement.set(local, `(0, ${name}[${JSON.stringify(key)}])`);
      }
      byName.set(local.name as string, replacement.get(local) as string);
    }
  }
  for (const stmt of ast.body as N[]) {
    if (stmt.type === 'ImportDeclaration') continue;
    if (stmt.type === 'ExportNamedDeclaration' && !stmt.declaration) {
      const pairs = (stmt.specifiers as N[]).map((s) => {
        const exported = s.exported as N;
        const local = s.local as N;
        const as = exported.type === 'Identifier' ? (exported.name as string) : String(exported.value);
        const from = local.type === 'Identifier' ? (local.name as string) : String(local.value);
        return { as, from };
      });
      const target = (as: string) => `module.exports[${JSON.stringify(as)}]`;
      const text = stmt.source
        ? `{ const m = require(${literal(stmt)}); ${pairs.map((p) => `${target(p.as)} = m[${JSON.stringify(p.from)}];`).join(' ')} }`
        : pairs.map((p) => `${target(p.as)} = ${byName.get(p.from) ?? p.from};`).join(' ');
      edits.push({ start: stmt.start, end: stmt.end, text: `${text}${newlinesIn(code, stmt.start, stmt.end)}` });
    } else if (stmt.type === 'ExportAllDeclaration' && stmt.source) {
      edits.push({ start: stmt.start, end: stmt.end, text: `Object.assign(module.exports, require(${literal(stmt)}));` });
    } else if (stmt.type.startsWith('Export')) {
      throw new Error(`top-level await: the bundle has an export this engine does not follow (${stmt.type})`);
    }
  }
  // Every reference to an imported binding, written as the member of the required module it names.
  if (replacement.size > 0) {
    const manager = scope.analyze(ast as never, { ecmaVersion: 2022, sourceType: 'module' });
    const byVariable = new Map<scope.Variable, string>();
    for (const s of manager.scopes)
      for (const v of s.variables) {
        const def = v.defs[0];
        if (def?.type !== 'ImportBinding') continue;
        const text = replacement.get((def.node as unknown as N).local as N);
        if (text) byVariable.set(v, text);
      }
    const { shorthand } = walked;
    for (const s of manager.scopes)
      for (const r of s.references) {
        const text = r.resolved ? byVariable.get(r.resolved) : undefined;
        if (!text) continue;
        const id = r.identifier as unknown as N;
        const key = shorthand.has(id) ? `${id.name as string}: ` : '';
        edits.push({ start: id.start, end: id.end, text: `${key}${text}` });
      }
  }
  // import.meta has no meaning in a function body: an empty object, as esbuild gives it in CommonJS.
  for (const meta of walked.importMeta) edits.push({ start: meta.start, end: meta.end, text: '({})' });
  return ASYNC_BUNDLE + applyEdits(code, edits);
}

/**
 * One walk of the module: identifiers that are the value of a shorthand property (`{ check }`: replaced, they need
 * their key written out), and every `import.meta`.
 */
function walkOnce(ast: N): { shorthand: Set<N>; importMeta: N[] } {
  const shorthand = new Set<N>();
  const importMeta: N[] = [];
  const stack: N[] = [ast];
  while (stack.length) {
    const node = stack.pop() as N;
    if (node.type === 'Property' && node.shorthand && (node.value as N).type === 'Identifier') shorthand.add(node.value as N);
    if (node.type === 'MetaProperty' && (node.meta as N).name === 'import') importMeta.push(node);
    for (const v of Object.values(node)) {
      if (Array.isArray(v)) for (const c of v) if (c && typeof c.type === 'string') stack.push(c);
      if (v && typeof v === 'object' && typeof (v as N).type === 'string') stack.push(v as N);
    }
  }
  return { shorthand, importMeta };
}

function applyEdits(code: string, edits: Edit[]): string {
  // Edits inside a replaced statement (an export's local name) are dropped: the statement's text already names them.
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue;
    out += code.slice(at, e.start) + e.text;
    at = e.end;
  }
  return out + code.slice(at);
}
