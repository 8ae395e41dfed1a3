// The group tree and the checks counted in it, as k6's --summary-export `root_group` shows them: groups by the
// `group` tag ('' at the root, '::a::b' nested), checks by the `check` tag of the `checks` Rate samples.

import { createHash } from 'node:crypto';

/** Passes and fails of one check in one group. */
export interface CheckCount {
  readonly name: string;
  /** `<group path>::<name>`, e.g. `::status is 200` at the root. */
  readonly path: string;
  readonly id: string;
  passes: number;
  fails: number;
}

/** One group: its sub-groups and checks, in the order they were first seen. */
export interface GroupNode {
  readonly name: string;
  readonly path: string;
  readonly id: string;
  readonly groups: Map<string, GroupNode>;
  readonly checks: Map<string, CheckCount>;
}

/** k6's legacy ids are the MD5 of the path: the root group's id is md5("") (d41d8cd9…), as in k6's own exports. */
const idOf = (path: string) => createHash('md5').update(path).digest('hex');

const node = (name: string, path: string): GroupNode => ({ name, path, id: idOf(path), groups: new Map(), checks: new Map() });

/**
 * The group tree of a run. The store looks a tag set up once and keeps the CheckCount it got.
 *
 * @example
 * const tree = new GroupTree();
 * tree.check('::login', 'status is 200').passes++;
 */
export class GroupTree {
  readonly root: GroupNode = node('', '');

  /** The group at `path` ('' or '::a::b'), made with its parents when first seen. */
  group(path: string): GroupNode {
    let g = this.root;
    if (path === '') return g;
    // k6 group paths start with '::'; a path without it is read as one group below the root.
    const names = path.startsWith('::') ? path.slice(2).split('::') : [path];
    for (const name of names) {
      let next = g.groups.get(name);
      if (next === undefined) {
        next = node(name, `${g.path}::${name}`);
        g.groups.set(name, next);
      }
      g = next;
    }
    return g;
  }

  /** The check `name` of the group at `path`, made when first seen. */
  check(path: string, name: string): CheckCount {
    const g = this.group(path);
    let c = g.checks.get(name);
    if (c === undefined) {
      const p = `${g.path}::${name}`;
      c = { name, path: p, id: idOf(p), passes: 0, fails: 0 };
      g.checks.set(name, c);
    }
    return c;
  }
}
