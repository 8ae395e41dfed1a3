import type { RawData, WebSocket } from 'ws';
import type { ErrorEntry } from '../../contract/rule.js';
import {
  type AnswerMessage,
  DEFAULT_VOICE_MODE,
  type ErrorMessage,
  IceCandidateData,
  type IceCandidateMessage,
  type OfferMessage,
  SdpData,
  SignalingEnvelope,
  SignalingMessage,
  type SignalingType,
  VoiceErrors,
  VoiceMode,
} from '../../contract/voice/shapes.js';
import type { TargetContext } from '../context.js';
import type { StoredConversation } from '../conversations.js';
import { isRecord } from '../http.js';
import { parseLimitedJson } from '../limits.js';
import type { ForcedFailures } from './faults.js';
import { offersOpus } from './sdp.js';
import type { SessionLink, VoiceSession } from './session.js';

/** What a signaling connection needs from the gateway. */
export interface GatewayPort {
  readonly ctx: TargetContext;
  readonly faults: ForcedFailures;
  /** Negotiates a new session (once the media engine is loaded); the caller sends the answer SDP. */
  openSession(
    id: string,
    offer: OfferMessage,
    record: () => StoredConversation,
    link: SessionLink,
    localAddress: string,
  ): Promise<{ session: VoiceSession; sdp: string }>;
  newSessionId(): string;
  opened(session: VoiceSession): void;
  ended(session: VoiceSession): void;
}

/** A documented error to answer with; thrown inside handlers, sent by the dispatcher. */
class SignalingError extends Error {
  constructor(
    readonly error: ErrorEntry,
    readonly sessionId: string,
    readonly detail?: string,
  ) {
    super(error.text);
  }
}

type Handler = (conn: SignalingConnection, raw: Record<string, unknown>, envelope: SignalingEnvelope) => Promise<void> | void;

/**
 * One signaling WebSocket. Frames are handled strictly in order (a promise chain), so a reply always follows the
 * message it answers; a socket can carry several sessions, and its end ends them all.
 */
export class SignalingConnection {
  readonly #sessions = new Map<string, VoiceSession>();
  #queue: Promise<void> = Promise.resolve();
  /** Whether an offer on this socket carried a valid token (only a defect looks at it). */
  authorized = false;
  /** The last session created here: under a defect, an empty sessionId resolves to it. */
  latest: VoiceSession | undefined;

  constructor(
    private readonly ws: WebSocket,
    readonly gw: GatewayPort,
    /** The address the client reached the gateway on; sessions gather a host candidate there. */
    readonly localAddress: string,
  ) {
    ws.on('message', (data, isBinary) => {
      this.#queue = this.#queue.then(() => this.#handle(data, isBinary));
    });
    // Protocol errors (bad UTF-8, RSV bits, unknown opcodes, unmasked or oversize frames, bad close codes) arrive as
    // 'error' events: without a listener, one would end the whole target. ws has already sent the close frame.
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      for (const s of this.#sessions.values()) void s.end();
    });
  }

  get defects() {
    return this.gw.ctx.defects;
  }

  send(message: AnswerMessage | IceCandidateMessage | ErrorMessage): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(message));
  }

  sendError(error: ErrorEntry, sessionId: string, detail?: string): void {
    const message = detail ? `${error.text}: ${detail}` : error.text;
    const data = this.defects.has('voice-error-without-message') ? { code: error.code } : { code: error.code, message };
    this.send({ type: 'error', sessionId, data } as ErrorMessage);
  }

  /** A session of this socket by id. */
  session(sessionId: string): VoiceSession {
    const found = this.#sessions.get(sessionId) ?? (sessionId === '' && this.defects.has('voice-answer-without-session-id') ? this.latest : undefined);
    if (!found || found.state === 'ended') throw new SignalingError(VoiceErrors.UNKNOWN_SESSION, sessionId);
    return found;
  }

  /** How sessions of this socket report back. */
  readonly link: SessionLink = {
    sendCandidate: (sessionId, data) =>
      this.send({ type: 'ice-candidate', sessionId, data: this.defects.has('voice-candidate-index-misspelt') ? misspelt(data) : data }),
    sendError: (error, sessionId) => this.sendError(error, sessionId),
    ended: (session) => {
      this.#sessions.delete(session.id);
      this.gw.ended(session);
    },
  };

  /** Takes a new session into this socket; false (and the session ended) when the socket closed during negotiation. */
  adopt(session: VoiceSession): boolean {
    if (this.ws.readyState !== this.ws.OPEN) {
      void session.end();
      return false;
    }
    this.#sessions.set(session.id, session);
    this.latest = session;
    this.gw.opened(session);
    return true;
  }

  async #handle(data: RawData, isBinary: boolean): Promise<void> {
    let sessionId = '';
    try {
      if (isBinary) throw new SignalingError(VoiceErrors.INVALID_MESSAGE, '', 'binary frame');
      let raw: unknown;
      try {
        raw = parseLimitedJson(data.toString());
      } catch {
        throw new SignalingError(VoiceErrors.INVALID_MESSAGE, '', 'not JSON');
      }
      if (isRecord(raw) && typeof raw.sessionId === 'string') sessionId = raw.sessionId;
      const envelope = SignalingEnvelope.safeParse(raw);
      if (!isRecord(raw) || !envelope.success) {
        throw new SignalingError(VoiceErrors.INVALID_MESSAGE, sessionId, 'type (offer, answer, ice-candidate, error, close) and sessionId are required');
      }
      await HANDLERS[envelope.data.type](this, raw, envelope.data);
    } catch (e) {
      if (e instanceof SignalingError) this.sendError(e.error, e.sessionId, e.detail);
      else this.sendError(VoiceErrors.HANDLER_ERROR, sessionId);
    }
  }
}

/** Checks the offer's token: required on every offer, not just a socket's first. */
/** A defect's candidate data: the documented sdpMLineIndex under a one-letter-case near miss. */
function misspelt(data: IceCandidateData): IceCandidateData {
  const { sdpMLineIndex, ...rest } = data;
  return { ...rest, sdpMlineIndex: sdpMLineIndex } as IceCandidateData;
}

function checkToken(conn: SignalingConnection, raw: Record<string, unknown>, sessionId: string): void {
  if (conn.authorized && conn.defects.has('voice-token-checked-once')) return;
  const token = raw.authToken;
  if (token === undefined || token === '') {
    if (conn.defects.has('voice-offer-without-token-accepted')) return;
    throw new SignalingError(VoiceErrors.AUTH_TOKEN_REQUIRED, sessionId);
  }
  if (token !== conn.gw.ctx.credentials.voice_auth_token) throw new SignalingError(VoiceErrors.INVALID_AUTH_TOKEN, sessionId);
  conn.authorized = true;
}

/** Parses an offer whose token passed: an unknown mode or a bad field value is INVALID_ARGUMENT, bad data INVALID_MESSAGE. */
function parseOffer(conn: SignalingConnection, raw: Record<string, unknown>, sessionId: string): OfferMessage {
  const lenientMode = conn.defects.has('voice-unknown-mode-accepted') && !VoiceMode.safeParse(raw.mode ?? DEFAULT_VOICE_MODE).success;
  const defaultEcho = conn.defects.has('voice-default-mode-echo') && raw.mode === undefined;
  const parsed = SignalingMessage.safeParse(lenientMode ? { ...raw, mode: undefined } : defaultEcho ? { ...raw, mode: 'echo' } : raw);
  if (!parsed.success) {
    const field = String(parsed.error.issues[0]?.path[0] ?? 'message');
    if (field === 'mode') throw new SignalingError(VoiceErrors.INVALID_MODE, sessionId, 'mode must be one of end-to-end, traditional, echo');
    if (field === 'data') throw new SignalingError(VoiceErrors.INVALID_MESSAGE, sessionId, 'offer data must be {type: offer, sdp}');
    throw new SignalingError(VoiceErrors.INVALID_FIELD, sessionId, field);
  }
  const sdp = SdpData.safeParse(parsed.data.data);
  if (!sdp.success || sdp.data.type !== 'offer') throw new SignalingError(VoiceErrors.INVALID_MESSAGE, sessionId, 'offer data must be {type: offer, sdp}');
  return { ...parsed.data, type: 'offer', data: { type: 'offer', sdp: sdp.data.sdp }, authToken: String(raw.authToken ?? '') };
}

async function offer(conn: SignalingConnection, raw: Record<string, unknown>, envelope: SignalingEnvelope): Promise<void> {
  const { sessionId } = envelope;
  checkToken(conn, raw, sessionId);
  const message = parseOffer(conn, raw, sessionId);
  if (sessionId !== '') {
    // Renegotiation of a live session of this socket (reference-target choice: the document does not say). The SDP
    // is checked before werift sees it, as on a first offer: not an SDP, or no Opus, is INVALID_ARGUMENT.
    const session = conn.session(sessionId);
    if (!offersOpus(message.data.sdp)) throw new SignalingError(VoiceErrors.INVALID_SDP, sessionId);
    const sdp = await session.renegotiate(message.data.sdp).catch(() => {
      throw new SignalingError(VoiceErrors.INVALID_SDP, sessionId);
    });
    return conn.send({ type: 'answer', sessionId, data: { type: 'answer', sdp } });
  }
  const { ctx, faults } = conn.gw;
  if (faults.take(message.callSid, 'HANDLER_ERROR')) throw new Error('forced HANDLER_ERROR');
  if (!offersOpus(message.data.sdp)) throw new SignalingError(VoiceErrors.INVALID_SDP, sessionId);
  const id = conn.gw.newSessionId();
  const record = () =>
    ctx.conversations.create({
      source: 'voice',
      channel: 'VOICE-WEBRTC',
      // A defect's gateway routes every call to the project's default variant.
      variantId: conn.defects.has('voice-variant-default') ? ctx.tenant.variants[0]?.id : message.variantId,
      integrationAttributes: undefined,
      ...(conn.defects.has('voice-drops-caller-fields') ? {} : { caller: message.caller, callee: message.callee }),
      callSid: conn.defects.has('voice-call-sid-snake-case') ? (typeof raw.call_sid === 'string' ? raw.call_sid : undefined) : message.callSid,
    });
  const { session, sdp } = await conn.gw.openSession(id, message, record, conn.link, conn.localAddress);
  if (!conn.adopt(session)) return;
  conn.send({ type: 'answer', sessionId: conn.defects.has('voice-answer-without-session-id') ? '' : id, data: { type: 'answer', sdp } });
  session.answered();
  if (faults.take(message.callSid, 'MEDIA_BRIDGE_FAILURE')) session.fail(VoiceErrors.MEDIA_BRIDGE_FAILURE);
  else if (faults.take(message.callSid, 'AGENT_FAILURE')) session.fail(VoiceErrors.AGENT_FAILURE);
}

async function iceCandidate(conn: SignalingConnection, raw: Record<string, unknown>, { sessionId }: SignalingEnvelope): Promise<void> {
  const session = conn.session(sessionId);
  const data = IceCandidateData.safeParse(raw.data);
  if (!data.success) throw new SignalingError(VoiceErrors.INVALID_MESSAGE, sessionId, 'ice-candidate data must be {candidate, sdpMid, sdpMLineIndex}');
  try {
    await session.addCandidate(data.data);
  } catch {
    throw new SignalingError(VoiceErrors.INVALID_CANDIDATE, sessionId);
  }
}

async function close(conn: SignalingConnection, _raw: Record<string, unknown>, { sessionId }: SignalingEnvelope): Promise<void> {
  const session = conn.session(sessionId);
  if (!conn.defects.has('voice-close-ignored')) await session.end();
}

/** The gateway is always the answerer: an answer from a client is a message it does not support. */
function clientAnswer(_conn: SignalingConnection, _raw: Record<string, unknown>, { sessionId }: SignalingEnvelope): void {
  throw new SignalingError(VoiceErrors.INVALID_MESSAGE, sessionId, 'the gateway answers offers; clients do not send answers');
}

/** A client reporting its own failure: noted by nobody, answered with nothing (reference-target choice). */
function clientError(): void {}

/** One handler per documented message type. */
const HANDLERS: Record<SignalingType, Handler> = {
  offer,
  answer: clientAnswer,
  'ice-candidate': iceCandidate,
  error: clientError,
  close,
};
