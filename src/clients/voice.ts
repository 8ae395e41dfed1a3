import { type IceServersResponse, VoicePaths } from '../contract/voice/shapes.js';
import type { LoadedProfile } from '../profile/load.js';
import type { ControlClient } from './control-client.js';
import { type Exchange, logUnanswered, type Response, request, trustFor } from './exchange.js';
import type { CallOptions, OfferOptions, VoiceCall } from './voice-call.js';
import { SignalingSocket } from './voice-signaling.js';

/**
 * werift takes most of a second to import: loaded on first use, so the cases of other surfaces (which share the case
 * context, and with it this client) never pay for it.
 */
const media = () => import('./voice-call.js');

/** A failure the reference target's control surface can force on the offer carrying a callSid. */
export type ForcedVoiceFailure = 'HANDLER_ERROR' | 'MEDIA_BRIDGE_FAILURE' | 'AGENT_FAILURE';

/** A session as the reference target's control surface shows it. */
export interface VoiceSessionView {
  readonly sessionId: string;
  readonly mode: string;
  readonly state: string;
  readonly conversationId: string;
  readonly callSid: string | null;
  readonly caller: string | null;
  readonly callee: string | null;
  readonly variantId: string | null;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A call as a case asks for it: the offer's fields (authToken defaults to the profile's token), what to send. */
export type CallRequest = Partial<Omit<CallOptions, 'offer'>> & { readonly offer?: Partial<OfferOptions> };

/**
 * Typed client of the browser voice gateway (document 1): ice-servers over HTTP, signaling over a WebSocket, calls
 * through a werift peer connection. Every HTTP exchange and every signaling socket lands in `log`, the case's wire log.
 * `closeAll()` ends everything it opened.
 *
 * @example
 * const voice = new VoiceClient(loaded, log);
 * const call = await voice.call({ offer: { mode: 'echo' }, source: { hz: 660, amplitude: 0.25 } });
 * await call.connected();
 * call.startSending();
 * const back = await call.audio({ ms: 300 });
 * await voice.closeAll();
 */
export class VoiceClient {
  readonly #sockets: SignalingSocket[] = [];
  readonly #calls: VoiceCall[] = [];

  constructor(
    private readonly loaded: LoadedProfile,
    readonly log: Exchange[] = [],
  ) {}

  /** The voice auth token of the profile (for offers and the Bearer header). */
  get token(): string | undefined {
    return this.loaded.secrets.voice_auth_token;
  }

  #base(): URL {
    const base = this.loaded.profile.hosts.webrtc_url;
    if (!base) throw new Error('the profile names no hosts.webrtc_url');
    return new URL(base);
  }

  /** The signaling WebSocket URL: the gateway host with ws(s) and the documented path. */
  signalUrl(): string {
    const url = new URL(VoicePaths.signal, this.#base());
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url.toString();
  }

  /** Whether the gateway is on this machine (the caller then gathers a loopback candidate too). */
  get loopback(): boolean {
    return LOOPBACK.has(this.#base().hostname);
  }

  /**
   * GET ice-servers. `authorization` replaces the header (`null` sends none); by default `Bearer <voice auth token>`.
   */
  async iceServers(options: { authorization?: string | null } = {}): Promise<Response<IceServersResponse>> {
    const auth = options.authorization === undefined ? `Bearer ${this.token ?? ''}` : options.authorization;
    const res = await request<IceServersResponse>({
      method: 'GET',
      url: new URL(VoicePaths.iceServers, this.#base()).toString(),
      headers: auth === null ? {} : { Authorization: auth },
      trust: trustFor(this.loaded),
    }).catch(logUnanswered(this.log));
    this.log.push(res.exchange);
    return res;
  }

  /** A real offer SDP (werift, sendrecv Opus audio), for cases that send offers by hand. */
  async offerSdp(): Promise<string> {
    const { codecs, RTCPeerConnection } = await media();
    // Offer only, never setLocalDescription: nothing is gathered, so werift's fallback STUN server is never asked.
    const pc = new RTCPeerConnection({ codecs: codecs(), iceServers: [] });
    try {
      pc.addTransceiver('audio', { direction: 'sendrecv' });
      return (await pc.createOffer()).sdp;
    } finally {
      await pc.close();
    }
  }

  /** Opens a signaling socket. */
  async signal(): Promise<SignalingSocket> {
    const socket = await SignalingSocket.open(this.signalUrl(), this.log, undefined, trustFor(this.loaded));
    this.#sockets.push(socket);
    return socket;
  }

  /** Places a call: on `socket` if given, else on a socket of its own. Look at `answer` and `error` for the outcome. */
  async call(req: CallRequest = {}, socket?: SignalingSocket): Promise<VoiceCall> {
    const signaling = socket ?? (await this.signal());
    const offer: OfferOptions = { ...req.offer, authToken: req.offer?.authToken === undefined ? (this.token ?? null) : req.offer.authToken };
    const { VoiceCall } = await media();
    const call = await VoiceCall.place(signaling, { ...req, offer, loopback: req.loopback ?? this.loopback });
    this.#calls.push(call);
    return call;
  }

  /** Closes every call's peer connection and every socket this client opened. */
  async closeAll(): Promise<void> {
    await Promise.allSettled(this.#calls.splice(0).map((c) => c.dispose()));
    for (const s of this.#sockets.splice(0)) s.close();
  }

  /** Reference target only: the offer carrying `callSid` fails with `code`. */
  forceFailure(control: ControlClient, callSid: string, code: ForcedVoiceFailure): Promise<unknown> {
    return control.call('POST', '/voice/faults', { callSid, code });
  }

  /** Reference target only: live and recently ended sessions. */
  async sessions(control: ControlClient): Promise<VoiceSessionView[]> {
    return (await control.call<{ sessions: VoiceSessionView[] }>('GET', '/voice/sessions')).sessions;
  }
}

const ICE_URL = /^(stun|stuns|turn|turns):(\[[0-9a-f:.]+\]|[^:?/[\]]+)(:\d{1,5})?(\?transport=(udp|tcp))?$/i;

/**
 * What a browser's RTCPeerConnection would refuse in an iceServers list (W3C webrtc-pc, "validate an ICE server"):
 * a URL that is not a stun:, stuns:, turn: or turns: URI (RFC 7064, RFC 7065), a transport on a STUN URL, or a TURN
 * URL without both username and credential. An empty list means the entries can be passed unchanged.
 *
 * @example
 * iceServerProblems([{ urls: 'turns:turn.example.com:443?transport=tcp' }]) // ['turns:turn.example.com:443?transport=tcp: TURN without username and
 * credential']
 */
export function iceServerProblems(servers: readonly { urls: string | string[]; username?: string; credential?: string }[]): string[] {
  const problems: string[] = [];
  for (const server of servers) {
    const urls = Array.isArray(server.urls) ? server.urls : [server.urls];
    if (urls.length === 0) problems.push('an entry with no urls');
    for (const url of urls) {
      const m = ICE_URL.exec(url);
      const scheme = m?.[1]?.toLowerCase();
      if (!m || !scheme) problems.push(`${url}: not a stun/stuns/turn/turns URI`);
      else if (scheme.startsWith('stun') && m[4]) problems.push(`${url}: a STUN URI takes no transport`);
      else if (scheme.startsWith('turn') && (typeof server.username !== 'string' || typeof server.credential !== 'string')) {
        problems.push(`${url}: TURN without username and credential`);
      }
    }
  }
  return problems;
}
