import type { FastifyInstance } from 'fastify';
import { useApiErrorBodies } from '../agent-interface/errors.js';
import { familyOf, requireKey } from '../agent-interface/shared-state.js';
import type { TargetContext } from '../context.js';
import type { SurfaceModule } from '../surface.js';
import { registerAlertRoutes } from './alert-routes.js';
import { registerAlertsControl } from './control-routes.js';
import { Monitor } from './monitor.js';
import { registerWebhookRoutes } from './webhook-routes.js';

function register(app: FastifyInstance, ctx: TargetContext, monitor: Monitor): void {
  app.register(
    async (scope) => {
      useApiErrorBodies(scope);
      requireKey(scope, ctx);
      registerAlertRoutes(scope, ctx, monitor);
      registerWebhookRoutes(scope, ctx, monitor);
    },
    { prefix: '/v1' },
  );
}

/**
 * Alert rules, alerts and webhook endpoints (document 3) on the `agents_url` host, evaluated from
 * the target's own traffic, with signed deliveries. Its timer and retries stop on close.
 */
export const alertsSurface: SurfaceModule = {
  host: 'agents_url',
  create: (ctx) => {
    const family = familyOf(ctx);
    const monitor = new Monitor(ctx, family);
    return {
      register: (app) => register(app, ctx, monitor),
      control: (app) => registerAlertsControl(app, ctx, family, monitor),
      close: async () => monitor.close(),
    };
  },
};
