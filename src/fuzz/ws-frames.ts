import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import type { FuzzRng } from './rng.js';

/** One WebSocket frame as bytes; `mask` false sends an unmasked client frame (a protocol error). */
export interface FrameSpec {
  readonly fin?: boolean;
  readonly rsv?: number;
  readonly opcode: number;
  readonly payload?: Buffer;
  readonly mask?: boolean;
  /** A length to announce instead of the payload's (an oversize frame announces far more than it sends). */
  readonly announce?: number;
}

/**
 * Encodes a client frame, honouring every field even when the result breaks RFC 6455.
 *
 * @example
 * encodeFrame({ opcode: 1, payload: Buffer.from('{}') });
 */
export function encodeFrame(f: FrameSpec): Buffer {
  const payload = f.payload ?? Buffer.alloc(0);
  const len = f.announce ?? payload.length;
  const mask = f.mask ?? true;
  const head: number[] = [((f.fin ?? true) ? 0x80 : 0) | ((f.rsv ?? 0) << 4) | (f.opcode & 0x0f)];
  const m = mask ? 0x80 : 0;
  if (len < 126) head.push(m | len);
  else if (len < 0x10000) head.push(m | 126, len >> 8, len & 0xff);
  else {
    head.push(m | 127, 0, 0, 0, 0);
    head.push((len >>> 24) & 0xff, (len >>> 16) & 0xff, (len >>> 8) & 0xff, len & 0xff);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i] = (masked[i] as number) ^ (key[i % 4] as number);
  return Buffer.concat([Buffer.from(head), key, masked]);
}

const text = (s: string) => Buffer.from(s);
const closePayload = (code: number, reason = '') => Buffer.concat([Buffer.from([code >> 8, code & 0xff]), text(reason)]);
const deepJson = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

/** Text payloads that are valid frames but hostile messages, per socket kind. */
export interface MessageMakers {
  readonly messages: readonly ((rng: FuzzRng) => string)[];
}

/** Protocol-level malformations: each returns the frames to send and a kind name. */
export const BAD_FRAMES: ((rng: FuzzRng) => [FrameSpec[], string])[] = [
  () => [[{ opcode: 1, payload: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }], 'bad-utf8'],
  (rng) => [[{ opcode: 1, rsv: 1 + rng.int(7), payload: text('{}') }], 'rsv-bits'],
  (rng) => [[{ opcode: rng.pick([3, 4, 5, 6, 7, 11, 12, 13, 14, 15]), payload: text('x') }], 'unknown-opcode'],
  () => [[{ opcode: 1, mask: false, payload: text('{"type":"x"}') }], 'unmasked'],
  (rng) => [[{ opcode: rng.pick([1, 2]), announce: rng.pick([300_000, 2 ** 31, 0xfffffff0]), payload: text('{"a":') }], 'oversize'],
  (rng) => [[{ opcode: 8, payload: closePayload(rng.pick([0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535])) }], 'bad-close-code'],
  () => [[{ opcode: 8, payload: Buffer.from([3]) }], 'one-byte-close'],
  () => [[{ opcode: 8, payload: Buffer.concat([closePayload(1000), Buffer.from([0xff])]) }], 'close-bad-utf8'],
  () => [[{ opcode: 9, fin: false, payload: text('p') }], 'fragmented-ping'],
  () => [[{ opcode: 9, payload: Buffer.alloc(200, 1) }], 'long-ping'],
  () => [[{ opcode: 0, payload: text('orphan') }], 'orphan-continuation'],
  () => [
    [
      { opcode: 1, fin: false, payload: text('{"ty') },
      { opcode: 1, payload: text('pe":1}') },
    ],
    'text-inside-fragments',
  ],
  (rng) => {
    const n = 2 + rng.int(6);
    return [Array.from({ length: n }, (_, i) => ({ opcode: i === 0 ? 1 : 0, fin: i === n - 1, payload: text('{"a":'.repeat(20)) })), 'many-fragments'];
  },
  () => [[{ opcode: 2, payload: randomBytes(64) }], 'binary'],
  () => [[{ opcode: 10, payload: text('unsolicited pong') }], 'pong'],
];

/** Hostile but well-framed text messages: deep JSON, prototype keys, odd shapes. */
export function hostileMessages(kind: 'messaging' | 'voice', voiceToken: string): ((rng: FuzzRng) => string)[] {
  const common = [
    (rng: FuzzRng) => deepJson(rng.pick([65, 5_000, 20_000])),
    () => '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    () => 'not json',
    () => '[]',
    () => 'null',
    () => `"${'x'.repeat(60_000)}"`,
  ];
  if (kind === 'messaging') {
    return [
      ...common,
      (rng) => `{"type":"EVENT_TYPE_USER_MESSAGE","payload":{"text":"hi"},"metadata":{"custom":${deepJson(rng.pick([65, 5_000]))}}}`,
      () => '{"type":"EVENT_TYPE_USER_MESSAGE","payload":{"text":1e309},"metadata":{"custom":{"__proto__":{"x":1}}}}',
      () => '{"type":"EVENT_TYPE_SERVICE_AGENT_JOINED"}',
      () => '{"type":"EVENT_TYPE_REQUEST_SERVICE_AGENT_JOIN","metadata":{"custom":"x"}}',
      () => '{"type":"EVENT_TYPE_TYPING_INDICATOR","payload":{"typing":"yes"}}',
    ];
  }
  return [
    ...common,
    (rng) =>
      `{"type":"offer","sessionId":"","authToken":"${voiceToken}","data":{"type":"offer","sdp":${rng.pick(['"garbage"', '""', '1', `"v=0\\r\\n${' '.repeat(50_000)}"`])}}}`,
    () => '{"type":"offer","sessionId":"","data":{"type":"offer","sdp":"v=0"}}',
    (rng) => `{"type":"ice-candidate","sessionId":"vs-${rng.int(1e9)}","data":{"candidate":"candidate:garbage"}}`,
    () => '{"type":"close","sessionId":"__proto__"}',
    (rng) => `{"type":"offer","sessionId":"","authToken":"${voiceToken}","mode":${deepJson(rng.pick([65, 5_000]))}}`,
    () => '{"type":"answer","sessionId":"","data":{"type":"answer","sdp":"x"}}',
  ];
}

/** A raw WebSocket after its handshake, or the HTTP status that refused it. */
export type RawSocket = { readonly ok: true; readonly socket: Socket } | { readonly ok: false; readonly status: number | null };

/**
 * Opens a WebSocket by hand (plain TCP, an upgrade request) so frames can be written that no WebSocket library would send.
 *
 * @example
 * const ws = await openRawSocket(port, '/api/v1/webrtc/signal');
 */
export function openRawSocket(port: number, path: string, timeoutMs = 3000): Promise<RawSocket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let head = '';
    let settled = false;
    const settle = (v: RawSocket) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.removeAllListeners('data');
      if (!v.ok) socket.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => settle({ ok: false, status: null }), timeoutMs);
    socket.on('error', () => settle({ ok: false, status: null }));
    socket.on('close', () => settle({ ok: false, status: null }));
    socket.on('data', (c: Buffer) => {
      head += c.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0) || null;
      if (status === 101) {
        socket.removeAllListeners('close');
        settle({ ok: true, socket });
      } else settle({ ok: false, status });
    });
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ` +
        `${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}
