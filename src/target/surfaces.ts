import type { FastifyInstance } from 'fastify';
import type { Profile } from '../profile/schema.js';
import { registerChat } from './chat/routes.js';
import type { TargetContext } from './context.js';

/** Which profile host a surface is served on; each host is its own loopback listener. */
export type HostKey = keyof Profile['hosts'];

export interface SurfaceModule {
  readonly host: HostKey;
  /** Adds the surface's routes (and WebSocket handlers) to the host's app. */
  register(app: FastifyInstance, ctx: TargetContext): void;
}

/**
 * The reference target's surfaces, one row each. A new surface is a folder under src/target and
 * one row here; the server starts one listener per host that any row names.
 */
export const SURFACES: Record<string, SurfaceModule> = {
  chat: { host: 'base_url', register: registerChat },
};
