import type { FastifyInstance } from 'fastify';
import { IceServersErrors, VoicePaths } from '../../contract/voice/shapes.js';
import { VOICE_CLIENT_PATH, voiceClientPage } from '../../voice-client/page.js';
import type { Admit } from '../capacity.js';
import type { TargetContext } from '../context.js';
import { sendError } from '../http.js';
import { withOp } from '../ops.js';
import type { SurfaceModule } from '../surface.js';
import { ForceFailureRequest } from './faults.js';
import { VoiceGateway } from './gateway.js';

const BEARER = /^Bearer\s+(\S+)$/i;

/** GET ice-servers: Bearer auth with the voice auth token, fresh TURN credentials on every answer. */
function registerIceServers(app: FastifyInstance, ctx: TargetContext, gw: VoiceGateway): void {
  app.get(VoicePaths.iceServers, withOp('voice.ice_servers'), async (req, reply) => {
    const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
    if (token !== ctx.credentials.voice_auth_token) return sendError(reply, IceServersErrors.UNAUTHORIZED);
    void gw.engine(); // a call follows its ICE servers: the media engine loads meanwhile
    const body = gw.iceServers.issue({
      host: req.hostname,
      nowS: Math.floor(ctx.clock.now() / 1000),
      turnsPort: ctx.defects.has('voice-turns-not-on-443') ? 5349 : 443,
      staticCredentials: ctx.defects.has('voice-static-turn-credentials'),
    });
    // Credentials that are fresh per request must not be served from a cache.
    return reply.header('cache-control', 'no-store').send(body);
  });
}

/** The signaling WebSocket, on the host's HTTP server; a plain GET there is told to upgrade. */
function registerSignaling(app: FastifyInstance, gw: VoiceGateway, admit: Admit | undefined): void {
  app.server.on('upgrade', (req, socket, head) => {
    // A peer that resets mid-handshake must not become an unhandled 'error' event (which would end the process).
    socket.on('error', () => socket.destroy());
    if (new URL(req.url ?? '/', 'http://gateway').pathname === VoicePaths.signal) {
      // At a known capacity a handshake is a piece of work like a request: it waits its turn.
      if (admit) return void admit().then(() => gw.upgrade(req, socket, head));
      return gw.upgrade(req, socket, head);
    }
    // Another surface on this host may own the path; refuse only when nobody else listens for upgrades.
    if (app.server.listenerCount('upgrade') === 1) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
  });
  app.get(VoicePaths.signal, async (_req, reply) => reply.code(426).header('upgrade', 'websocket').send({ error_message: 'Upgrade Required' }));
}

/** The browser voice gateway (document 1): signaling, WebRTC audio through werift, ice-servers, a browser client page. */
export const voiceSurface: SurfaceModule = {
  host: 'webrtc_url',
  create: (ctx) => {
    const gw = new VoiceGateway(ctx);
    return {
      register: (app, admit) => {
        registerIceServers(app, ctx, gw);
        registerSignaling(app, gw, admit);
        // A sandbox convenience for a person at a browser; off (`--no-voice-client-page`) the gateway is as bare as a real one.
        if (ctx.voiceClientPage) app.get(VOICE_CLIENT_PATH, async (_req, reply) => reply.type('text/html; charset=utf-8').send(voiceClientPage()));
      },
      // Its known capacity is calls at once, not requests a second: no request queue, the agent's seats instead.
      atCapacity: (calls) => {
        gw.atCapacity(calls);
        return true;
      },
      control: (app) => {
        // Forces the offer carrying this callSid to fail with a code a healthy loopback call never meets.
        app.post('/voice/faults', async (req, reply) => {
          const parsed = ForceFailureRequest.safeParse(req.body);
          if (!parsed.success)
            return reply.code(400).send({ error_message: 'body must be {callSid, code: HANDLER_ERROR | MEDIA_BRIDGE_FAILURE | AGENT_FAILURE}' });
          gw.faults.set(parsed.data.callSid, parsed.data.code);
          return parsed.data;
        });
        app.get('/voice/sessions', async () => ({ sessions: gw.sessions(), ticker_listeners: gw.ticker.size, ...(gw.seats ? { seats: gw.seats } : {}) }));
      },
      close: () => gw.close(),
    };
  },
};
