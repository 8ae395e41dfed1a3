import { AsyncLocalStorage } from 'node:async_hooks';

/** An HTTP answer as the clients see it, before they parse it. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

/** Which socket a frame came from. */
export type SocketKind = 'messaging' | 'voice';

/** What passed through the hook: an HTTP answer (method and path) or a received socket frame (its type). */
export type Seen = { readonly method: string; readonly path: string; readonly status: number } | { readonly socket: SocketKind; readonly type: string };

/**
 * A wire-level mutation: rewrites what the target answered on its way to the suite. Each function returns the
 * rewritten value, or undefined to leave it as it came. `frame` returns the frames to deliver instead (none drops it,
 * two repeats it).
 */
export interface Mutation {
  readonly http?: (req: { readonly method: string; readonly path: string }, answer: Answer) => Answer | undefined;
  readonly frame?: (socket: SocketKind, text: string) => string[] | undefined;
}

/** The mutation of one case, how often it rewrote something, and (when tracing) everything that passed. */
export interface MutationScope {
  readonly mutation: Mutation | undefined;
  applied: number;
  readonly trace?: Seen[];
}

const store = new AsyncLocalStorage<MutationScope | undefined>();

/**
 * Runs `fn` with `scope` armed: every answer and frame the clients receive inside it passes through the scope's
 * mutation. The one injection point between suite and target; the target itself is never changed.
 *
 * @example
 * const scope = { mutation: { http: (_r, a) => ({ ...a, status: 500 }) }, applied: 0 };
 * await withMutation(scope, () => t.chat.close({ conversation_id }));
 * scope.applied // 1
 */
export function withMutation<T>(scope: MutationScope, fn: () => Promise<T>): Promise<T> {
  return store.run(scope, fn);
}

/**
 * Runs `fn` with no mutation armed: a case's preparation (resources its check needs), which must reach the target as
 * it is, so that a mutation meant for the case's own request never lands on it.
 *
 * @example
 * const agent = await unmutated(() => t.agents.createAgent({ name: 'setup' }));
 */
export function unmutated<T>(fn: () => Promise<T>): Promise<T> {
  return store.run(undefined, fn);
}

/** The scope armed for the code now running, if any (sockets keep the one they were opened in). */
export function currentScope(): MutationScope | undefined {
  return store.getStore();
}

/** Passes an HTTP answer through the armed mutation (if any); what comes out is what the client sees. */
export function mutateAnswer(method: string, url: string, answer: Answer, scope = currentScope()): Answer {
  if (!scope) return answer;
  const path = new URL(url).pathname;
  scope.trace?.push({ method, path, status: answer.status });
  const out = scope.mutation?.http?.({ method, path }, answer);
  if (!out) return answer;
  scope.applied++;
  return out;
}

/** The type a frame names (`type` of its JSON object), or `non-event` when it has none. */
export function frameType(text: string): string {
  try {
    const v: unknown = JSON.parse(text);
    const type = typeof v === 'object' && v !== null ? (v as { type?: unknown }).type : undefined;
    return typeof type === 'string' ? type : 'non-event';
  } catch {
    return 'non-event';
  }
}

/** Passes a received frame through the scope's mutation: the frames to deliver in its place (usually itself). */
export function mutateFrame(socket: SocketKind, text: string, scope: MutationScope | undefined): string[] {
  if (!scope) return [text];
  scope.trace?.push({ socket, type: frameType(text) });
  const out = scope.mutation?.frame?.(socket, text);
  if (!out) return [text];
  scope.applied++;
  return out;
}
