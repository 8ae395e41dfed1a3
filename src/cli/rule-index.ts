import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type RuleId, Rules, ruleList } from '../contract/index.js';
import type { Rule } from '../contract/rule.js';
import { Defects } from '../reference-target/defects.js';
import { Proofs } from '../suite/mutations/index.js';
import { describeMutations } from '../suite/mutations/spec.js';

/** A place in the source: `file:line`, relative to the project root. */
export type Place = string;

/** Everything a newcomer needs to walk one rule from its sentence to the code that obeys and checks it. */
export interface RuleEntry {
  readonly rule: Rule;
  /** The spec exports the case uses: schemas, constants and error entries (`IceServersErrors.UNAUTHORIZED`). */
  readonly uses: string[];
  /** Target code that obeys the rule: `// rule: <id>` markers, the switch of each defect that breaks it, the error entries it sends. */
  readonly target: { readonly place: Place; readonly via: string }[];
  /** Where the case (or cases) that check it are declared. */
  readonly cases: Place[];
  /** What breaks it on purpose: defects of the reference target and the registered mutation (or why there is none). */
  readonly breaks: string[];
}

interface SourceFile {
  readonly path: string;
  readonly lines: readonly string[];
}

function walk(dir: string, keep: (f: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name), keep) : keep(d.name) ? [join(dir, d.name)] : []));
}

const tsSources = (root: string, dir: string, tests = false) =>
  walk(join(root, dir), (f) => f.endsWith('.ts') && (tests || !f.endsWith('.test.ts')))
    .sort()
    .map((p) => ({ path: relative(root, p), lines: readFileSync(p, 'utf8').split('\n') }));

/** The first place whose line holds `needle`, skipping imports and the defect tables. */
function find(files: readonly SourceFile[], needle: string | RegExp): Place | undefined {
  for (const f of files) {
    if (f.path.endsWith('defects.ts')) continue;
    let inImport = false;
    for (const [i, l] of f.lines.entries()) {
      if (/^(import|export) .*\{$/.test(l)) inImport = true;
      const skip = inImport || /^(import|export \{)/.test(l);
      if (/^\} from /.test(l)) inImport = false;
      if (!skip && (typeof needle === 'string' ? l.includes(needle) : needle.test(l))) return `${f.path}:${i + 1}`;
    }
  }
  return undefined;
}

/**
 * The source of each case, by rule id: from the first line that quotes its id (`rule('id', …`, `rule(\n  'id',`, or a
 * row of a table of cases) to the next line that quotes another rule id.
 */
function caseBodies(files: readonly SourceFile[]): Map<string, { place: Place; body: string }[]> {
  const out = new Map<string, { place: Place; body: string }[]>();
  for (const f of files) {
    const starts: { id: string; i: number }[] = [];
    for (const [i, l] of f.lines.entries()) {
      for (const m of l.matchAll(/'([a-z0-9-]+(?:\.[a-z0-9-]+){2,})'/g)) {
        const id = m[1] as string;
        if (Object.hasOwn(Rules, id) && !starts.some((s) => s.id === id)) starts.push({ id, i });
      }
    }
    starts.forEach(({ id, i }, k) => {
      const end = Math.max(i + 1, starts.find((s, n) => n > k && s.i > i)?.i ?? f.lines.length);
      out.set(id, [...(out.get(id) ?? []), { place: `${f.path}:${i + 1}`, body: f.lines.slice(i, end).join('\n') }]);
    });
  }
  return out;
}

/** A route registration in the target: its place, method (when the line names one) and path segments. */
interface Route {
  readonly place: Place;
  readonly method: string | undefined;
  readonly segments: string[];
}

/** The string values of the spec's path constants (`VoicePaths.iceServers` → `/api/v1/ice-servers`; functions get `:p` params). */
async function pathConstants(): Promise<Map<string, string>> {
  const [{ AgentsPaths }, { AlertsPaths }, { MessagingPaths }, { VoicePaths }, { WebhooksPaths }] = await Promise.all([
    import('../contract/agents/shapes.js'),
    import('../contract/alerts/shapes.js'),
    import('../contract/messaging/shapes.js'),
    import('../contract/voice/shapes.js'),
    import('../contract/webhooks/shapes.js'),
  ]);
  const out = new Map<string, string>();
  const groups: Record<string, Record<string, unknown>> = { AgentsPaths, AlertsPaths, MessagingPaths, VoicePaths, WebhooksPaths };
  for (const [group, paths] of Object.entries(groups)) {
    for (const [key, v] of Object.entries(paths)) {
      const value = typeof v === 'function' ? (v as (...a: string[]) => string)(':a', ':b') : v;
      if (typeof value === 'string') out.set(`${group}.${key}`, decodeURIComponent(value));
    }
  }
  return out;
}

/** Route registrations in the target: `app.get('/…'`, `scope.post(XPaths.y`, `{ method: 'POST', url: '/…' }`. */
function routesOf(files: readonly SourceFile[], constants: Map<string, string>): Route[] {
  const out: Route[] = [];
  const call = /\b(?:app|scope)\.(get|post|put|patch|delete)\(\s*(?:'([^']+)'|(\w+Paths\.\w+))/;
  const row = /method:\s*'(\w+)',\s*url:\s*'([^']+)'/;
  for (const f of files) {
    if (/control(-routes|-surface)?\.ts$/.test(f.path)) continue;
    for (const [i, l] of f.lines.entries()) {
      const c = call.exec(l);
      const r = row.exec(l);
      const path = c ? (c[2] ?? constants.get(c[3] ?? '')) : r?.[2];
      if (!path) continue;
      out.push({ place: `${f.path}:${i + 1}`, method: (c?.[1] ?? r?.[1])?.toUpperCase(), segments: path.split('/').filter(Boolean) });
    }
  }
  return out;
}

/** The route that serves an exchange (`POST /v1/*\/*\/chat/create`): its segments match the path's last ones, one literal at least. */
function routeFor(routes: readonly Route[], method: string, path: string): Route | undefined {
  const want = path.split('/').filter(Boolean);
  return routes.find((r) => {
    if ((r.method && r.method !== method) || r.segments.length === 0 || r.segments.length > want.length) return false;
    const tail = want.slice(want.length - r.segments.length);
    const fits = r.segments.every((s, k) => s.startsWith(':') || tail[k] === '*' || s === tail[k]);
    return fits && r.segments.some((s, k) => !s.startsWith(':') && s === tail[k]);
  });
}

/**
 * The contract files whose facts derive cases of their own (`src/suite/derived`): the operations table (required
 * headers, shapes), the lists, the count limits, the socket events and the meanings in the shapes. A rule they quote is
 * checked there, after its hand-written cases in conformance/.
 */
const DERIVED = /^src\/contract\/(operations|lists|limits|events)\.ts$|^src\/contract\/[a-z-]+\/shapes\.ts$/;
const derivedSources = (root: string) => tsSources(root, 'src/contract').filter((f) => DERIVED.test(f.path));

/** Names the contract exports (`export const X`; its rules files aside), so a case's use of them can be found. */
function specExports(root: string): string[] {
  return tsSources(root, 'src/contract')
    .filter((f) => !f.path.endsWith('/rules.ts'))
    .flatMap((f) => f.lines.flatMap((l) => /^export const (\w+)/.exec(l)?.[1] ?? []));
}

/**
 * The rule index: for every catalogue rule, the spec names its case uses, the target code that obeys it, its cases
 * and what breaks it. Built from the sources each time (a second or so), so it never goes stale.
 *
 * @example
 * const index = await ruleIndex(ROOT);
 * index.get('chat.close.success-true')?.cases // ['conformance/chat/close.test.ts:5']
 */
export async function ruleIndex(root: string): Promise<Map<string, RuleEntry>> {
  const target = tsSources(root, 'src/reference-target');
  const routes = routesOf(target, await pathConstants());
  const bodies = caseBodies([...tsSources(root, 'conformance', true), ...derivedSources(root)]);
  const names = specExports(root);
  const out = new Map<string, RuleEntry>();
  for (const rule of ruleList) {
    const mine = bodies.get(rule.id) ?? [];
    const text = mine.map((b) => b.body).join('\n');
    const uses = new Set<string>();
    for (const n of names) {
      // A member of an export (an error entry, a path) says more than the export's name.
      const members = text.match(new RegExp(`\\b${n}\\.[A-Za-z_]+\\b`, 'g'));
      if (members) for (const m of members) uses.add(m);
      else if (new RegExp(`\\b${n}\\b`).test(text)) uses.add(n);
    }
    const places: { place: Place; via: string }[] = [];
    const add = (place: Place | undefined, via: string) => {
      if (place && !places.some((p) => p.place === place)) places.push({ place, via });
    };
    add(find(target, new RegExp(`//\\s*rule:.*\\b${rule.id.replace(/\./g, '\\.')}\\b`)), 'marker');
    const defects = Object.entries(Defects).filter(([, d]) => (d.breaks as readonly string[]).includes(rule.id));
    for (const [id] of defects) add(find(target, `'${id}'`), `defect ${id}`);
    // Then the error entries and paths the case shares with the target, then the schemas (the answer's shape).
    for (const u of uses) if (u.includes('.')) add(find(target, u), u);
    for (const u of uses) if (!u.includes('.') && places.length < 3) add(find(target, new RegExp(`\\b${u}\\b`)), u);
    const proof = Proofs[rule.id as RuleId];
    // The route that serves the exchange the rule's mutation rewrites: the handler that answers it.
    const on = proof && 'mutation' in proof ? proof.mutation.on : undefined;
    if (on && 'method' in on) add(routeFor(routes, on.method, on.path)?.place, `route of ${on.method} ${on.path}`);
    const breaks = [
      ...defects.map(([id]) => `defect ${id}`),
      ...(proof ? ['mutation' in proof ? `mutation ${describeMutations(proof)}` : `no mutation: ${proof.reason}`] : []),
    ];
    out.set(rule.id, { rule, uses: [...uses].sort(), target: places, cases: mine.map((b) => b.place), breaks });
  }
  return out;
}

/** The last outcome of each rule, from a conformance results.json when one exists. */
export function lastOutcomes(path: string): Map<string, string> {
  if (!existsSync(path)) return new Map();
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as { started_at?: string; rules?: { id: string; outcome: string }[] };
    return new Map((r.rules ?? []).map((x) => [x.id, `${x.outcome} (${r.started_at ?? 'unknown run'})`]));
  } catch {
    return new Map();
  }
}

/**
 * The walk of one rule, as the terminal shows it.
 *
 * @example
 * explain((await ruleIndex(ROOT)).get('chat.close.success-true')!, 'pass (2026-11-23T13:47:55Z)')
 */
export function explain(e: RuleEntry, outcome: string | undefined): string {
  const r = e.rule;
  const list = (xs: readonly string[]) => (xs.length ? xs.map((x) => `\n    ${x}`).join('') : ' none');
  return [
    `${r.id}  (${r.kind}${r.open ? ', open: never fails the gate' : ''})`,
    `  document ${r.doc}, section "${r.section}"`,
    `  sentence  ${r.statement}`,
    `  uses     ${list(e.uses)}`,
    `  target   ${list(e.target.map((t) => `${t.place}  (${t.via})`))}`,
    `  case     ${list(e.cases)}`,
    `  broken by${list(e.breaks)}`,
    `  last outcome ${outcome ?? 'no results.json yet (run dialtone conformance)'}`,
  ].join('\n');
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** docs/rules.md: the same index as a table, one row per rule (no outcomes, so it changes only with the sources). */
export function rulesMarkdown(index: Map<string, RuleEntry>): string {
  const rows = [...index.values()].map(
    (e) =>
      `| \`${e.rule.id}\` | ${e.rule.doc} · ${cell(e.rule.section)} | ${e.rule.open ? 'open' : e.rule.kind} | ${e.cases.join('<br>') || '—'} | ${e.target.map((t) => t.place).join('<br>') || '—'} | ${cell(e.breaks.join('; ')) || '—'} |`,
  );
  return `# Rules

Generated by \`npx dialtone rules --markdown > docs/rules.md\`; a test fails when it is stale. For one rule with its sentence
and what its case uses: \`npx dialtone rules --explain ID\`.

| rule | document · section | kind | case | target code | broken by |
| ---- | ------------------ | ---- | ---- | ----------- | --------- |
${rows.join('\n')}
`;
}
