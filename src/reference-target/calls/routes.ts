import { recordsOf } from '../records/store.js';
import { RetainedLog } from '../retention.js';
import type { SurfaceModule } from '../surface.js';
import { registerBridge } from './bridge.js';
import { type CallsState, registerCallsControl } from './control-routes.js';
import { registerExternalEvents } from './external-events.js';
import { registerOutbound } from './outbound-routes.js';

/**
 * Call operations (document 2): the external events webhook, outbound calling with status polling
 * and the bridge-ended notification, on the runtime host. They reach conversations through the
 * records store, so bridge-ended state shows in the records.
 */
export const callsSurface: SurfaceModule = {
  host: 'base_url',
  create: (ctx) => {
    const store = recordsOf(ctx);
    const state: CallsState = {
      outbound: { calls: new Map(), scripts: new Map(), triggered: 0 },
      bindings: new Map(),
      invocations: new RetainedLog(ctx.retention, ctx.clock),
    };
    return {
      register: (app) => {
        registerExternalEvents(app, ctx, store, state.bindings);
        registerOutbound(app, ctx, state.outbound);
        registerBridge(app, ctx, store, state.invocations);
      },
      control: (app) => registerCallsControl(app, ctx, store, state),
    };
  },
};
