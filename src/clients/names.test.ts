import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';
import type { LoadedProfile } from '../profile/load.js';
import { parseProfile } from '../profile/load.js';
import { CallsClient } from './calls.js';
import { MessagingClient } from './messaging.js';

// A platform that spells the undocumented names its own way: a real HTTP server and a real WebSocket server that
// speak only those spellings, and clients driven by a profile that names them.

const names = {
  messaging_events: { user_message: 'USER_MSG', typing_indicator: 'TYPING', delivery_receipt: 'RECEIPT', request_live_agent: 'HUMAN_PLEASE' },
  outbound_trigger: { to_number: 'destination' },
};

describe('a profile that names the undocumented names its own way', () => {
  const received: { url: string; body: string }[] = [];
  const sockets: WebSocket[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      res.setHeader('content-type', 'application/json');
      res.end('{"call_sid":"OUT-1"}');
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    sockets.push(ws);
    // A receipt in the platform's spelling, alone and inside a history batch.
    ws.send(JSON.stringify({ type: 'RECEIPT', payload: { message_id: 'm1' } }));
    ws.send(JSON.stringify({ type: 'EVENT_TYPE_EVENT_BATCH', payload: { events: [{ type: 'TYPING', payload: { is_typing: true } }] } }));
  });
  let loaded: LoadedProfile;

  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const profile = parseProfile(
      { name: 'spelled', environment: 'sandbox', region: 'us-1', hosts: { base_url: base, messaging_url: base }, account_id: 'a', project_id: 'p', names },
      'spelled.json',
    );
    loaded = { profile, path: undefined, secrets: { outbound_token: 'tok-1234' } };
  });
  afterAll(async () => {
    for (const s of sockets) s.terminate();
    await new Promise<void>((r) => wss.close(() => server.close(() => r())));
  });

  it('keeps the reference names as defaults for every name it leaves out', () => {
    expect(loaded.profile.names.messaging_events.user_message).toBe('USER_MSG');
    expect(loaded.profile.names.outbound_trigger).toEqual({
      to_number: 'destination',
      from_number: 'from_number',
      metadata: 'metadata',
      encryption: 'encryption',
    });
    expect(loaded.profile.names.realtime_config_page).toBe('site');
  });

  it('sends the outbound trigger with the platform field names', async () => {
    received.length = 0;
    await new CallsClient(loaded).trigger({ to_number: '+447700900123', metadata: { a: 1 } });
    expect(JSON.parse(received[0]?.body ?? '{}')).toEqual({ destination: '+447700900123', metadata: { a: 1 } });
  });

  it('sends client events with the platform type and hands received ones back in the reference spelling', async () => {
    const client = new MessagingClient(loaded);
    const conn = await client.connect({ session_id: 's1' });
    if (!conn.opened) throw new Error('socket did not open');
    const { socket } = conn;
    await socket.waitFor((e) => e.type === 'EVENT_TYPE_EVENT_BATCH', { what: 'the batch' });
    expect(socket.events[0]?.type).toBe('EVENT_TYPE_DELIVERY_RECEIPT');
    expect((socket.events[1]?.payload as { events: { type: string }[] } | undefined)?.events[0]?.type).toBe('EVENT_TYPE_TYPING_INDICATOR');
    const got = new Promise<string>((resolve) => sockets.at(-1)?.once('message', (d) => resolve(d.toString())));
    socket.sendEvent('EVENT_TYPE_REQUEST_LIVE_AGENT', {});
    expect(JSON.parse(await got).type).toBe('HUMAN_PLEASE');
    await client.closeAll();
  });
});
