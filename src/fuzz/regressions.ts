import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { AgentsClient } from '../clients/agents.js';
import { AgentsControl } from '../clients/agents-control.js';
import { ChatClient } from '../clients/chat.js';
import { ControlClient } from '../clients/control-client.js';
import { MessagingClient } from '../clients/messaging.js';
import { RecordsClient } from '../clients/records.js';
import { VoiceClient } from '../clients/voice.js';
import { SocketEventErrors } from '../contract/messaging/shapes.js';
import { VoicePaths } from '../contract/voice/shapes.js';
import type { LoadedProfile } from '../profile/load.js';
import { rawExchange } from './raw-http.js';
import { encodeFrame, type FrameSpec, openRawSocket } from './ws-frames.js';

/** What a regression case works with: the target's profile, its process, and the port of each host. */
export interface RegressionContext {
  readonly loaded: LoadedProfile;
  readonly pid: number;
  readonly alive: () => boolean;
  port(host: keyof LoadedProfile['profile']['hosts'] | 'control'): number;
}

/** An input that once broke the reference target; `run` resolves to a problem, or undefined when it is handled. */
export interface RegressionCase {
  readonly name: string;
  run(ctx: RegressionContext): Promise<string | undefined>;
}

const deepText = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const is4xx = (s: number | null) => s !== null && s >= 400 && s < 500;

/** Sends frames on a fresh voice signaling socket, then checks the target still answers. */
function voiceFrameCase(name: string, frames: FrameSpec[]): RegressionCase {
  return {
    name: `voice signaling survives ${name}`,
    async run(ctx) {
      const raw = await openRawSocket(ctx.port('webrtc_url'), VoicePaths.signal);
      if (!raw.ok) return `the signaling upgrade answered ${raw.status}`;
      raw.socket.on('data', () => {});
      const closed = new Promise<void>((r) => raw.socket.once('close', () => r()));
      for (const f of frames) raw.socket.write(encodeFrame(f));
      await Promise.race([closed, new Promise((r) => setTimeout(r, 2000))]);
      raw.socket.destroy();
      const health = await rawExchange(ctx.port('webrtc_url'), Buffer.from('GET /api/v1/ice-servers HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
      return ctx.alive() && health.status === 401 ? undefined : `the target ${ctx.alive() ? `answered ${health.status}` : 'died'} after ${name}`;
    },
  };
}

const closeCode = (code: number) => Buffer.from([code >> 8, code & 0xff]);

/** UDP sockets the process holds, with their local addresses (from /proc: fd inodes matched against /proc/net/udp). */
export function udpLocalAddresses(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m?.[1]) inodes.add(m[1]);
    } catch {
      // the fd closed meanwhile
    }
  }
  const out: string[] = [];
  for (const table of ['udp', 'udp6']) {
    const lines = readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1);
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && inodes.has(cols[9] as string)) {
        const [hex] = (cols[1] as string).split(':');
        out.push(
          table === 'udp'
            ? ((hex as string)
                .match(/../g)
                ?.reverse()
                .map((b) => Number.parseInt(b, 16))
                .join('.') ?? '?')
            : (hex as string),
        );
      }
    }
  }
  return out;
}

/** A live voice call on the target: renegotiation with bad SDP, the end-of-candidates message, and media binding. */
const liveCallCase: RegressionCase = {
  name: 'a live voice call refuses bad renegotiation SDP, ends candidates with sdpMid and sdpMLineIndex, and binds media to loopback',
  async run(ctx) {
    const voice = new VoiceClient(ctx.loaded, []);
    try {
      const call = await voice.call({ offer: { mode: 'echo' } });
      if (!call.answer) return `the call was not answered: ${JSON.stringify(call.error?.data)}`;
      await call.connected();
      const problems: string[] = [];
      const addresses = udpLocalAddresses(ctx.pid);
      if (addresses.length === 0) problems.push('no UDP socket seen on the target during a call');
      const open = addresses.filter((a) => a !== '127.0.0.1');
      if (open.length) problems.push(`media UDP sockets bound to ${open.join(', ')}`);
      const pcmu = 'v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 0\r\na=rtpmap:0 PCMU/8000\r\n';
      for (const [what, sdp] of [
        ['garbage', 'garbage'],
        ['PCMU-only', pcmu],
      ] as const) {
        const after = call.signaling.frames.length;
        call.signaling.send({ type: 'offer', sessionId: call.sessionId, authToken: voice.token, data: { type: 'offer', sdp } });
        const reply = await call.signaling.next(
          (m) => m.sessionId === call.sessionId && (m.type === 'error' || m.type === 'answer'),
          `the reply to a ${what} renegotiation`,
          {
            after,
          },
        );
        const code = (reply.data as { code?: unknown } | undefined)?.code;
        if (reply.type !== 'error' || code !== 'INVALID_ARGUMENT') problems.push(`a ${what} renegotiation offer got ${reply.type} ${String(code ?? '')}`);
      }
      const end = call.candidatesReceived.find((m) => (m.data as { candidate?: unknown } | undefined)?.candidate === '');
      const d = end?.data as { sdpMid?: unknown; sdpMLineIndex?: unknown } | undefined;
      if (!end) problems.push('no end-of-candidates message arrived');
      else if (typeof d?.sdpMid !== 'string' || typeof d?.sdpMLineIndex !== 'number') problems.push(`end of candidates carried ${JSON.stringify(end.data)}`);
      return problems.length ? problems.join('; ') : undefined;
    } finally {
      await voice.closeAll();
    }
  },
};

/**
 * Every input that ever broke the reference target, as a named case. They run before and after the random fuzz.
 */
export const REGRESSIONS: readonly RegressionCase[] = [
  voiceFrameCase('a text frame of invalid UTF-8', [{ opcode: 1, payload: Buffer.from([0xff, 0xfe]) }]),
  voiceFrameCase('a frame with RSV bits set', [{ opcode: 1, rsv: 7, payload: Buffer.from('{}') }]),
  voiceFrameCase('a frame of unknown opcode', [{ opcode: 3, payload: Buffer.from('x') }]),
  voiceFrameCase('an unmasked client frame', [{ opcode: 1, mask: false, payload: Buffer.from('{}') }]),
  voiceFrameCase('a frame over the size limit', [{ opcode: 1, announce: 2 ** 31, payload: Buffer.from('{') }]),
  voiceFrameCase('a close frame with code 1005', [{ opcode: 8, payload: closeCode(1005) }]),
  voiceFrameCase('a close frame with code 5000', [{ opcode: 8, payload: closeCode(5000) }]),
  voiceFrameCase('a fragmented ping', [{ opcode: 9, fin: false, payload: Buffer.from('p') }]),
  voiceFrameCase('an orphan continuation frame', [{ opcode: 0, payload: Buffer.from('x') }]),
  voiceFrameCase('an offer nested 20,000 deep', [{ opcode: 1, payload: Buffer.from(`{"type":"offer","sessionId":"","data":${deepText(20_000)}}`) }]),
  {
    name: 'a messaging event whose metadata.custom is nested 5,000 deep gets the documented system message',
    async run(ctx) {
      const m = new MessagingClient(ctx.loaded, []);
      try {
        const socket = await m.open(await m.handshake());
        const from = socket.events.length;
        socket.send(`{"type":"EVENT_TYPE_USER_MESSAGE","payload":{"text":"hi"},"metadata":{"custom":${deepText(5_000)}}}`);
        const { event } = await socket.waitFor((e) => e.type === 'EVENT_TYPE_SYSTEM_MESSAGE', { what: 'the error system message', from });
        const text = JSON.stringify(event);
        return text.includes(SocketEventErrors.UNKNOWN_OR_INVALID.text) ? undefined : `answered ${text.slice(0, 200)}`;
      } finally {
        await m.closeAll();
      }
    },
  },
  {
    name: 'chat create with integration_attributes nested 10,000 deep is refused and the conversations lists still answer',
    async run(ctx) {
      const chat = new ChatClient(ctx.loaded, []);
      // The same body three levels deep is accepted, so the refusal is about the depth.
      const shallow = await chat.create(undefined, { rawBody: `{"channel":"webchat","integration_attributes":${deepText(3)}}` });
      if (shallow.status !== 200) return `create of the same body 3 deep answered ${shallow.status}`;
      const res = await chat.create(undefined, { rawBody: `{"channel":"webchat","integration_attributes":${deepText(10_000)}}` });
      if (!is4xx(res.status)) return `create answered ${res.status}`;
      const records = new RecordsClient(ctx.loaded, []);
      for (const version of ['v1', 'v3'] as const) {
        const list = await records.list({}, { version });
        if (list.status !== 200) return `the ${version} conversations list answered ${list.status}`;
      }
      return undefined;
    },
  },
  {
    name: 'a real-time variables PATCH nested 10,000 deep is refused and not stored; the next PATCH works',
    async run(ctx) {
      const agents = new AgentsClient(ctx.loaded, []);
      const control = new AgentsControl(new ControlClient(ctx.loaded));
      const created = await agents.createAgent({ name: 'Fuzz', description: 'deep variables' });
      const agentId = (created.json as { agentId?: string } | undefined)?.agentId;
      if (!agentId) return `agent create answered ${created.status}`;
      await control.defineConfig(agentId, 'site', { type: 'object' });
      const deep = await agents.updateVariables(agentId, 'site', undefined, { rawBody: `{"variables":${deepText(10_000)}}` });
      if (!is4xx(deep.status)) return `the deep PATCH answered ${deep.status}`;
      const stored = (await control.agent(agentId)).configs.site?.variables;
      if (stored && JSON.stringify(stored).length > 1000) return 'the deep variables were stored';
      const ok = await agents.updateVariables(agentId, 'site', { greeting: 'hello' });
      if (ok.status >= 300) return `the next PATCH answered ${ok.status}`;
      return undefined;
    },
  },
  ...[
    ['text/plain', ' '.repeat(3_000), '3,000 spaces'],
    ['text/plain', ' '.repeat(1 << 20), 'a megabyte of spaces'],
    ['application/xml', '<ref '.repeat(32_000), '160 KB of unclosed tags'],
  ].map(
    ([type, body, what]): RegressionCase => ({
      name: `an external event of ${type} with ${what} is answered`,
      async run(ctx) {
        const key = ctx.loaded.secrets.external_events_key ?? '';
        const { account_id, project_id } = ctx.loaded.profile;
        const bytes = Buffer.from(body as string);
        const head =
          `POST /v1/external-events/webhook?account_id=${account_id}&project_id=${project_id}&event_id_location=payload&event_id_path=ref ` +
          `HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${key}\r\nContent-Type: ${type}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`;
        const a = await rawExchange(ctx.port('base_url'), Buffer.concat([Buffer.from(head), bytes]), 5000);
        return a.status !== null && a.status < 500 ? undefined : `answered ${a.status ?? (a.timedOut ? 'nothing within 5 s' : 'nothing')}`;
      },
    }),
  ),
  voiceFrameCase('an abrupt close mid-frame', [{ opcode: 1, announce: 100, payload: Buffer.from('{"ty') }]),
  liveCallCase,
];
