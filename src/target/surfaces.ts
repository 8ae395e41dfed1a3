import type { FastifyInstance } from 'fastify';
import type { Profile } from '../profile/schema.js';
import { agentsRegionlessSurface, agentsSurface } from './agents/routes.js';
import { alertsSurface } from './alerts/routes.js';
import { callsSurface } from './calls/routes.js';
import { chatSurface } from './chat/routes.js';
import type { TargetContext } from './context.js';
import { messagingSurface } from './messaging/routes.js';
import { recordsSurface } from './records/routes.js';
import { voiceSurface } from './voice/routes.js';

/** Which profile host a surface is served on; each host is its own loopback listener. */
export type HostKey = keyof Profile['hosts'];

/** A surface once created for one target: its routes, optional control endpoints, and its shutdown. */
export interface SurfaceInstance {
  /** Adds the surface's routes (and any WebSocket upgrade handling on `app.server`) to its host's app. */
  register(app: FastifyInstance): void;
  /** Adds test-only endpoints under `/<surface>/…` of the control surface. */
  control?(app: FastifyInstance): void;
  /** Stops timers and closes sockets the surface holds. */
  close?(): Promise<void>;
}

export interface SurfaceModule {
  readonly host: HostKey;
  /** Builds the surface's state for one target; called once per start. */
  create(ctx: TargetContext): SurfaceInstance;
}

/**
 * The reference target's surfaces, one row each. A new surface is a folder under src/target and
 * one row here; the server starts one listener per host that any row names.
 */
export const SURFACES: Record<string, SurfaceModule> = {
  chat: chatSurface,
  agents: agentsSurface,
  'agents-regionless': agentsRegionlessSurface,
  alerts: alertsSurface,
  messaging: messagingSurface,
  voice: voiceSurface,
  records: recordsSurface,
  calls: callsSurface,
};
