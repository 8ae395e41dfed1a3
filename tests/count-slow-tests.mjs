#!/usr/bin/env node
// Counts dialtone's own tests (it/test calls) that start a process or wait on a real timer, read from the sources, so
// the number can be compared before and after a change. A test counts when its body, a beforeAll or beforeEach around
// it, or a function of its file that those call (transitively) calls one of: child_process's spawn, spawnSync,
// execFile, execFileSync, exec, execSync or fork (promisified too), execa, tests/run-cli.ts's dialtone or
// backgroundTarget, tests/installed-package.ts's runIn or installedPackage, tests/tls-load.ts's tlsLoadSuite, a Chromium
// launch, or one of dialtone's functions in SRC below, each of which starts a process; or waits on a real timer (a
// promise resolved by setTimeout, or node:timers/promises) in a file that fakes no timers. The engine's own tests
// (src/engine, tests/*engine*, tests/k6-corpus*) are left out. It reads names, not types: a count, not a proof.
//
//   node tests/count-slow-tests.mjs [ROOT]     per-file counts, then the totals (ROOT: a checkout, default this one)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';

const here = new URL('..', import.meta.url).pathname;
const root = resolve(process.argv[2] ?? here);
const ts = createRequire(join(here, 'package.json'))('typescript');
const EXCLUDED = [/^src\/engine\//, /^tests\/k6-corpus/, /^tests\/[^/]*engine[^/]*$/];
const PROCESS = new Set(['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork', 'execa', 'execaNode']);
const HELPERS = new Set(['dialtone', 'backgroundTarget', 'runIn', 'installedPackage', 'tlsLoadSuite', '.launch']);

const walk = (dir) =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'node_modules') return [];
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
const files = [...walk(join(root, 'src')), ...walk(join(root, 'tests'))].filter((p) => p.endsWith('.ts'));
const parse = (p) => ts.createSourceFile(p, readFileSync(p, 'utf8'), ts.ScriptTarget.Latest, true);

/** The name a call calls: `f` for `f()`, `.f` for `a.f()`. */
const callee = (call) => {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return `.${e.name.text}`;
  return undefined;
};
/** Every call name under a node. */
function calls(node, out = new Set()) {
  if (ts.isCallExpression(node)) {
    const n = callee(node);
    if (n) out.add(n);
    // promisify(execFile)(…)
    const e = node.expression;
    if (ts.isCallExpression(e) && callee(e) === 'promisify' && e.arguments[0] && ts.isIdentifier(e.arguments[0])) out.add(e.arguments[0].text);
  }
  ts.forEachChild(node, (c) => {
    calls(c, out);
  });
  return out;
}
/** Functions declared in a file, by name: `function f`, `const f = () =>`, `const f = function`. */
function functionsOf(sf) {
  const fns = new Map();
  const visit = (n) => {
    if (ts.isFunctionDeclaration(n) && n.name) fns.set(n.name.text, n);
    if (
      ts.isVariableDeclaration(n) &&
      ts.isIdentifier(n.name) &&
      n.initializer &&
      (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))
    )
      fns.set(n.name.text, n.initializer);
    if (ts.isMethodDeclaration(n) && ts.isIdentifier(n.name)) fns.set(n.name.text, n);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return fns;
}
/** A real-timer wait under a node: a promise resolved by setTimeout, or timers/promises' sleep. */
function realWait(node, timersPromises) {
  let found = false;
  const visit = (n) => {
    if (found) return;
    if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'Promise' && calls(n).has('setTimeout')) found = true;
    if (ts.isCallExpression(n) && timersPromises.has(callee(n))) found = true;
    ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

// dialtone's own functions that start a process (the engine, a target, a capacity step, Chromium, k6 or Go probes).
const SRC = [
  'startEngine',
  'runLoad',
  'runStep',
  'gateUnderLoad',
  'spawnTarget',
  'findChromium',
  'ensureChromium',
  'findK6',
  'k6Candidates',
  'findGo',
  'buildGoTool',
  'ensureGoTool',
];
// A method call `.exec` is a RegExp far more often than child_process: only the bare name counts.
const starters = new Set([...PROCESS, ...[...PROCESS].filter((n) => n !== 'exec').map((n) => `.${n}`), ...HELPERS, ...SRC]);

const TEST = new Set(['it', 'test']);
const HOOKS = new Set(['beforeAll', 'beforeEach']);
/** The base name of a test-API call: `it`, `it.each(...)`, `it.skipIf(x)`, `describe.concurrent`. */
function base(call) {
  let e = call.expression;
  while (ts.isCallExpression(e) || ts.isPropertyAccessExpression(e)) e = ts.isCallExpression(e) ? e.expression : e.expression;
  return ts.isIdentifier(e) ? e.text : undefined;
}
const lastFn = (call) => [...call.arguments].reverse().find((a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a));

let totalTests = 0;
let totalProcess = 0;
let totalWait = 0;
let totalEither = 0;
const rows = [];
for (const p of files.filter((f) => f.endsWith('.test.ts'))) {
  const rel = relative(root, p);
  if (EXCLUDED.some((r) => r.test(rel))) continue;
  const sf = parse(p);
  const text = sf.text;
  const fake = /useFakeTimers/.test(text);
  const timersPromises = new Set();
  for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'node:timers\/promises'/g))
    for (const part of m[1].split(',')) {
      const local = part
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (local) timersPromises.add(local);
    }
  const fns = functionsOf(sf);
  // `import { a as b }`: a call of b is a call of a.
  const aliases = new Map();
  for (const st of sf.statements)
    if (ts.isImportDeclaration(st) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings))
      for (const el of st.importClause.namedBindings.elements) if (el.propertyName) aliases.set(el.name.text, el.propertyName.text);
  // `const run = promisify(execFile)`, at any depth: a call of run is a call of execFile.
  const promisified = (n) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer && ts.isCallExpression(n.initializer)) {
      const init = n.initializer;
      if (callee(init) === 'promisify' && init.arguments[0] && ts.isIdentifier(init.arguments[0])) aliases.set(n.name.text, init.arguments[0].text);
    }
    ts.forEachChild(n, promisified);
  };
  promisified(sf);
  /** What a node reaches: processes and waits, following the file's own functions. */
  const reach = (node, seen = new Set()) => {
    let proc = false;
    let wait = !fake && realWait(node, timersPromises);
    for (const n of calls(node)) {
      if (starters.has(aliases.get(n) ?? n)) proc = true;
      const fn = fns.get(n);
      if (fn && !seen.has(n) && fn !== node) {
        seen.add(n);
        const r = reach(fn, seen);
        proc ||= r.proc;
        wait ||= r.wait;
      }
    }
    return { proc, wait };
  };
  let tests = 0;
  let proc = 0;
  let wait = 0;
  let either = 0;
  const visit = (n, hooks) => {
    if (ts.isCallExpression(n)) {
      const b = base(n);
      const fn = lastFn(n);
      if (b && fn && TEST.has(b)) {
        const r = [fn, ...hooks].map((h) => reach(h)).reduce((a, c) => ({ proc: a.proc || c.proc, wait: a.wait || c.wait }), { proc: false, wait: false });
        // it.each over a table counts once per row.
        const inner = n.expression;
        const table =
          ts.isCallExpression(inner) && base(inner) && ts.isPropertyAccessExpression(inner.expression) && inner.expression.name.text === 'each'
            ? inner.arguments[0]
            : undefined;
        const times = table && ts.isArrayLiteralExpression(table) ? table.elements.length : 1;
        tests += times;
        if (r.proc) proc += times;
        if (r.wait) wait += times;
        if (r.proc || r.wait) either += times;
        return;
      }
      if (b === 'describe' && fn) {
        const own = fn.body && ts.isBlock(fn.body) ? fn.body.statements : [];
        const scoped = [...hooks];
        for (const s of own)
          if (ts.isExpressionStatement(s) && ts.isCallExpression(s.expression) && HOOKS.has(base(s.expression) ?? '')) scoped.push(lastFn(s.expression));
        ts.forEachChild(fn, (c) => visit(c, scoped.filter(Boolean)));
        return;
      }
    }
    ts.forEachChild(n, (c) => visit(c, hooks));
  };
  const top = [];
  for (const s of sf.statements)
    if (ts.isExpressionStatement(s) && ts.isCallExpression(s.expression) && HOOKS.has(base(s.expression) ?? '')) top.push(lastFn(s.expression));
  visit(sf, top.filter(Boolean));
  totalTests += tests;
  totalProcess += proc;
  totalWait += wait;
  totalEither += either;
  if (either) rows.push(`${rel}: ${either} of ${tests} (process ${proc}, real wait ${wait})`);
}
console.log(rows.sort().join('\n'));
console.log(`tests: ${totalTests}; starting a process: ${totalProcess}; waiting on a real timer: ${totalWait}; either: ${totalEither}`);
