import { closeSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { Family } from './spdx.js';

/** A licence as a package states it: its package.json's words, or the licence file it ships when those are missing. */
export interface DeclaredLicence {
  /** An SPDX expression, or `UNKNOWN (see FILE)` / `UNKNOWN` when package.json names none. */
  readonly license: string;
  /** Where it came from: package.json, a licence file (named), or nowhere. */
  readonly source: 'package.json' | 'file' | 'none';
  /** The licence file's first non-blank line, when the licence came from a file (what a person would read first). */
  readonly head?: string;
  /** The family the licence file's first lines name, when package.json names no licence (its title or its notice). */
  readonly fileFamily?: Family;
}

/** One licence entry of the legacy shapes: `"MIT"` or `{ "type": "MIT", "url": … }`. */
function entryText(entry: unknown): string | undefined {
  if (typeof entry === 'string') return entry.trim() || undefined;
  if (entry && typeof entry === 'object' && typeof (entry as { type?: unknown }).type === 'string') return (entry as { type: string }).type.trim() || undefined;
  return undefined;
}

/**
 * The licence a package.json states, as one SPDX expression: `license` as a string, or the legacy `license: {type}` and
 * `licenses: [{type}, …]` (several entries meant a choice, as npm documents their replacement `(A OR B)`).
 *
 * @example
 * licenceField({ license: 'MIT' }); // 'MIT'
 * licenceField({ licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] }); // '(MIT OR Apache-2.0)'
 * licenceField({}); // undefined
 */
export function licenceField(pkg: { license?: unknown; licenses?: unknown }): string | undefined {
  const direct = entryText(pkg.license);
  if (direct) return direct;
  const list = Array.isArray(pkg.license) ? pkg.license : Array.isArray(pkg.licenses) ? pkg.licenses : [pkg.licenses];
  const texts = list.map(entryText).filter((t): t is string => t !== undefined);
  if (texts.length <= 1) return texts[0];
  return `(${texts.join(' OR ')})`;
}

/** LICENSE, LICENCE, COPYING, with or without an extension or a suffix (LICENSE.md, LICENSE-MIT, COPYING.LESSER). */
const LICENCE_FILE = /^(licen[cs]e|copying)([.\-_].*)?$/i;

/**
 * The family a licence file's first lines name: its title (`GNU AFFERO GENERAL PUBLIC LICENSE`) or the notice that
 * points at it (`…under the terms of the GNU General Public License…`). A Lesser or Library GPL names none.
 *
 * @example
 * familyOfText('GNU GENERAL PUBLIC LICENSE\n   Version 3, 29 June 2007'); // 'GPL'
 * familyOfText('GNU LESSER GENERAL PUBLIC LICENSE'); // undefined
 */
export function familyOfText(text: string): Family | undefined {
  if (/\b(Lesser|Library) General Public Licen[cs]e\b/i.test(text)) return undefined;
  if (/\bAffero General Public Licen[cs]e\b/i.test(text)) return 'AGPL';
  if (/\bGeneral Public Licen[cs]e\b/i.test(text)) return 'GPL';
  if (/\bServer Side Public Licen[cs]e\b/i.test(text)) return 'SSPL';
  return undefined;
}

/** The first bytes of a file: enough for a licence's title and notice, without reading a whole licence. */
function firstBytes(path: string, n = 2048): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, readSync(fd, buf, 0, n, 0)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The licence of an installed package: its package.json's, else its licence files'. A file is not read as a licence
 * (wording varies too much to name one), but its first lines are searched for the families that may not ship: a
 * package with no licence field and a GPL COPYING is still GPL. When one of its files is a Lesser GPL (COPYING plus
 * COPYING.LESSER is how LGPL code ships), the package is taken as LGPL.
 *
 * @example
 * declaredLicence('/app/node_modules/left-pad', { license: 'WTFPL' }); // { license: 'WTFPL', source: 'package.json' }
 * declaredLicence('/app/node_modules/old', {}); // { license: 'UNKNOWN (see LICENSE)', source: 'file', head: 'MIT License' }
 */
export function declaredLicence(dir: string, pkg: { license?: unknown; licenses?: unknown }): DeclaredLicence {
  const field = licenceField(pkg);
  if (field) return { license: field, source: 'package.json' };
  let files: string[] = [];
  try {
    files = readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isFile() && LICENCE_FILE.test(e.name))
      .map((e) => e.name)
      .sort((a, b) => a.length - b.length || a.localeCompare(b));
  } catch {
    // An unreadable folder has no licence file to show; the licence stays unknown.
  }
  const first = files[0];
  if (first === undefined) return { license: 'UNKNOWN', source: 'none' };
  const heads = files.map((f) => {
    try {
      return firstBytes(join(dir, f)).split('\n').slice(0, 12).join('\n');
    } catch {
      return '';
    }
  });
  const lesser = heads.some((h) => /\b(Lesser|Library) General Public Licen[cs]e\b/i.test(h));
  const fileFamily = lesser ? undefined : heads.map(familyOfText).find(Boolean);
  const head = (heads[0] ?? '')
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0)
    ?.slice(0, 80);
  return { license: `UNKNOWN (see ${first})`, source: 'file', ...(head ? { head } : {}), ...(fileFamily ? { fileFamily } : {}) };
}
