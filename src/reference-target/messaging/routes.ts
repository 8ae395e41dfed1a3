import type { WebSocketServer } from 'ws';
import type { SurfaceModule } from '../surface.js';
import { registerMessagingControl } from './control-routes.js';
import { registerEndpoints } from './endpoints.js';
import { attachWebSocket } from './sockets.js';
import { MessagingState } from './state.js';

/**
 * The Messaging API surface (document 1): access token, session, the `/ws` WebSocket and its events, on
 * `{messaging_url}`. The connector of the profile's `messaging_connector_token` is registered for
 * `REFERENCE_MESSAGING_HOST`.
 */
export const messagingSurface: SurfaceModule = {
  host: 'messaging_url',
  create: (ctx) => {
    const state = new MessagingState(ctx);
    let wss: WebSocketServer | undefined;
    return {
      register: (app, admit) => {
        registerEndpoints(app, state);
        wss = attachWebSocket(state, app.server, admit);
      },
      control: (app) => registerMessagingControl(app, state),
      close: async () => {
        await state.close();
        await new Promise<void>((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
      },
    };
  },
};
