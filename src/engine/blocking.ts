// k6 gives each VU a JavaScript runtime of its own, so `http.get()`, `sleep()` and `ws.connect()` block the VU there and
// return their result. The built-in engine runs many VUs in one Node thread, where nothing may block, so those calls
// return promises. This rewrite of the bundle awaits every such call, makes every function that reaches one `async`,
// and awaits every call of such a function, so a script in the classic style runs unchanged. What it cannot follow
// (such a function handed to code that will not wait for it, a getter, a generator, a request in the init context) is
// refused before the run with the script's file:line and why.
//
// It inserts text only (`async `, `(await `, `)`, `__dialtone_thrown(`), never a line break, so the bundle's source map still maps each
// line.
import { type Node, parse } from 'acorn';
import * as scope from 'eslint-scope';
import { MODULES } from './modules/descriptions.js';
import type { ModuleDescription } from './modules/module-description.js';

/** One set per import name (aliases included) of what each module's description lists. */
const byImportName = <T>(of: (m: ModuleDescription) => T): Readonly<Record<string, T>> =>
  Object.fromEntries(MODULES.flatMap((m) => m.names.map((name) => [name, of(m)])));

/** The k6 calls that block the VU in k6: they return promises in the built-in engine. */
const BLOCKING = byImportName((m) => new Set(m.blocking));

/**
 * The k6 classes whose instances' methods block the VU in k6: a variable holding `new grpc.Client()` has its
 * `client.connect()`, `client.invoke()` and `client.healthCheck()` awaited.
 */
const BLOCKING_METHODS = byImportName((m) => Object.fromEntries(Object.entries(m.blockingMethods).map(([cls, methods]) => [cls, new Set(methods)])));

/** The k6 calls that run a function the script passes and wait for it (`group`): they block when that function does. */
const WAITS_FOR = byImportName((m) => new Set(m.waitsFor));

/** The k6 calls that send something: a run whose script has one but that sent nothing did not run as written. */
const SENDING = byImportName((m) => new Set(m.sending));

/** Array and collection methods whose callback may block: the rewrite runs them one element after the other, awaiting each. */
const EACH_METHODS: ReadonlySet<string> = new Set(['forEach', 'map']);

/**
 * The helper the rewrite puts on the bundle's first line (no line break) when it rewrote a forEach or map: for an
 * array, a typed array, a Map or a Set, forEach and map that await each callback in order; anything else as it is.
 */
const EACH_HELPER =
  'var __dialtone_each = (x) => Array.isArray(x) || ArrayBuffer.isView(x) ? { forEach: async (f, t) => { for (let i = 0; i < x.length; i++) if (i in x) await f.call(t, x[i], i, x); }, map: async (f, t) => { const o = new Array(x.length); for (let i = 0; i < x.length; i++) if (i in x) o[i] = await f.call(t, x[i], i, x); return o; } } : x instanceof Map || x instanceof Set ? { forEach: async (f, t) => { for (const [k, v] of x.entries()) await f.call(t, v, k, x); } } : x; ';

/**
 * The helper put on the bundle's first line when a `throw` throws something that may not be an Error (`throw 'boom'`,
 * `throw value`; never `throw new …`): it hands the engine the value with the stack at the throw, since a string has
 * none, and returns the value unchanged, so the script catches what it threw. k6 logs such an exception with the
 * script's file:line (vu.ts, errorText).
 */
const THROWN_HELPER =
  'var __dialtone_thrown = (v) => { if (!(v instanceof Error) && typeof globalThis.__dialtone_throws === "function") { const at = {}; ' +
  'Error.captureStackTrace(at, __dialtone_thrown); globalThis.__dialtone_throws(v, at.stack); } return v; }; ';

/** Callees that take a handler they run later and whose promise the engine follows: an async handler is fine there. */
const HANDLER_HOSTS: ReadonlySet<string> = new Set(['on', 'addEventListener', 'setTimeout', 'setInterval']);

/** Where a position of the bundle came from in the script's sources. */
export type Locate = (line: number, column: number) => string;

/** A construct the rewrite cannot follow, said with where it is. */
export class BlockingRefusal extends Error {}

/** What the rewrite gives: the code to run and what it found. */
export interface Rewritten {
  readonly code: string;
  /** The k6 calls in the script that send (`http.get at script.js:12`), first few; empty when it sends nothing. */
  readonly sends: readonly string[];
  /** How many blocking calls are now awaited, and how many functions were made async. */
  readonly awaited: number;
  readonly madeAsync: number;
}

// A minimal ESTree view: acorn's nodes carry these fields; everything else is read by name.
type N = Node & { [key: string]: unknown; loc?: { start: { line: number; column: number } } };
type Fn = N & { async: boolean; generator: boolean; params: N[]; body: N };

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const isFn = (n: unknown): n is Fn => typeof n === 'object' && n !== null && FUNCTION_TYPES.has((n as N).type);

/** `(0, x.y)` and `(x)` to what they call. */
function unwrap(n: N): N {
  let c = n;
  while (c.type === 'SequenceExpression' || c.type === 'ParenthesizedExpression') {
    const list = c.expressions as N[] | undefined;
    c = list ? (list[list.length - 1] as N) : (c.expression as N);
  }
  return c;
}

/** A member's static name: `a.b`, `a['b']`. */
function propName(m: N): string | undefined {
  const p = m.property as N;
  if (!m.computed && p.type === 'Identifier') return p.name as string;
  if (m.computed && p.type === 'Literal' && typeof p.value === 'string') return p.value;
  return undefined;
}

/** `require("k6/x")` or esbuild's `__toESM(require("k6/x"))`: the module name. */
function k6Require(init: N | null | undefined): string | undefined {
  if (init?.type !== 'CallExpression') return undefined;
  const callee = init.callee as N;
  const args = init.arguments as N[];
  if (callee.type === 'Identifier' && callee.name === 'require') {
    const a = args[0];
    return a?.type === 'Literal' && typeof a.value === 'string' && (a.value === 'k6' || a.value.startsWith('k6/')) ? a.value : undefined;
  }
  if (callee.type === 'Identifier' && (callee.name as string).startsWith('__toESM')) return k6Require(args[0]);
  return undefined;
}

interface Call {
  readonly node: N;
  readonly parent: N;
  /** The function the call is directly in; undefined at a module's top level. */
  readonly fn: Fn | undefined;
  /** A k6 function it calls (`k6/http.get`), when it calls one. */
  readonly k6?: { module: string; name: string };
  /** A blocking method of a k6 object it calls (`grpc.Client.invoke`), when it calls one. */
  readonly method?: string;
}

/** Walks every node with its parent, keeping the function each is directly in. */
function walk(root: N, visit: (node: N, parent: N | undefined, fn: Fn | undefined) => void): void {
  const stack: [N, N | undefined, Fn | undefined][] = [[root, undefined, undefined]];
  while (stack.length) {
    const [node, parent, fn] = stack.pop() as [N, N | undefined, Fn | undefined];
    visit(node, parent, fn);
    const inner = isFn(node) ? node : fn;
    for (const key of Object.keys(node)) {
      if (key === 'loc' || key === 'start' || key === 'end' || key === 'type') continue;
      const v = node[key];
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) if (v[i] && typeof v[i].type === 'string') stack.push([v[i], node, inner]);
      } else if (v && typeof v === 'object' && typeof (v as N).type === 'string') stack.push([v as N, node, inner]);
    }
  }
}

/**
 * Rewrites a bundle (CommonJS, as `bundleScript` makes it) so its blocking k6 calls are awaited.
 *
 * @example
 * const { code } = rewriteBlocking('var http = require("k6/http"); function f() { return http.get(u).status; }', at);
 * // 'var http = require("k6/http"); async function f() { return (await http.get(u)).status; }'
 */
export function rewriteBlocking(code: string, locate: Locate): Rewritten {
  let ast: N;
  try {
    ast = parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      locations: true,
      ranges: true,
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
    }) as unknown as N;
  } catch (e) {
    throw new BlockingRefusal(`the script could not be read: ${(e as Error).message}`);
  }
  const where = (n: N) => (n.loc ? locate(n.loc.start.line, n.loc.start.column) : '?');

  // Scope analysis: which declaration each identifier names. nodejsScope: the bundle runs inside a function.
  const manager = scope.analyze(ast as never, { ecmaVersion: 2022, sourceType: 'script', nodejsScope: true });
  const resolved = new Map<N, scope.Variable>();
  for (const s of manager.scopes) for (const r of s.references) if (r.resolved) resolved.set(r.identifier as unknown as N, r.resolved);

  /** The k6 module a variable holds, when it holds one. */
  const moduleOf = new Map<scope.Variable, string>();
  for (const s of manager.scopes)
    for (const v of s.variables)
      for (const d of v.defs) {
        if (d.type !== 'Variable') continue;
        const m = k6Require((d.node as unknown as N).init as N | undefined);
        if (m) moduleOf.set(v, m);
      }
  const moduleAt = (n: N): string | undefined => {
    if (n.type === 'Identifier') {
      const v = resolved.get(n);
      return v ? moduleOf.get(v) : undefined;
    }
    // `import_http.default` is the module too (esbuild's default import).
    if (n.type === 'MemberExpression' && propName(n) === 'default') return moduleAt(n.object as N);
    return undefined;
  };
  /** A member expression naming a k6 function: `http.get`, `import_http.default.get`. */
  const k6Member = (n: N): { module: string; name: string } | undefined => {
    if (n.type !== 'MemberExpression') return undefined;
    const module = moduleAt(n.object as N);
    const name = propName(n);
    return module && name ? { module, name } : undefined;
  };

  /** The blocking methods of the k6 object a variable holds (`new grpc.Client()`), by the variable. */
  const instanceOf = new Map<scope.Variable, { what: string; methods: ReadonlySet<string> }>();
  for (const s of manager.scopes)
    for (const v of s.variables)
      for (const r of v.references) {
        const made = r.writeExpr as unknown as N | null | undefined;
        if (made?.type !== 'NewExpression') continue;
        const cls = k6Member(unwrap(made.callee as N));
        const methods = cls ? BLOCKING_METHODS[cls.module]?.[cls.name] : undefined;
        if (cls && methods) instanceOf.set(v, { what: `${cls.module.replace('k6/', '').replace('net/', '')}.${cls.name}`, methods });
      }
  /**
   * The same methods by name alone, in a bundle that imports their module: a client the analysis cannot follow (a
   * parameter, `this.client` in a wrapper class) is still awaited. Awaiting a value that is no promise changes nothing.
   */
  const byName = new Map<string, string>();
  const imported = new Set(moduleOf.values());
  for (const [module, classes] of Object.entries(BLOCKING_METHODS))
    if (imported.has(module))
      for (const [cls, methods] of Object.entries(classes))
        for (const m of methods) byName.set(m, `${module.replace('k6/', '').replace('net/', '')}.${cls}.${m}`);
  /** `client.invoke` on a variable holding a k6 object whose `invoke` blocks, or by name: its name for messages. */
  const blockingMethod = (n: N): string | undefined => {
    if (n.type !== 'MemberExpression') return undefined;
    const name = propName(n);
    if (!name) return undefined;
    const object = n.object as N;
    const v = object.type === 'Identifier' ? resolved.get(object) : undefined;
    const held = v ? instanceOf.get(v) : undefined;
    if (held) return held.methods.has(name) ? `${held.what}.${name}` : undefined;
    return moduleAt(object) ? undefined : byName.get(name);
  };

  /** The function a variable always holds: a declaration, or a const/never reassigned binding of a function expression. */
  const fnOfVariable = (v: scope.Variable): Fn | undefined => {
    if (v.defs.length !== 1) return undefined;
    const d = v.defs[0] as scope.Definition;
    const node = d.node as unknown as N;
    if (d.type === 'FunctionName' && isFn(node)) return node;
    if (d.type === 'Variable' && isFn(node.init)) {
      const writes = v.references.filter((r) => r.isWrite() && (r.identifier as unknown as N) !== node.id);
      return writes.length === 0 ? (node.init as Fn) : undefined;
    }
    return undefined;
  };

  // Every call, with the function it is directly in; every k6 member used and not called; every function's parent.
  const calls: Call[] = [];
  const parentOf = new Map<N, N>();
  const sends: string[] = [];
  const refusals: string[] = [];
  const throws: N[] = [];
  walk(ast, (node, parent, fn) => {
    if (parent) parentOf.set(node, parent);
    if (node.type === 'ThrowStatement' && (node.argument as N).type !== 'NewExpression') throws.push(node.argument as N);
    if (node.type === 'CallExpression' && parent) {
      const callee = unwrap(node.callee as N);
      const k6 = k6Member(callee);
      const method = k6 ? undefined : blockingMethod(callee);
      calls.push({ node, parent, fn, k6, ...(method ? { method } : {}) });
    }
    if (node.type === 'MemberExpression' && parent) {
      const k6 = k6Member(node);
      if (!k6) return;
      if (SENDING[k6.module]?.has(k6.name) && sends.length < 3)
        sends.push(`${k6.name === 'browser' ? 'browser' : `${k6.module.replace('k6/', '')}.${k6.name}`} at ${where(node)}`);
      const calledHere = parent.type === 'CallExpression' && unwrap(parent.callee as N) === node;
      const inCallee = parent.type === 'SequenceExpression' && parentOf.get(parent)?.type === 'CallExpression';
      if (BLOCKING[k6.module]?.has(k6.name) && !calledHere && !inCallee)
        refusals.push(
          `${where(node)}: ${k6.module.replace('k6/', '')}.${k6.name} is used as a value; the built-in engine can only wait for it where it is called`,
        );
    }
  });

  // The fixed point: a call blocks when it calls a blocking k6 function, a function made async, or group() with one.
  const converted = new Set<Fn>();
  /** Functions that hold awaited calls (converted, or async already). */
  const awaiting = new Set<Fn>();
  const blockingCalls = new Set<N>();
  /** Names a converted function is called by: as a plain name, and as a member (`obj.name()`). */
  const namesOfConverted = new Set<string>();
  const memberNames = new Set<string>();
  const both = (name: string) => {
    namesOfConverted.add(name);
    memberNames.add(name);
  };
  const fnOfIdentifier = (n: N): Fn | undefined => {
    const v = resolved.get(n);
    return v ? fnOfVariable(v) : undefined;
  };
  const isConvertedValue = (n: N | undefined): boolean => {
    if (!n) return false;
    const u = unwrap(n);
    if (isFn(u)) return converted.has(u);
    if (u.type === 'Identifier') {
      const f = fnOfIdentifier(u);
      return f ? converted.has(f) : false;
    }
    return false;
  };
  const callBlocks = (c: Call): boolean => {
    if (c.method) return true;
    if (c.k6) {
      if (BLOCKING[c.k6.module]?.has(c.k6.name)) return true;
      if (WAITS_FOR[c.k6.module]?.has(c.k6.name)) return (c.node.arguments as N[]).some((a) => isConvertedValue(a));
      return false;
    }
    const callee = unwrap(c.node.callee as N);
    if (isFn(callee)) return converted.has(callee);
    if (callee.type === 'Identifier') {
      const f = fnOfIdentifier(callee);
      if (f) return converted.has(f);
      // A binding the analysis cannot follow (a parameter, a destructured import of a CommonJS module): by its name.
      return namesOfConverted.has(callee.name as string);
    }
    if (callee.type === 'MemberExpression') {
      const name = propName(callee);
      if (name === 'call' || name === 'apply') return isConvertedValue(callee.object as N);
      if (name && EACH_METHODS.has(name) && isConvertedValue((c.node.arguments as N[])[0])) return true;
      return name !== undefined && memberNames.has(name) && !moduleAt(callee.object as N);
    }
    return false;
  };
  /** The names a converted function is called by: its own, its method's or property's key, the member it is assigned to. */
  const addNames = (f: Fn) => {
    const id = f.id as N | null | undefined;
    if (id?.type === 'Identifier') namesOfConverted.add(id.name as string);
    const p = parentOf.get(f);
    if (!p) return;
    if ((p.type === 'Property' || p.type === 'MethodDefinition' || p.type === 'PropertyDefinition') && p.value === f) {
      const key = p.key as N;
      const name =
        !p.computed && key.type === 'Identifier' ? (key.name as string) : key.type === 'Literal' && typeof key.value === 'string' ? key.value : undefined;
      if (name) both(name);
    }
    if (p.type === 'VariableDeclarator' && (p.id as N).type === 'Identifier') namesOfConverted.add((p.id as N).name as string);
    if (p.type === 'AssignmentExpression' && (p.left as N).type === 'MemberExpression') {
      const name = propName(p.left as N);
      if (name) both(name);
    }
  };
  /** Property keys and member names a converted function is stored under elsewhere (`{ login }`, `exports.login = login`). */
  const addAliasNames = () => {
    for (const s of manager.scopes)
      for (const r of s.references) {
        const f = r.resolved ? fnOfVariable(r.resolved) : undefined;
        if (!f || !converted.has(f)) continue;
        const id = r.identifier as unknown as N;
        const p = parentOf.get(id);
        if (p?.type === 'Property' && p.value === id) {
          const key = p.key as N;
          if (key.type === 'Identifier') both(key.name as string);
        }
        if (p?.type === 'AssignmentExpression' && p.right === id && (p.left as N).type === 'MemberExpression') {
          const name = propName(p.left as N);
          if (name) both(name);
        }
      }
  };
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of calls) {
      if (blockingCalls.has(c.node) || !callBlocks(c)) continue;
      blockingCalls.add(c.node);
      changed = true;
      if (!c.fn) continue;
      awaiting.add(c.fn);
      if (!c.fn.async && !converted.has(c.fn)) {
        converted.add(c.fn);
        addNames(c.fn);
      }
    }
    if (changed) addAliasNames();
  }

  // What cannot be followed.
  for (const c of calls) {
    if (!blockingCalls.has(c.node)) continue;
    const what = c.k6 ? `${c.k6.module.replace('k6/', '')}.${c.k6.name}` : (c.method ?? 'a call that blocks');
    if (!c.fn) refusals.push(`${where(c.node)}: ${what} runs in the init context, where k6 makes no requests and does not sleep; move it into a function`);
  }
  const firstBlockingIn = (f: Fn): string => {
    const c = calls.find((x) => x.fn === f && blockingCalls.has(x.node));
    return c ? `${c.k6 ? `${c.k6.module.replace('k6/', '')}.${c.k6.name}` : (c.method ?? 'a blocking call')} at ${where(c.node)}` : 'a blocking call';
  };
  const nameOf = (f: Fn): string => {
    const id = f.id as N | null | undefined;
    if (id?.type === 'Identifier') return `'${id.name as string}'`;
    const p = parentOf.get(f);
    if (p?.type === 'VariableDeclarator' && (p.id as N).type === 'Identifier') return `'${(p.id as N).name as string}'`;
    if (p && (p.type === 'Property' || p.type === 'MethodDefinition') && (p.key as N).type === 'Identifier') return `'${(p.key as N).name as string}'`;
    return 'a function';
  };
  for (const f of converted) {
    const p = parentOf.get(f);
    if (f.generator) refusals.push(`${where(f)}: the generator ${nameOf(f)} makes ${firstBlockingIn(f)}; a generator cannot wait for it`);
    if (p && (p.type === 'Property' || p.type === 'MethodDefinition') && (p.kind === 'get' || p.kind === 'set' || p.kind === 'constructor'))
      refusals.push(
        `${where(f)}: the ${p.kind === 'constructor' ? 'constructor' : `${p.kind}ter`} ${nameOf(f)} makes ${firstBlockingIn(f)}; it cannot wait for it (make it a method)`,
      );
    const use = valueUse(f, p);
    if (use)
      refusals.push(
        `${where(use.at)}: ${nameOf(f)} makes ${firstBlockingIn(f)} and is ${use.how}, which would not wait for it; call it directly (a for…of loop; ` +
          `forEach and map are followed)`,
      );
  }
  for (const s of manager.scopes)
    for (const r of s.references) {
      const f = r.resolved ? fnOfVariable(r.resolved) : undefined;
      if (!f || !converted.has(f)) continue;
      const id = r.identifier as unknown as N;
      const use = valueUse(id, parentOf.get(id));
      if (use)
        refusals.push(
          `${where(use.at)}: ${nameOf(f)} makes ${firstBlockingIn(f)} and is ${use.how}, which would not wait for it; call it directly (a for…of loop; ` +
            `forEach and map are followed)`,
        );
    }

  /**
   * How a converted function (or a reference to one) is used when that use cannot wait for it; undefined when it can:
   * called, a handler k6 runs later, group's function, stored under a name it is then called by, exported.
   */
  function valueUse(n: N, p: N | undefined): { at: N; how: string } | undefined {
    if (!p) return undefined;
    if (p.type === 'ParenthesizedExpression') return valueUse(p, parentOf.get(p));
    if (p.type === 'SequenceExpression') return (p.expressions as N[]).at(-1) === n ? valueUse(p, parentOf.get(p)) : undefined;
    if (p.type === 'CallExpression') {
      if (p.callee === n) return undefined;
      const callee = unwrap(p.callee as N);
      const k6 = k6Member(callee);
      if (k6 && WAITS_FOR[k6.module]?.has(k6.name)) return undefined;
      const name = callee.type === 'MemberExpression' ? propName(callee) : callee.type === 'Identifier' ? (callee.name as string) : undefined;
      if (name && HANDLER_HOSTS.has(name)) return undefined;
      if (name && EACH_METHODS.has(name) && callee.type === 'MemberExpression' && (p.arguments as N[])[0] === n) return undefined;
      if (name && callee.type === 'Identifier' && callee.name === '__export') return undefined;
      return { at: p, how: `passed to ${name ? `${name}()` : 'a function'}` };
    }
    if (p.type === 'MemberExpression' && p.object === n) {
      const name = propName(p);
      return name === 'call' || name === 'apply' ? undefined : name === 'bind' ? { at: p, how: 'bound with bind()' } : undefined;
    }
    if (p.type === 'ArrowFunctionExpression' && p.body === n) {
      // esbuild's export getters: `__export(exports, { default: () => fn })`.
      const pp = parentOf.get(p);
      if (pp?.type === 'Property' && parentOf.get(pp)?.type === 'ObjectExpression') return undefined;
      return { at: p, how: 'returned from an arrow function' };
    }
    if (p.type === 'Property' || p.type === 'MethodDefinition' || p.type === 'PropertyDefinition') return undefined;
    if (p.type === 'VariableDeclarator' || p.type === 'FunctionDeclaration' || p.type === 'ExportDefaultDeclaration') return undefined;
    if (p.type === 'AssignmentExpression' && (p.left as N).type === 'MemberExpression') return undefined;
    if (p.type === 'ArrayExpression') return { at: p, how: 'put in an array' };
    if (p.type === 'ReturnStatement') return { at: p, how: 'returned as a value' };
    if (p.type === 'AssignmentExpression' || p.type === 'ConditionalExpression' || p.type === 'LogicalExpression')
      return { at: p, how: 'held in a variable that is not always it' };
    return undefined;
  }

  if (refusals.length) throw new BlockingRefusal(refusals[0] as string);

  // The edits: text inserted at positions, the outer of two at one position first.
  const edits: { at: number; text: string; rank: number }[] = [];
  for (const f of converted) edits.push({ at: asyncAt(f, parentOf.get(f), code), text: 'async ', rank: 0 });
  let eachUsed = false;
  for (const c of calls) {
    if (!blockingCalls.has(c.node)) continue;
    const span = c.node.end - c.node.start;
    const callee = unwrap(c.node.callee as N);
    const each = !c.k6 && callee.type === 'MemberExpression' && EACH_METHODS.has(propName(callee) ?? '') && isConvertedValue((c.node.arguments as N[])[0]);
    if (each) {
      // `xs.forEach(f)` becomes `(await __dialtone_each(xs).forEach(f))`: each element's call awaited in order.
      const object = callee.object as N;
      const awaited = c.parent.type === 'AwaitExpression';
      edits.push({ at: object.start, text: awaited ? '__dialtone_each(' : '(await __dialtone_each(', rank: 1 + 1 / (1 + span) });
      edits.push({ at: object.end, text: ')', rank: 3 - 1 / (1 + (object.end - object.start)) });
      if (!awaited) edits.push({ at: c.node.end, text: ')', rank: 3 - 1 / (1 + span) });
      eachUsed = true;
      continue;
    }
    if (c.parent.type === 'AwaitExpression') continue;
    edits.push({ at: c.node.start, text: '(await ', rank: 1 + 1 / (1 + span) });
    edits.push({ at: c.node.end, text: ')', rank: 3 - 1 / (1 + span) });
  }
  if (eachUsed) edits.push({ at: 0, text: EACH_HELPER, rank: -1 });
  // `throw x` becomes `throw __dialtone_thrown(x)`, around any await inside x.
  for (const t of throws) {
    // `throw a, b` throws b: a sequence keeps its own parentheses inside the call.
    const seq = t.type === 'SequenceExpression';
    const open = /[\w$]/.test(code[t.start - 1] ?? '') ? ' ' : '';
    edits.push({ at: t.start, text: `${open}__dialtone_thrown(${seq ? '(' : ''}`, rank: 0.5 }, { at: t.end, text: seq ? '))' : ')', rank: 3.5 });
  }
  if (throws.length > 0) edits.push({ at: 0, text: THROWN_HELPER, rank: -1 });
  edits.sort((a, b) => a.at - b.at || a.rank - b.rank);
  let out = '';
  let last = 0;
  for (const e of edits) {
    out += code.slice(last, e.at) + e.text;
    last = e.at;
  }
  out += code.slice(last);
  return { code: out, sends, awaited: [...blockingCalls].length, madeAsync: converted.size };
}

/** Where `async ` goes for a function: before it, or before its method's key (`async get(p)`, `static async m()`). */
function asyncAt(f: Fn, p: N | undefined, code: string): number {
  if (p && (p.type === 'MethodDefinition' || (p.type === 'Property' && (p.method || p.kind !== 'init'))) && p.value === f) {
    const key = p.key as N;
    if (!p.computed) return key.start;
    return code.lastIndexOf('[', key.start);
  }
  return f.start;
}
