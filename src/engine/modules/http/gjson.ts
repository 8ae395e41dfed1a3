// The GJSON path subset k6's `res.json(selector)` takes (/javascript-api/k6-http/response/response-json/), written
// from the syntax document (https://github.com/tidwall/gjson/blob/master/SYNTAX.md), evaluated on the parsed body
// rather than on its text:
//   keys `a.b`, indexes `arr.0`, `*`/`?` wildcards in keys, `\` escapes, `arr.#` (length), `arr.#.k` (k of each),
//   queries `#(k==v)` (first match) and `#(k>1)#` (all) with == != < <= > >= % !% and ~true ~false ~null ~*,
//   the pipe `|`, modifiers (@this @reverse @ugly @pretty @valid @flatten @join @keys @values @tostr @fromstr @group
//   @dig), multipaths `{name:path,path}` / `[path,path]` and literals `!true` inside them.
// A path that finds nothing, or that is not valid syntax, gives `undefined`.
//
// Working on values, not text, differs from GJSON in two corners: an object's integer-like keys come first in
// JavaScript's key order (so `*` and @keys may see another order), and of duplicate keys the last one wins.

/** What a path finds nothing at. */
const MISSING: unique symbol = Symbol('missing');
type Found = unknown;

type Sep = '.' | '|';

interface KeyComp {
  readonly k: 'key';
  readonly key: string;
  /** Set when the key holds an unescaped `*` or `?`. */
  readonly pattern: RegExp | null;
  /** The key as an array index, or -1 when it is not one. */
  readonly index: number;
}
interface CountComp {
  readonly k: 'count';
}
interface QueryComp {
  readonly k: 'query';
  readonly q: Query;
  /** `#(…)#`: every match, else the first. */
  readonly all: boolean;
}
interface ModComp {
  readonly k: 'mod';
  readonly name: string;
  readonly arg: unknown;
}
interface MultiComp {
  readonly k: 'multi';
  /** `{…}` makes an object, `[…]` an array. */
  readonly object: boolean;
  readonly entries: readonly { readonly name: string; readonly path: Compiled }[];
}
interface LitComp {
  readonly k: 'lit';
  readonly value: unknown;
}
type Bare = KeyComp | CountComp | QueryComp | ModComp | MultiComp | LitComp;
type Comp = Bare & {
  /** The separator before this component ('.' for the first). */
  sep: Sep;
  /** Index of the next component after a `|`, or the path's length: where a `#` mapping stops. */
  stop: number;
};
type Compiled = readonly Comp[];

type Op = '' | '==' | '!=' | '<' | '<=' | '>' | '>=' | '%' | '!%';
interface Query {
  readonly key: Compiled | null;
  readonly op: Op;
  /** The right-hand side as text (a string literal unquoted), as GJSON compares it. */
  readonly text: string;
  readonly num: number;
  /** `~true`, `~false`, `~null`, `~*`. */
  readonly tilde: '' | 'true' | 'false' | 'null' | '*';
  readonly pattern: RegExp | null;
}

class PathSyntaxError extends Error {}

const CACHE_MAX = 2_000;
const cache = new Map<string, Compiled | null>();

/** Compiles a path once; later calls with the same text reuse it. `null` for a path that is not valid syntax. */
function compile(path: string): Compiled | null {
  let c = cache.get(path);
  if (c !== undefined) return c;
  try {
    c = parsePath(path);
  } catch (err) {
    if (!(err instanceof PathSyntaxError)) throw err;
    c = null;
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(path, c);
  return c;
}

/**
 * The value at GJSON `path` in `value` (a parsed JSON document), or `undefined` when the path finds nothing or is
 * not valid syntax. An empty path gives the whole value.
 *
 * @example
 * gjsonGet({ friends: [{ age: 44 }, { age: 68 }] }, 'friends.#.age'); // [44, 68]
 */
export function gjsonGet(value: unknown, path: string): unknown {
  if (path === '') return value;
  const c = compile(path);
  if (c === null) return undefined;
  const r = run(value, c, 0, c.length);
  return r === MISSING ? undefined : r;
}

// ---- evaluation ----

function run(v: Found, comps: Compiled, from: number, end: number): Found {
  for (let i = from; i < end; i++) {
    const c = comps[i] as Comp;
    switch (c.k) {
      case 'key':
        v = getKey(v, c);
        break;
      case 'count': {
        if (!Array.isArray(v)) return MISSING;
        const next = comps[i + 1];
        if (i + 1 >= end || next?.sep === '|') {
          v = v.length;
          break;
        }
        const stop = Math.min(c.stop, end);
        v = mapRest(v, comps, i + 1, stop);
        i = stop - 1;
        break;
      }
      case 'query': {
        if (!Array.isArray(v)) return MISSING;
        if (!c.all) {
          v = firstMatch(v, c.q);
          break;
        }
        const matches = v.filter((el) => matches1(el, c.q));
        const next = comps[i + 1];
        if (i + 1 >= end || next?.sep === '|') {
          v = matches;
          break;
        }
        const stop = Math.min(c.stop, end);
        v = mapRest(matches, comps, i + 1, stop);
        i = stop - 1;
        break;
      }
      case 'mod':
        v = modify(c, v);
        break;
      case 'multi':
        v = multi(c, v);
        break;
      case 'lit':
        v = c.value;
        break;
    }
    if (v === MISSING) return MISSING;
  }
  return v;
}

/** `arr.#.rest`: rest applied to each element; elements where it finds nothing are left out. */
function mapRest(arr: readonly unknown[], comps: Compiled, from: number, end: number): unknown[] {
  const out: unknown[] = [];
  for (const el of arr) {
    const r = run(el, comps, from, end);
    if (r !== MISSING) out.push(r);
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const DIGITS = /^\d+$/;

function getKey(v: Found, c: KeyComp): Found {
  if (Array.isArray(v)) {
    return c.index >= 0 && c.index < v.length ? v[c.index] : MISSING;
  }
  if (!isObject(v)) return MISSING;
  if (c.pattern === null) return Object.hasOwn(v, c.key) ? v[c.key] : MISSING;
  for (const k in v) if (Object.hasOwn(v, k) && c.pattern.test(k)) return v[k];
  return MISSING;
}

function firstMatch(arr: readonly unknown[], q: Query): Found {
  for (const el of arr) if (matches1(el, q)) return el;
  return MISSING;
}

/** strconv.ParseBool's spellings, which GJSON's ~true / ~false read in strings. */
const TRUE_TEXT = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE_TEXT = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function tildeMatch(t: Found, tilde: Query['tilde']): boolean {
  switch (tilde) {
    case '*':
      return t !== MISSING;
    case 'null':
      return t === MISSING || t === null;
    case 'true':
      return t === true || (typeof t === 'number' && t !== 0) || (typeof t === 'string' && TRUE_TEXT.has(t));
    case 'false':
      return t === MISSING || t === null || t === false || t === 0 || (typeof t === 'string' && FALSE_TEXT.has(t));
    default:
      return false;
  }
}

function compare<T extends string | number | boolean>(a: T, op: Op, b: T): boolean {
  switch (op) {
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    default:
      return false;
  }
}

function matches1(el: unknown, q: Query): boolean {
  const t = q.key === null ? el : run(el, q.key, 0, q.key.length);
  if (q.tilde !== '') {
    const m = tildeMatch(t, q.tilde);
    return q.op === '!=' ? !m : q.op === '==' ? m : false;
  }
  if (t === MISSING) return false;
  if (q.op === '') return true;
  if (typeof t === 'string') {
    if (q.op === '%') return q.pattern?.test(t) ?? false;
    if (q.op === '!%') return !(q.pattern?.test(t) ?? false);
    return compare(t, q.op, q.text);
  }
  if (typeof t === 'number') return !Number.isNaN(q.num) && compare(t, q.op, q.num);
  if (typeof t === 'boolean') {
    if (q.text !== 'true' && q.text !== 'false') return q.op === '!=';
    return compare(t, q.op, q.text === 'true');
  }
  if (t === null) return q.op === '==' ? q.text === 'null' : q.op === '!=' ? q.text !== 'null' : false;
  return false;
}

function multi(c: MultiComp, v: Found): Found {
  if (c.object) {
    const out: Record<string, unknown> = {};
    for (const e of c.entries) {
      const r = run(v, e.path, 0, e.path.length);
      if (r !== MISSING) out[e.name] = r;
    }
    return out;
  }
  const out: unknown[] = [];
  for (const e of c.entries) {
    const r = run(v, e.path, 0, e.path.length);
    if (r !== MISSING) out.push(r);
  }
  return out;
}

function flatten(arr: readonly unknown[], deep: boolean, out: unknown[] = []): unknown[] {
  for (const el of arr) {
    if (Array.isArray(el)) {
      if (deep) flatten(el, true, out);
      else out.push(...el);
    } else out.push(el);
  }
  return out;
}

function dig(v: unknown, key: string, out: unknown[]): unknown[] {
  if (Array.isArray(v)) for (const el of v) dig(el, key, out);
  else if (isObject(v)) {
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      if (k === key) out.push(v[k]);
      dig(v[k], key, out);
    }
  }
  return out;
}

function modify(c: ModComp, v: Found): Found {
  switch (c.name) {
    case 'this':
    case 'ugly':
    case 'pretty':
    case 'valid':
      return v;
    case 'reverse':
      if (Array.isArray(v)) return [...v].reverse();
      if (isObject(v)) return Object.fromEntries(Object.entries(v).reverse());
      return v;
    case 'flatten':
      return Array.isArray(v) ? flatten(v, isObject(c.arg) && c.arg.deep === true) : v;
    case 'join': {
      if (!Array.isArray(v)) return v;
      const out: Record<string, unknown> = {};
      for (const el of v) if (isObject(el)) Object.assign(out, el);
      return out;
    }
    case 'keys':
      return isObject(v) ? Object.keys(v) : MISSING;
    case 'values':
      return isObject(v) ? Object.values(v) : MISSING;
    case 'tostr':
      return JSON.stringify(v);
    case 'fromstr':
      if (typeof v !== 'string') return MISSING;
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return MISSING;
      }
    case 'group': {
      if (!isObject(v)) return MISSING;
      const out: Record<string, unknown>[] = [];
      for (const [k, col] of Object.entries(v)) {
        if (!Array.isArray(col)) continue;
        col.forEach((x, i) => {
          out[i] ??= {};
          (out[i] as Record<string, unknown>)[k] = x;
        });
      }
      return out;
    }
    case 'dig':
      return typeof c.arg === 'string' ? dig(v, c.arg, []) : MISSING;
    default:
      return MISSING;
  }
}

// ---- parsing ----

/** Index just past the JSON string that opens at s[i] (a `"`). */
function skipString(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const ch = s[j];
    if (ch === '\\') j++;
    else if (ch === '"') return j + 1;
  }
  throw new PathSyntaxError('unterminated string');
}

const CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Index just past the bracket group that opens at s[i], skipping strings and escapes. */
function skipGroup(s: string, i: number): number {
  const stack: string[] = [CLOSE[s[i] as string] as string];
  for (let j = i + 1; j < s.length; j++) {
    const ch = s[j] as string;
    if (ch === '\\') j++;
    else if (ch === '"') j = skipString(s, j) - 1;
    else if (ch in CLOSE) stack.push(CLOSE[ch] as string);
    else if (ch === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return j + 1;
    }
  }
  throw new PathSyntaxError('unbalanced brackets');
}

/** Index just past a JSON value starting at s[i] (for literals and modifier arguments). */
function skipJsonValue(s: string, i: number): number {
  const ch = s[i];
  if (ch === '"') return skipString(s, i);
  if (ch === '{' || ch === '[') return skipGroup(s, i);
  let j = i;
  while (j < s.length && /[-+\w.]/.test(s[j] as string)) j++;
  if (j === i) throw new PathSyntaxError('missing value');
  return j;
}

function wildcardRegExp(pattern: string): RegExp {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '\\' && i + 1 < pattern.length) re += escapeRe(pattern[++i] as string);
    else if (ch === '*') re += '[\\s\\S]*';
    else if (ch === '?') re += '[\\s\\S]';
    else re += escapeRe(ch);
  }
  return new RegExp(`${re}$`);
}
const escapeRe = (ch: string) => ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

function parsePath(path: string): Compiled {
  const comps: Comp[] = [];
  let i = 0;
  let sep: Sep = '.';
  while (true) {
    const [comp, next] = parseComp(path, i);
    comps.push(Object.assign(comp, { sep, stop: 0 }) as Comp);
    i = next;
    if (i >= path.length) break;
    const ch = path[i];
    if (ch !== '.' && ch !== '|') throw new PathSyntaxError(`unexpected ${ch}`);
    sep = ch;
    i++;
    if (i >= path.length) throw new PathSyntaxError('path ends with a separator');
  }
  // Where a `#` mapping after each component would stop: at the next `|`.
  let stop = comps.length;
  for (let j = comps.length - 1; j >= 0; j--) {
    const c = comps[j] as Comp;
    c.stop = stop;
    if (c.sep === '|') stop = j;
  }
  return comps;
}

type Parsed = [Bare, number];

function parseComp(s: string, i: number): Parsed {
  const ch = s[i];
  if (ch === '#') {
    if (s[i + 1] === '(') {
      const close = skipGroup(s, i + 1);
      const q = parseQuery(s.slice(i + 2, close - 1));
      const all = s[close] === '#';
      return [{ k: 'query', q, all }, all ? close + 1 : close];
    }
    if (i + 1 >= s.length || s[i + 1] === '.' || s[i + 1] === '|') return [{ k: 'count' }, i + 1];
  }
  if (ch === '@') {
    let j = i + 1;
    while (j < s.length && s[j] !== ':' && s[j] !== '.' && s[j] !== '|') j++;
    const name = s.slice(i + 1, j);
    let arg: unknown;
    if (s[j] === ':') {
      const end = skipJsonValue(s, j + 1);
      const text = s.slice(j + 1, end);
      try {
        arg = JSON.parse(text) as unknown;
      } catch {
        arg = text;
      }
      j = end;
    }
    return [{ k: 'mod', name, arg }, j];
  }
  if (ch === '{' || ch === '[') {
    const close = skipGroup(s, i);
    return [parseMulti(s.slice(i + 1, close - 1), ch === '{'), close];
  }
  if (ch === '!') {
    const end = skipJsonValue(s, i + 1);
    try {
      return [{ k: 'lit', value: JSON.parse(s.slice(i + 1, end)) as unknown }, end];
    } catch {
      throw new PathSyntaxError('invalid literal');
    }
  }
  // A key: up to an unescaped `.` or `|`.
  let key = '';
  let wild = false;
  let j = i;
  for (; j < s.length; j++) {
    const c = s[j] as string;
    if (c === '.' || c === '|') break;
    if (c === '\\' && j + 1 < s.length) {
      key += s[++j];
      continue;
    }
    if (c === '*' || c === '?') wild = true;
    key += c;
  }
  if (j === i) throw new PathSyntaxError('empty key');
  const index = !wild && DIGITS.test(key) ? Number(key) : -1;
  return [{ k: 'key', key, pattern: wild ? wildcardRegExp(s.slice(i, j)) : null, index }, j];
}

/** Splits `s` at the commas that are outside strings and brackets. */
function splitTop(s: string, at: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let j = 0; j < s.length; j++) {
    const ch = s[j] as string;
    if (ch === '\\') j++;
    else if (ch === '"') j = skipString(s, j) - 1;
    else if (ch in CLOSE) j = skipGroup(s, j) - 1;
    else if (ch === at) {
      parts.push(s.slice(from, j));
      from = j + 1;
    }
  }
  parts.push(s.slice(from));
  return parts;
}

/** The name GJSON gives an unnamed multipath entry: "the name of the actual field", else "_". */
function fieldName(path: Compiled): string {
  const last = path[path.length - 1];
  return last?.k === 'key' ? last.key : '_';
}

const PLAIN_NAME = /^(?:[^.|#@!\\:"{}[\]()]|\\.)+$/;

function parseMulti(body: string, object: boolean): MultiComp {
  const entries: { name: string; path: Compiled }[] = [];
  for (const raw of splitTop(body, ',')) {
    let text = raw.trim();
    if (text === '') continue;
    let name: string | undefined;
    if (object) {
      if (text[0] === '"') {
        const end = skipString(text, 0);
        const rest = text.slice(end).trimStart();
        if (rest[0] === ':') {
          name = JSON.parse(text.slice(0, end)) as string;
          text = rest.slice(1).trim();
        }
      } else {
        const colon = splitTop(text, ':');
        if (colon.length > 1 && PLAIN_NAME.test((colon[0] as string).trim())) {
          name = (colon[0] as string).trim().replace(/\\(.)/g, '$1');
          text = colon.slice(1).join(':').trim();
        }
      }
    }
    if (text === '') throw new PathSyntaxError('empty entry');
    const path = parsePath(text);
    entries.push({ name: name ?? fieldName(path), path });
  }
  return { k: 'multi', object, entries };
}

const OPS: readonly Op[] = ['==', '!=', '<=', '>=', '!%', '<', '>', '%'];

function parseQuery(body: string): Query {
  // The operator: the first one outside strings and brackets.
  let at = -1;
  let op: Op = '';
  for (let j = 0; j < body.length && at < 0; j++) {
    const ch = body[j] as string;
    if (ch === '\\') j++;
    else if (ch === '"') j = skipString(body, j) - 1;
    else if (ch in CLOSE) j = skipGroup(body, j) - 1;
    else if (ch === '=' || ch === '!' || ch === '<' || ch === '>' || ch === '%') {
      const two = body.slice(j, j + 2);
      const found = OPS.find((o) => o === two) ?? OPS.find((o) => o === ch);
      if (found) {
        at = j;
        op = found;
      } else if (ch === '=') {
        // GJSON also takes a single `=`.
        at = j;
        op = '==';
      }
    }
  }
  const keyText = (at < 0 ? body : body.slice(0, at)).trim();
  const key = keyText === '' ? null : parsePath(keyText);
  if (at < 0) return { key, op: '', text: '', num: Number.NaN, tilde: '', pattern: null };
  const width = op === '==' && body[at + 1] !== '=' ? 1 : op.length;
  const valueText = body.slice(at + width).trim();
  let text = valueText;
  let tilde: Query['tilde'] = '';
  if (valueText[0] === '~') {
    const t = valueText.slice(1);
    if (t !== 'true' && t !== 'false' && t !== 'null' && t !== '*') throw new PathSyntaxError(`unknown ${valueText}`);
    tilde = t;
  } else if (valueText[0] === '"') {
    try {
      text = JSON.parse(valueText) as string;
    } catch {
      throw new PathSyntaxError('invalid string');
    }
  }
  const pattern = op === '%' || op === '!%' ? wildcardRegExp(text) : null;
  return { key, op, text, num: text === '' ? Number.NaN : Number(text), tilde, pattern };
}
