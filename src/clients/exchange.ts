import { AsyncLocalStorage } from 'node:async_hooks';
import http from 'node:http';
import https from 'node:https';
import type { LoadedProfile } from '../profile/load.js';
import { nodeTlsOptions, SYSTEM_TRUST, type Trust, trustOf } from '../profile/tls.js';
import { mutateAnswer } from './mutation.js';

/** One WebSocket frame of a connection: sent by the client, received from the target, or the close. */
export interface WsFrame {
  readonly dir: 'sent' | 'received' | 'closed';
  readonly data: string;
  /** Milliseconds since the handshake started. */
  readonly ms: number;
}

/** One request and its response, as the wire log and the reproduce command show them. */
export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly requestHeaders: Readonly<Record<string, string>>;
  readonly requestBody: string | undefined;
  readonly status: number;
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly responseBody: string;
  readonly ms: number;
  /** For a WebSocket handshake that opened: the frames that followed, appended while the socket lives. */
  readonly frames?: readonly WsFrame[];
  /** For a request that got no answer: why (status is 0, nothing was received). */
  readonly unanswered?: string;
}

/** A response with its body parsed when it is JSON. */
export interface Response<T = unknown> {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  readonly json: T | undefined;
  /** The body's bytes as received (binary bodies such as WAV audio). */
  readonly bytes?: Buffer;
  readonly exchange: Exchange;
}

/** Content types whose bodies are binary: the wire log shows their size instead of mangled text. */
const BINARY = /^(audio|video|image)\/|^application\/octet-stream/;

export interface RequestOptions {
  readonly method: string;
  readonly url: string;
  /** Header names are sent exactly as given (node:http keeps their case). */
  readonly headers?: Record<string, string>;
  /** A value is sent as JSON; a string is sent as is; undefined sends no body. */
  readonly body?: unknown;
  readonly timeoutMs?: number;
  /** How to verify an https target (the profile's `tls`); the system store when absent. */
  readonly trust?: Trust;
  /** The harness's own control surface: never passed through a mutation (only the target's answers are). */
  readonly control?: boolean;
}

const httpAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const httpsAgents = new Map<Trust, https.Agent>();

/** One keep-alive agent per trust: a connection verified against one CA is never reused under another. */
function agentFor(url: string, trust: Trust): http.Agent {
  if (!url.startsWith('https:')) return httpAgent;
  let agent = httpsAgents.get(trust);
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, maxSockets: 64, ...nodeTlsOptions(trust) });
    httpsAgents.set(trust, agent);
  }
  return agent;
}

/** The trust a loaded profile asks for (its `tls`), for requests and WebSockets to its hosts. */
export const trustFor = (loaded: LoadedProfile): Trust => trustOf(loaded.profile, loaded.path);

/** Thrown when a target does not answer: the message says where, in one line. */
export class TargetUnreachable extends Error {
  override readonly name = 'TargetUnreachable';
  constructor(
    message: string,
    /** The request that went unanswered, for the wire log (absent where nothing was sent). */
    readonly exchange?: Exchange,
  ) {
    super(message);
  }
}

/**
 * For a client's `.catch`: a request that got no answer goes into the wire log too, then the error goes on. Without
 * it a case that failed on "no answer" showed every exchange but the one it failed on, and reproduced the one before.
 *
 * @example
 * const res = await request(opts).catch(logUnanswered(this.log));
 */
export const logUnanswered =
  (log: Exchange[], conceal: (ex: Exchange) => Exchange = (ex) => ex) =>
  (e: unknown): never => {
    if (e instanceof TargetUnreachable && e.exchange) log.push(conceal(e.exchange));
    throw e;
  };

/** A case's signal and its requests in flight, each with the function that stops it (one listener per case). */
interface Bound {
  readonly signal: AbortSignal;
  readonly inFlight: Set<() => void>;
  /** Called each time the last request in flight has closed (set while `boundTo` waits for them). */
  idle?: (() => void) | undefined;
}

const bound = new AsyncLocalStorage<Bound>();

/**
 * Runs `fn` with its requests bound to `signal` (a case's: vitest aborts it when the case's time runs out). Once it
 * aborts, a request in flight ends unanswered and no new one is sent, so a timed-out case stops asking the target and
 * its wire log shows the request it was waiting on. It settles once every request `fn` left in flight has ended and
 * been logged: a body that stops waiting early (`Promise.all` rejects at the first failure) would otherwise end its
 * case with requests still going, missing from its wire log (a case that sends many side by side, as
 * outbound.limits.rate does, would leave requests in no case's log).
 *
 * @example
 * await boundTo(ctx.signal, () => body(api));
 */
export async function boundTo<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
  const b: Bound = { signal, inFlight: new Set() };
  signal.addEventListener(
    'abort',
    () => {
      for (const stop of b.inFlight) stop();
    },
    { once: true },
  );
  try {
    return await bound.run(b, fn);
  } finally {
    if (b.inFlight.size > 0) {
      await new Promise<void>((done) => {
        b.idle = done;
      });
      // Each caller logs its exchange once its request settles: a turn of the event loop lets every one of them.
      await new Promise((done) => setImmediate(done));
    }
  }
}

/** Why a request bound to `signal` got no answer: vitest's reason names the case's timeout. */
function stoppedBy(signal: AbortSignal): string {
  const ms = /timed out in (\d+) ?ms/i.exec(String((signal.reason as Error | undefined)?.message ?? signal.reason))?.[1];
  return ms ? `the case's ${ms} ms ran out (waits.case_ms)` : 'the case was stopped';
}

/**
 * Sends one HTTP(S) request and records the exchange. Uses node:http(s) rather than fetch so header
 * names go out in the case the caller wrote.
 *
 * @example
 * const res = await request({ method: 'POST', url, headers: { 'X-API-KEY': key }, body: {} });
 * res.status; res.json; res.exchange;
 */
export function request<T = unknown>(opts: RequestOptions): Promise<Response<T>> {
  const started = performance.now();
  // A keep-alive connection the target closed while idle resets the request sent on it before any answer: the target
  // never read it, so it goes again on a new connection (cases side by side leave connections idle, and a target may
  // close them at any time).
  return sendOnce<T>(opts, started).catch((e: unknown) => (e instanceof StaleConnection ? sendOnce<T>(opts, started) : Promise.reject(e)));
}

/** A request reset on a reused keep-alive connection before any answer came. */
class StaleConnection extends Error {}

function sendOnce<T>(opts: RequestOptions, started: number): Promise<Response<T>> {
  const body = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = { ...opts.headers };
  if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const send = opts.url.startsWith('https:') ? https.request : http.request;
    // What went out, the same in an answered exchange and an unanswered one.
    const sent = { method: opts.method, url: opts.url, requestHeaders: headers, requestBody: body };
    const unanswered = (why: string) => {
      const message = `${opts.method} ${opts.url}: ${why}`;
      const exchange: Exchange = {
        ...sent,
        status: 0,
        responseHeaders: {},
        responseBody: '',
        ms: performance.now() - started,
        unanswered: why,
      };
      return new TargetUnreachable(message, exchange);
    };
    const b = bound.getStore();
    if (b?.signal.aborted) {
      reject(unanswered(`not sent: ${stoppedBy(b.signal)}`));
      return;
    }
    const agent = agentFor(opts.url, opts.trust ?? SYSTEM_TRUST);
    let answered = false;
    const req = send(opts.url, { method: opts.method, headers, agent, timeout: opts.timeoutMs ?? 10_000 }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (e) => reject(unanswered(`the answer broke off: ${e.message}`)));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const rawHeaders = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
        // A mutation armed for this case (the proof that its checks can fail) rewrites the answer here.
        const received = { status: res.statusCode ?? 0, headers: rawHeaders, text: raw.toString('utf8') };
        const answer = opts.control ? received : mutateAnswer(opts.method, opts.url, received);
        const { text, headers: responseHeaders } = answer;
        const bytes = text === raw.toString('utf8') ? raw : Buffer.from(text);
        let json: T | undefined;
        if (/json/.test(responseHeaders['content-type'] ?? '')) {
          try {
            json = JSON.parse(text) as T;
          } catch {
            json = undefined;
          }
        }
        const exchange: Exchange = {
          ...sent,
          status: answer.status,
          responseHeaders,
          responseBody: BINARY.test(responseHeaders['content-type'] ?? '') ? `(${bytes.length} bytes of ${responseHeaders['content-type']})` : text,
          ms: performance.now() - started,
        };
        resolve({ status: exchange.status, headers: responseHeaders, text, json, bytes, exchange });
      });
    });
    if (b) {
      const stop = () => req.destroy(unanswered(`no answer before ${stoppedBy(b.signal)}`));
      b.inFlight.add(stop);
      req.on('close', () => {
        b.inFlight.delete(stop);
        if (b.inFlight.size === 0) b.idle?.();
      });
    }
    req.on('timeout', () => req.destroy(unanswered(`no answer within ${opts.timeoutMs ?? 10_000} ms`)));
    req.on('error', (e) => {
      const stale = req.reusedSocket && !answered && (e as NodeJS.ErrnoException).code === 'ECONNRESET' && !b?.signal.aborted;
      reject(e instanceof TargetUnreachable ? e : stale ? new StaleConnection(e.message) : unanswered(e.message));
    });
    if (body !== undefined) req.write(body);
    req.end();
  });
}
