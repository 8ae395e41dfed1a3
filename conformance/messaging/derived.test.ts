import type { Handshake } from '../../src/clients/messaging.js';
import { SOCKETS_PER_SESSION } from '../../src/contract/limits.js';
import { MessagingPaths } from '../../src/contract/messaging/shapes.js';
import { burstCase } from '../../src/suite/derived/bursts.js';
import { deriveRequestCases } from '../../src/suite/derived/cases.js';
import { closeSocketsAfter } from './steps.js';

// Cases derived from the contract (src/contract/operations.ts, limits.ts): each documented requirement of a request and
// each count limit, checked the same way on every operation that has one. Only how to send a valid request is written here.

deriveRequestCases('messaging', {
  [`POST ${MessagingPaths.accessToken}`]: (api, change) => api.t.messaging.accessToken({ headers: { ...change.headers } }),
  [`POST ${MessagingPaths.sessions}`]: async (api, change) => {
    const { accessToken } = await api.t.messaging.token();
    return api.t.messaging.createSession(accessToken, {}, { headers: { ...change.headers } });
  },
});

burstCase<Handshake>(SOCKETS_PER_SESSION, {
  setup: (api) => {
    closeSocketsAfter(api);
    return api.t.messaging.handshake();
  },
  take: async (api, h) => {
    const conn = await api.t.messaging.connect({ access_token: h.accessToken, session_id: h.sessionId });
    return conn.opened ? { status: 101, release: () => conn.socket.close() } : { status: conn.status };
  },
});
