import type { FastifyInstance } from 'fastify';
import type { Profile } from '../profile/schema.js';
import type { Admit } from './capacity.js';
import type { TargetContext } from './context.js';

// The contract between the server and a surface module, apart from the table of surfaces so that a surface's routes
// never import the table that imports them.

/** Which profile host a surface is served on; each host is its own loopback listener. */
export type HostKey = keyof Profile['hosts'];

/** A surface once created for one target: its routes, optional control endpoints, and its shutdown. */
export interface SurfaceInstance {
  /**
   * Adds the surface's routes (and any WebSocket upgrade handling on `app.server`) to its host's app. `admit` is the
   * surface's capacity queue when it has a setting: requests pass it already; handshakes (and messaging's client frames) must.
   */
  register(app: FastifyInstance, admit?: Admit): void;
  /**
   * A surface whose known capacity is not requests a second (voice: calls at once) takes its `--capacity` setting here
   * and returns true; it then gets no request queue. Called before `register`.
   */
  atCapacity?(setting: number): boolean;
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
