/**
 * SPDX licence expressions (`MIT`, `(MIT OR GPL-3.0)`, `GPL-2.0 WITH Classpath-exception-2.0`) and the one question
 * dialtone asks of them: may code under this expression ship with dialtone? Hand-written: the grammar is four tokens and
 * parentheses, and a library for it would be one more dependency whose own licence needs checking.
 */

/** The licence families whose code may not ship with dialtone (k6 is AGPL; dialtone is Apache-2.0). */
export type Family = 'AGPL' | 'GPL' | 'SSPL';

/** What an expression lets dialtone do: ship it, not ship it, or a person has to read the licence. */
export type ExpressionVerdict = { verdict: 'allowed' } | { verdict: 'forbidden'; family: Family } | { verdict: 'unknown'; why: string };

type Node = { id: string; exception?: string } | { op: 'AND' | 'OR'; left: Node; right: Node };

/** Past this many alternatives an expression is not one a package would write; it is read as unknown, not expanded. */
const MAX_ALTERNATIVES = 256;

/**
 * The family of one licence id, or undefined when it is none of them. LGPL is not GPL: it lets a program that only
 * links the library keep its own licence.
 *
 * @example
 * copyleftFamily('GPL-3.0-or-later'); // 'GPL'
 * copyleftFamily('LGPL-2.1'); // undefined
 */
export function copyleftFamily(id: string): Family | undefined {
  // Deprecated and informal ids count too (GPL-2.0+, GPL-2.0-with-classpath-exception, GPLv3, AGPL-3.0).
  const m = /^(AGPL|GPL|SSPL)(V?\d|[^A-Z0-9]|$)/.exec(id.trim().toUpperCase());
  return m?.[1] as Family | undefined;
}

/** Splits on whitespace and parentheses; operators are upper case in SPDX, but packages in the wild write `or` too. */
function tokenize(expr: string): string[] {
  return (expr.match(/[()]|[^\s()]+/g) ?? []).map((t) => (/^(and|or|with)$/i.test(t) ? t.toUpperCase() : t));
}

/** Recursive descent, loosest first: OR, then AND, then WITH, then a licence id or a parenthesised expression. */
function parse(tokens: string[]): Node {
  let i = 0;
  const fail = (what: string): never => {
    throw new Error(`${what} at token ${i + 1}${tokens[i] === undefined ? ' (end)' : ` '${tokens[i]}'`}`);
  };
  const isOperand = (t: string | undefined) => t !== undefined && !['(', ')', 'AND', 'OR', 'WITH'].includes(t);
  const atom = (): Node => {
    const t = tokens[i];
    if (t === '(') {
      i++;
      const inner = or();
      if (tokens[i] !== ')') fail("expected ')'");
      i++;
      return inner;
    }
    if (!isOperand(t)) return fail('expected a licence id');
    i++;
    if (tokens[i] !== 'WITH') return { id: t as string };
    i++;
    if (!isOperand(tokens[i])) return fail('expected an exception id after WITH');
    return { id: t as string, exception: tokens[i++] as string };
  };
  const and = (): Node => {
    let left = atom();
    while (tokens[i] === 'AND') {
      i++;
      left = { op: 'AND', left, right: atom() };
    }
    return left;
  };
  const or = (): Node => {
    let left = and();
    while (tokens[i] === 'OR') {
      i++;
      left = { op: 'OR', left, right: and() };
    }
    return left;
  };
  if (tokens.length === 0) fail('empty expression');
  const node = or();
  if (i < tokens.length) fail('unexpected');
  return node;
}

/**
 * The ways a user may take code under an expression: each alternative is the licences that all apply together
 * (`A AND (B OR C)` → `[[A, B], [A, C]]`). An exception (`WITH`) is kept on its licence id, after a space. Throws on an
 * expression that is not SPDX.
 *
 * @example
 * alternatives('MIT AND (Apache-2.0 OR GPL-2.0 WITH Classpath-exception-2.0)');
 * // [['MIT', 'Apache-2.0'], ['MIT', 'GPL-2.0 WITH Classpath-exception-2.0']]
 */
export function alternatives(expr: string): string[][] {
  const expand = (n: Node): string[][] => {
    if ('id' in n) return [[n.exception ? `${n.id} WITH ${n.exception}` : n.id]];
    const l = expand(n.left);
    const r = expand(n.right);
    const out = n.op === 'OR' ? [...l, ...r] : l.flatMap((a) => r.map((b) => [...a, ...b]));
    if (out.length > MAX_ALTERNATIVES) throw new Error(`more than ${MAX_ALTERNATIVES} alternatives`);
    return out;
  };
  return expand(parse(tokenize(expr)));
}

/** Words a package writes in place of a licence: no licence to judge, so a person reads what the package ships. */
const NOT_A_LICENCE = /^(UNKNOWN|UNLICENSED|NONE|SEE LICEN[CS]E IN\b)/i;

/**
 * Judges an SPDX expression. Forbidden when every alternative carries an AGPL, GPL or SSPL licence (a user could take
 * no other way); the family named is that of the first alternative. Unknown when it names no licence or is not SPDX —
 * unless the unparsable text names one of those families and no other way is readable, which is forbidden until a
 * person says otherwise (`GNU GPL v3` is GPL, however written).
 *
 * @example
 * judgeExpression('(MIT OR GPL-3.0)'); // { verdict: 'allowed' }
 * judgeExpression('GPL-2.0 WITH Classpath-exception-2.0'); // { verdict: 'forbidden', family: 'GPL' }
 * judgeExpression('SEE LICENSE IN LICENSE.md'); // { verdict: 'unknown', why: 'names no licence' }
 */
export function judgeExpression(expr: string): ExpressionVerdict {
  const text = expr.trim();
  if (!text || NOT_A_LICENCE.test(text)) return { verdict: 'unknown', why: 'names no licence' };
  let alts: string[][];
  try {
    alts = alternatives(text);
  } catch (e) {
    const words = text.match(/[A-Za-z]+/g) ?? [];
    const family = /\bAffero\b/i.test(text) ? 'AGPL' : words.map(copyleftFamily).find(Boolean);
    const named = family ?? (/\bGeneral Public Licen[cs]e\b/i.test(text) && !/\b(Lesser|Library)\b/i.test(text) ? 'GPL' : undefined);
    if (named && !/\bor\b/i.test(text)) return { verdict: 'forbidden', family: named };
    return { verdict: 'unknown', why: `not an SPDX expression (${(e as Error).message})` };
  }
  const families = alts.map((alt) => alt.map(copyleftFamily).find(Boolean));
  const first = families[0];
  if (first && families.every(Boolean)) return { verdict: 'forbidden', family: first };
  return { verdict: 'allowed' };
}
