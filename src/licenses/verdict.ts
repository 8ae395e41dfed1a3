import { judgeExpression } from './spdx.js';
import type { InstalledPackage, InstalledTree } from './tree.js';

/** What dialtone may do with one installed package, and the words that say why. */
export type PackageVerdict =
  | { readonly pkg: InstalledPackage; readonly verdict: 'allowed' }
  | { readonly pkg: InstalledPackage; readonly verdict: 'unknown'; readonly why: string }
  | { readonly pkg: InstalledPackage; readonly verdict: 'forbidden'; readonly kind: 'licence' | 'not-to-use'; readonly why: string };

/** Names that may not be used whatever their licence says, each with the list's reason (a paid or non-open licence). */
export type NotToUse = ReadonlyMap<string, string>;

/**
 * Judges one package: forbidden when a not-to-use list names it, when its licence is AGPL, GPL or SSPL in every
 * alternative, or when it states none and its licence file is one of those; unknown when nothing says what it is.
 *
 * @example
 * judgePackage({ name: 'x', version: '1.0.0', license: '(MIT OR GPL-3.0)', … }).verdict; // 'allowed'
 * judgePackage({ name: 'remotion', … }, new Map([['remotion', 'its own licence']])).verdict; // 'forbidden'
 */
export function judgePackage(pkg: InstalledPackage, notToUse: NotToUse = new Map()): PackageVerdict {
  const listed = notToUse.get(pkg.name);
  if (listed !== undefined) return { pkg, verdict: 'forbidden', kind: 'not-to-use', why: listed };
  if (pkg.source !== 'package.json') {
    const file = pkg.license.match(/\(see (.+)\)$/)?.[1];
    if (pkg.fileFamily) return { pkg, verdict: 'forbidden', kind: 'licence', why: `${pkg.fileFamily} by its ${file}, as package.json names no licence` };
    return {
      pkg,
      verdict: 'unknown',
      why: file ? `package.json names no licence; ${file} begins '${pkg.head ?? ''}'` : 'package.json names no licence and no licence file ships',
    };
  }
  const v = judgeExpression(pkg.license);
  if (v.verdict === 'forbidden') return { pkg, verdict: 'forbidden', kind: 'licence', why: pkg.license };
  if (v.verdict === 'unknown') return { pkg, verdict: 'unknown', why: `'${pkg.license}' ${v.why}` };
  return { pkg, verdict: 'allowed' };
}

/**
 * Judges every package of a tree (not the root: it is dialtone, whose licence this is all about).
 *
 * @example
 * const { forbidden, unknown } = judgeTree(walkTree(ROOT));
 * if (forbidden.length) process.exitCode = 1;
 */
export function judgeTree(tree: InstalledTree, notToUse: NotToUse = new Map()) {
  const verdicts = tree.packages.map((p) => judgePackage(p, notToUse));
  return {
    verdicts,
    forbidden: verdicts.filter((v) => v.verdict === 'forbidden'),
    unknown: verdicts.filter((v) => v.verdict === 'unknown'),
  };
}

/**
 * The line that says why a package may not ship (the command prints one per forbidden package).
 *
 * @example
 * forbiddenLine(v); // 'dialtone licenses: forbidden: gpl-thing@1.0.0 is GPL-3.0 (AGPL, GPL and SSPL code may not ship with dialtone)'
 */
export function forbiddenLine(v: Extract<PackageVerdict, { verdict: 'forbidden' }>): string {
  const id = `${v.pkg.name}@${v.pkg.version}`;
  if (v.kind === 'not-to-use') return `dialtone licenses: forbidden: ${id} is marked not-to-use (${v.why})`;
  return `dialtone licenses: forbidden: ${id} is ${v.why} (AGPL, GPL and SSPL code may not ship with dialtone)`;
}
