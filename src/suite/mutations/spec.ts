import { z } from 'zod';
import { type Answer, frameType, type Mutation, type SocketKind } from '../../clients/mutation.js';
import type { RuleId } from '../../contract/index.js';

/** An HTTP answer to rewrite: the `nth` (0-based) answer of the case to `method` on a path (`*` matches one segment). */
export const HttpTarget = z.object({ method: z.string(), path: z.string(), nth: z.number().int().min(0) });
export type HttpTarget = z.infer<typeof HttpTarget>;

/** A received socket frame to rewrite: the `nth` (0-based) frame of the case of that `type` on that socket. */
export const FrameTarget = z.object({ socket: z.enum(['messaging', 'voice']), type: z.string(), nth: z.number().int().min(0) });
export type FrameTarget = z.infer<typeof FrameTarget>;

/** How an HTTP answer is rewritten. */
export const HttpHow = z.enum(['status-class', 'status-near', 'status-404', 'values', 'empty', 'drop-item', 'repeat-item', 'reverse-items']);
export type HttpHow = z.infer<typeof HttpHow>;

/** How a socket frame is rewritten. */
export const FrameHow = z.enum(['drop', 'repeat', 'values', 'empty', 'retype']);
export type FrameHow = z.infer<typeof FrameHow>;

/** One registered mutation: which exchange of the rule's case it rewrites, and how. */
export const MutationSpec = z.union([z.object({ on: HttpTarget, how: HttpHow }), z.object({ on: FrameTarget, how: FrameHow })]);
export type MutationSpec = z.infer<typeof MutationSpec>;

/**
 * What proves a rule can fail from outside: a mutation, or the reason none can. A rule checked once per operation it
 * covers (a case per operation, `rule(…, { operation })`) gives each operation's case a mutation of its own in
 * `operations`, so every operation is proven able to fail, not only the first; `mutation` serves the cases without one.
 */
export type RuleProof = { readonly mutation: MutationSpec; readonly operations?: Readonly<Record<string, MutationSpec>> } | { readonly reason: string };

/**
 * The key of one case's mutation in a proof run: the rule id, or `id@operation` for the case of one operation.
 *
 * @example
 * mutationKey('chat.auth.headers-required', 'respond') // 'chat.auth.headers-required@respond'
 */
export function mutationKey(rule: string, operation?: string): string {
  return operation === undefined ? rule : `${rule}@${operation}`;
}

/** What each way of rewriting does, in the words the report uses. */
export const HOW_SAYS: Record<HttpHow | FrameHow, string> = {
  'status-class': 'status moved to the other class (2xx to 500, 4xx/5xx to 200)',
  'status-near': 'status moved to a neighbour in its class (200 to 201, 401 to 403, …)',
  'status-404': 'answered 404 Not Found, as an unrouted path is',
  values: 'every value altered (texts suffixed, numbers +1, booleans negated)',
  empty: 'body emptied',
  'drop-item': 'last item of the first list dropped',
  'repeat-item': 'first item of the first list repeated',
  'reverse-items': 'first list reversed',
  drop: 'frame dropped',
  repeat: 'frame delivered twice',
  retype: 'frame type renamed',
};

/**
 * One line that names a mutation: which exchange and how.
 *
 * @example
 * describeSpec({ on: { method: 'POST', path: '/v1/*', nth: 0 }, how: 'empty' }) // 'POST /v1/* #1: body emptied'
 */
export function describeSpec(s: MutationSpec): string {
  const where = 'method' in s.on ? `${s.on.method} ${s.on.path}` : `${s.on.socket} frame ${s.on.type}`;
  return `${where} #${s.on.nth + 1}: ${HOW_SAYS[s.how]}`;
}

/**
 * One line that names a rule's mutations: the rule's own, then each operation's (`; on respond: …`).
 *
 * @example
 * describeMutations({ mutation: spec, operations: { close: other } }) // 'POST /v1/* #1: body emptied; on close: PUT …'
 */
export function describeMutations(p: { readonly mutation: MutationSpec; readonly operations?: Readonly<Record<string, MutationSpec>> }): string {
  return [describeSpec(p.mutation), ...Object.entries(p.operations ?? {}).map(([op, spec]) => `on ${op}: ${describeSpec(spec)}`)].join('; ');
}

const NEAR: Record<number, number> = { 200: 201, 201: 200, 202: 200, 204: 200, 400: 422, 401: 403, 403: 401, 404: 410, 409: 400, 410: 404, 422: 400, 429: 503 };

const SUFFIX = ' (mutated)';

/** Every leaf altered: texts suffixed, numbers +1, booleans negated; `keep` names top-level keys left alone. */
function alter(v: unknown, keep: ReadonlySet<string> = new Set()): unknown {
  if (typeof v === 'string') return `${v}${SUFFIX}`;
  if (typeof v === 'number') return v + 1;
  if (typeof v === 'boolean') return !v;
  if (Array.isArray(v)) return v.map((x) => alter(x));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, keep.has(k) ? x : alter(x)]));
  return v;
}

/** Applies `f` to the first array (depth first) in `v`. */
function firstList(v: unknown, f: (a: unknown[]) => unknown[]): { value: unknown; hit: boolean } {
  if (Array.isArray(v)) return { value: f(v), hit: true };
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = { ...(v as Record<string, unknown>) };
    for (const [k, x] of Object.entries(out)) {
      const r = firstList(x, f);
      if (r.hit) {
        out[k] = r.value;
        return { value: out, hit: true };
      }
    }
  }
  return { value: v, hit: false };
}

function parse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

const LIST_OPS: Record<'drop-item' | 'repeat-item' | 'reverse-items', (a: unknown[]) => unknown[]> = {
  'drop-item': (a) => a.slice(0, -1),
  'repeat-item': (a) => (a.length ? [a[0], ...a] : a),
  'reverse-items': (a) => [...a].reverse(),
};

/** The rewritten answer, or undefined when the way does not apply to it (no list in the body, for example). */
function rewriteAnswer(how: HttpHow, a: Answer): Answer | undefined {
  if (how === 'status-class') return { ...a, status: a.status >= 400 ? 200 : 500 };
  if (how === 'status-near') return { ...a, status: NEAR[a.status] ?? a.status + 1 };
  if (how === 'status-404') return { ...a, status: 404, text: '' };
  const body = parse(a.text);
  if (how === 'values') return { ...a, text: body.ok ? JSON.stringify(alter(body.value)) : `${a.text}${SUFFIX}` };
  if (how === 'empty') return { ...a, text: body.ok ? (Array.isArray(body.value) ? '[]' : '{}') : '' };
  if (!body.ok) return undefined;
  const r = firstList(body.value, LIST_OPS[how]);
  return r.hit ? { ...a, text: JSON.stringify(r.value) } : undefined;
}

/** The frames delivered instead of `text`, or undefined when the way does not apply. */
function rewriteFrame(how: FrameHow, text: string): string[] | undefined {
  if (how === 'drop') return [];
  if (how === 'repeat') return [text, text];
  const body = parse(text);
  if (!body.ok || !body.value || typeof body.value !== 'object') return undefined;
  const frame = body.value as Record<string, unknown>;
  if (how === 'values') return [JSON.stringify(alter(frame, new Set(['type'])))];
  if (how === 'empty') return [JSON.stringify({ type: frame.type })];
  return [JSON.stringify({ ...frame, type: `${String(frame.type)}_MUTATED` })];
}

/**
 * The pattern of a path: segments that look like generated ids, or that name the profile's tenant (`tenant`), become
 * `*`, so the pattern holds from run to run and from one environment to another.
 *
 * @example
 * pathPattern('/v1/acme/support/conversations/c-8d1f2c7e', ['acme', 'support']) // '/v1/*\/*\/conversations/*'
 */
export function pathPattern(path: string, tenant: readonly string[] = []): string {
  return path
    .split('/')
    .map((seg) => ((/\d/.test(seg) && seg.length >= 6) || tenant.includes(seg) ? '*' : seg))
    .join('/');
}

/** Whether `path` fits `pattern`, segment by segment (`*` fits any one segment). */
function matchesPath(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  return want.length === got.length && want.every((w, i) => w === '*' || w === got[i]);
}

/**
 * The mutation of a spec, with its own occurrence counter: compile once per case.
 *
 * @example
 * const m = compile({ on: { method: 'POST', path: '/chat/close', nth: 0 }, how: 'values' });
 * m.http?.({ method: 'POST', path: '/chat/close' }, { status: 200, headers: {}, text: '{"success":true}' })?.text // '{"success":false}'
 */
export function compile(spec: MutationSpec): Mutation {
  let seen = 0;
  const on = spec.on;
  if ('method' in on) {
    const how = spec.how as HttpHow;
    return {
      http: (req, answer) => {
        if (req.method !== on.method || !matchesPath(on.path, req.path)) return undefined;
        return seen++ === on.nth ? rewriteAnswer(how, answer) : undefined;
      },
    };
  }
  const how = spec.how as FrameHow;
  return {
    frame: (socket: SocketKind, text) => {
      if (socket !== on.socket || frameType(text) !== on.type) return undefined;
      return seen++ === on.nth ? rewriteFrame(how, text) : undefined;
    },
  };
}

/**
 * The mutation of each `METHOD /documented/{param}/path` operation's first answer, rewritten `how`: for a rule with a
 * case per operation, each case's own request (`{param}` segments match any one segment).
 *
 * @example
 * onEachOperation(['GET /v1/agents/{agentId}/deployments'], 'status-class')
 * // { 'GET /v1/agents/{agentId}/deployments': { on: { method: 'GET', path: '/v1/agents/*\/deployments', nth: 0 }, how: 'status-class' } }
 */
export function onEachOperation(operations: readonly string[], how: HttpHow): Record<string, MutationSpec> {
  return Object.fromEntries(
    operations.map((op) => {
      const [method = '', path = ''] = op.split(' ');
      return [op, { on: { method, path: path.replace(/\{[^}]+\}/g, '*'), nth: 0 }, how }];
    }),
  );
}

/**
 * The proof of a rule with a case per operation: each operation's first answer rewritten `how`, the first operation's
 * as the rule's own mutation and the others' under `operations`.
 *
 * @example
 * onEveryOperation(['GET /v1/alert-rules', 'GET /v1/alerts'], 'status-near').operations // { 'GET /v1/alerts': { … } }
 */
export function onEveryOperation(operations: readonly string[], how: HttpHow): RuleProof {
  const [first = '', ...rest] = operations;
  return { mutation: onEachOperation([first], how)[first] as MutationSpec, operations: onEachOperation(rest, how) };
}

/** A surface's registry: how each of its documented rules is broken from outside. */
export type Proofs = Partial<Record<RuleId, RuleProof>>;
