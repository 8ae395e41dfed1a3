// The operations of the reference target that `dialtone target --latency` can slow down, named as the load scenarios tag
// them (`op:chat.respond`), so a latency spec and a threshold speak of the same thing.
import type { FastifyRequest } from 'fastify';

/**
 * Where an op's time is spent. `request`: before the handler of its HTTP route (at a known capacity, in the surface's
 * queue instead: the piece of work keeps a worker that long). `agent`: where the agent thinks or speaks, after the
 * request or frame that asked was handled, so nothing else on the surface waits for it.
 */
export type OpAt = 'request' | 'agent';

export interface OpInfo {
  /** The surface that serves it: a key of SURFACES (src/reference-target/surfaces.ts), as `--capacity` names it. */
  readonly surface: string;
  readonly at: OpAt;
  /** What takes that long, for the usage text and the docs. */
  readonly what: string;
}

/** Every op a latency spec may name, one row each. */
export const OPS = {
  'chat.create': { surface: 'chat', at: 'request', what: 'POST chat/create' },
  'chat.respond': { surface: 'chat', at: 'request', what: 'POST chat/respond: the agent turn' },
  'chat.close': { surface: 'chat', at: 'request', what: 'PUT chat/close' },
  'messaging.access_token': { surface: 'messaging', at: 'request', what: 'POST /api/v1/access-token' },
  'messaging.session': { surface: 'messaging', at: 'request', what: 'POST /api/v1/sessions' },
  'messaging.reply': { surface: 'messaging', at: 'agent', what: "the agent's pause before its message or first chunk (typing indicator on)" },
  'messaging.chunk': { surface: 'messaging', at: 'agent', what: 'the pause between two streamed chunks of one reply' },
  'conversations.list': { surface: 'records', at: 'request', what: 'GET conversations (one page)' },
  'outbound.trigger': { surface: 'calls', at: 'request', what: 'POST /v1/outbound-calling' },
  'outbound.status': { surface: 'calls', at: 'request', what: 'GET /v1/outbound-calling/{sid}/status' },
  'voice.ice_servers': { surface: 'voice', at: 'request', what: 'GET ice-servers' },
  'voice.first_agent_audio': { surface: 'voice', at: 'agent', what: 'from media connected to the first agent audio (the greeting)' },
  'voice.reply': { surface: 'voice', at: 'agent', what: "from the caller's last speech to the agent's reply audio (not before the pause that ends the turn)" },
} as const satisfies Record<string, OpInfo>;

export type Op = keyof typeof OPS;

export const OP_NAMES = Object.keys(OPS) as Op[];

/** Whether `name` is an op of the table (own keys only: `constructor` is not an op). */
export function isOp(name: string): name is Op {
  return Object.hasOwn(OPS, name);
}

/** The op of a route: fixed, or read from the request where one route serves several ops (chat's `:op`). */
export type RouteOp = Op | ((req: FastifyRequest) => Op | undefined);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The op this route serves, for its latency and its capacity queue (src/reference-target/ops.ts). */
    op?: RouteOp;
  }
}

/**
 * The route options that name a route's op; the route's own handler knows nothing of latency.
 *
 * @example
 * app.get('/v1/outbound-calling/:sid/status', withOp('outbound.status'), handler);
 */
export function withOp(op: RouteOp): { config: { op: RouteOp } } {
  return { config: { op } };
}

/**
 * The op of the request's route, if its route names one (see withOp).
 *
 * @example
 * app.addHook('onRequest', async (req) => console.log(opOf(req))); // 'outbound.status'
 */
export function opOf(req: FastifyRequest): Op | undefined {
  const op = req.routeOptions.config?.op;
  return typeof op === 'function' ? op(req) : op;
}
