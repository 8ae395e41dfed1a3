import { agentsRegionlessSurface, agentsSurface } from './agents/routes.js';
import { alertsSurface } from './alerts/routes.js';
import { callsSurface } from './calls/routes.js';
import { chatSurface } from './chat/routes.js';
import { messagingSurface } from './messaging/routes.js';
import { recordsSurface } from './records/routes.js';
import type { SurfaceModule } from './surface.js';
import { voiceSurface } from './voice/routes.js';

export type { HostKey, SurfaceInstance, SurfaceModule } from './surface.js';

/**
 * The reference target's surfaces, one row each. A new surface is a folder under src/reference-target and
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
