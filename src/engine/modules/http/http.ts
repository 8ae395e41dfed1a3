// k6/http for the built-in engine (/javascript-api/k6-http/), on undici's Client. Only `asyncRequest` sends: the
// blocking calls (request, get, post, …, batch) throw, since a VU here is an event loop that cannot block.
//
// Connections: each VU has its own (k6 gives every VU its own), kept alive, one undici Client per connection. A
// request takes an idle Client of its origin or makes a new one, so it is known whether it went out on a new
// connection (connecting and tls_handshaking measured by our own connector) or a reused one (both 0).
//
// HTTP/2 (/using-k6/protocols/http-2/: "k6 uses HTTP/2 by default when the server supports it"): an https origin's
// first connection offers h2 and http/1.1 by ALPN. Where the server picks h2, that one connection is the VU's for the
// origin, its requests multiplexed on it (http.batch's too), and `res.proto` and the `proto` tag are HTTP/2.0; requests
// made while it is being opened wait for it (their wait is `blocked`). Where it picks http/1.1, the origin goes on as
// before, a connection per request in flight. Plain http: origins never offer h2: their path is unchanged.
//
// Timings (/using-k6/metrics/reference/), in ms: blocked = from the call until the request can be written, less the
// connect and TLS time (so DNS lookup and waiting for the connection count there); connecting = TCP connect;
// tls_handshaking; sending = writing the request; waiting = until the first response byte; receiving = until the
// body's end; duration = sending + waiting + receiving.

import { randomBytes } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { buildConnector, Client as UndiciClient } from 'undici';
import { durationMs } from '../../../core/duration.js';
import { type HostsLookup, hostsLookup, type Redirect } from '../../hosts.js';
import type { ModuleFactory, SampleSink, Tags, VuHost } from '../../types.js';
import { CookieJar, cookieHeader, type RequestCookies } from './cookies.js';
import { digestAuthorization, parseDigestChallenge } from './digest-auth.js';
import { gjsonGet } from './gjson.js';
import { HTTP_METRICS } from './metrics.js';
import { secureContextOf } from './tls-context.js';

/** undici's Client alone: the package's index loads every API undici has (fetch, EventSource, caches, mocks) in each thread. */
const Client = createRequire(import.meta.url)('undici/lib/dispatcher/client.js') as typeof UndiciClient;

/** The User-Agent when the script's options set none (`userAgent: ''` sends none, as in k6). */
export const DEFAULT_USER_AGENT = 'dialtone-engine/0.1 (k6-compatible)';

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_REDIRECTS = 10;
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Path characters undici refuses or that need encoding: such URLs go through WHATWG URL parsing first. */
const NEEDS_NORMALIZING = /[^\u0021-\u007e]|%(?![0-9a-fA-F]{2})/;
const FORM_UNSAFE = /[!'()*]/g;
const SPACE = /%20/g;

// ---------------------------------------------------------------------------------------------------------------
// Script-facing helpers

/** What `http.expectedStatuses(…)` returns: the set of statuses that count as expected. */
export class ExpectedStatuses {
  readonly #table = new Uint8Array(1000);

  constructor(args: readonly unknown[]) {
    if (args.length === 0) throw new Error('k6/http: expectedStatuses() needs at least one status or {min, max} range');
    for (const a of args) {
      if (typeof a === 'number' && Number.isInteger(a)) {
        if (a >= 0 && a < 1000) this.#table[a] = 1;
      } else if (typeof a === 'object' && a !== null && Number.isInteger((a as { min?: unknown }).min) && Number.isInteger((a as { max?: unknown }).max)) {
        const { min, max } = a as { min: number; max: number };
        for (let s = Math.max(0, min); s <= Math.min(999, max); s++) this.#table[s] = 1;
      } else {
        throw new Error(`k6/http: expectedStatuses() takes integers and {min, max} objects, not ${JSON.stringify(a)}`);
      }
    }
  }

  has(status: number): boolean {
    return this.#table[status] === 1;
  }
}

/** What ``http.url`…` `` returns: the URL, and the `name` tag with each `${}` kept as written. */
export class HttpURL {
  constructor(
    readonly url: string,
    readonly name: string,
  ) {}

  toString(): string {
    return this.url;
  }
}

/** What `http.file(data, filename, contentType)` returns: a multipart form field's file. */
export class FileData {
  constructor(
    readonly data: string | ArrayBuffer | ArrayBufferView,
    readonly filename: string | undefined,
    readonly content_type: string,
  ) {}
}

/** params.timeout in ms: a k6 duration ("60s", "1m30s", "500ms") or a number of ms; strings are parsed once. */
const durations = new Map<string, number>();
export function parseTimeout(t: unknown): number {
  if (t === undefined || t === null) return DEFAULT_TIMEOUT_MS;
  if (typeof t === 'number') {
    if (!(t >= 0)) throw new Error(`k6/http: invalid timeout ${t}`);
    return t;
  }
  if (typeof t !== 'string') throw new Error(`k6/http: timeout must be a duration string or a number of ms, not ${typeof t}`);
  let ms = durations.get(t);
  if (ms !== undefined) return ms;
  ms = durationMs(t);
  if (ms === undefined) throw new Error(`k6/http: timeout '${t}' is not a duration (e.g. "30s", "1m30s", "500ms")`);
  if (durations.size > 1000) durations.clear();
  durations.set(t, ms);
  return ms;
}

// ---------------------------------------------------------------------------------------------------------------
// Connections

/** Timing marks of a connection our connector opened, read by the first request that goes out on it. */
interface FreshConn {
  start: number;
  /** DNS answer (NaN when the host is an IP). */
  lookup: number;
  tcp: number;
  /** TLS handshake done (NaN for plain HTTP). */
  tls: number;
}

/** One keep-alive connection: an undici Client that serves one request at a time. */
class Conn {
  readonly client: UndiciClient;
  /** Set by the connector when it opened a new socket; taken by the request that uses it. */
  fresh: FreshConn | null = null;
  socket: net.Socket | null = null;
  /** The socket still being connected, so a timeout can end it. */
  connecting: net.Socket | null = null;
  tlsVersion = '';
  remoteIp = '';
  remotePort = 0;
  lastRead = 0;
  lastWritten = 0;
  /** Destroyed: never reused. */
  dead = false;
  /** What the connection speaks, once connected: k6's `proto`. */
  proto: 'HTTP/1.1' | 'HTTP/2.0' = 'HTTP/1.1';

  constructor(readonly origin: Origin) {
    this.client = new Client(origin.origin, {
      connect: (_opts, cb) => connectFor(this, cb),
      keepAliveTimeout: 30_000,
      keepAliveTimeoutThreshold: 1_000,
      headersTimeout: 0,
      bodyTimeout: 0,
      pipelining: 1,
    });
  }
}

/** The connector undici calls when a Conn needs a socket: TCP (and TLS), with the marks k6's timings need. */
function connectFor(c: Conn, cb: buildConnector.Callback): void {
  const o = c.origin;
  const start = performance.now();
  const marks: FreshConn = { start, lookup: Number.NaN, tcp: Number.NaN, tls: Number.NaN };
  let sock: net.Socket;
  if (o.https) {
    sock = tls.connect({
      host: o.dial.host,
      port: o.dial.port,
      ...(o.servername ? { servername: o.servername } : {}),
      ...(o.ca !== undefined ? { secureContext: secureContextOf(o.ca) } : {}),
      rejectUnauthorized: !o.insecure,
      ALPNProtocols: H2_ALPN,
    });
    sock.setNoDelay(true);
  } else {
    sock = net.connect({ host: o.dial.host, port: o.dial.port, noDelay: true });
  }
  c.connecting = sock;
  let settled = false;
  const fail = (err: Error) => {
    if (settled) return;
    settled = true;
    c.connecting = null;
    sock.destroy();
    if (o.https) o.learned(null);
    cb(err, null);
  };
  const ready = () => {
    if (settled) return;
    settled = true;
    c.connecting = null;
    sock.removeListener('error', fail);
    if (o.https) {
      marks.tls = performance.now();
      c.tlsVersion = TLS_VERSIONS[(sock as tls.TLSSocket).getProtocol() ?? ''] ?? '';
      const h2 = (sock as tls.TLSSocket).alpnProtocol === 'h2';
      c.proto = h2 ? 'HTTP/2.0' : 'HTTP/1.1';
      // undici runs a Client one request at a time (pipelining 1); an h2 connection takes as many streams as it allows.
      if (h2) c.client.pipelining = H2_STREAMS;
      o.learned(c);
    }
    c.fresh = marks;
    c.socket = sock;
    c.lastRead = 0;
    c.lastWritten = 0;
    c.remoteIp = sock.remoteAddress ?? '';
    c.remotePort = sock.remotePort ?? 0;
    cb(null, sock);
  };
  sock.once('lookup', () => {
    marks.lookup = performance.now();
  });
  sock.once('connect', () => {
    marks.tcp = performance.now();
    if (!o.https) ready();
  });
  if (o.https) sock.once('secureConnect', ready);
  sock.once('error', fail);
}

/** The protocols an https connection offers, h2 first, as Go's client does. */
const H2_ALPN = ['h2', 'http/1.1'];
/** Streams at once on one h2 connection (undici's default for its own h2 clients). */
const H2_STREAMS = 100;

const TLS_VERSIONS: Record<string, string> = { 'TLSv1.3': 'tls1.3', 'TLSv1.2': 'tls1.2', 'TLSv1.1': 'tls1.1', TLSv1: 'tls1.0', SSLv3: 'ssl3.0' };

/** One origin (scheme, host, port) of one VU: its idle connections, or its one h2 connection. */
class Origin {
  readonly idle: Conn[] = [];
  readonly all = new Set<Conn>();
  /** An https origin's h2 connection, once its server chose h2: every request of the VU to the origin goes on it. */
  shared: Conn | null = null;
  /** Whether the server chose h2, once an https connection was made; undefined before. */
  h2: boolean | undefined;
  /** An https origin's first connection, being opened: requests made meanwhile wait for its protocol. */
  #probe: { conn: Conn; done: Promise<void>; resolve: () => void } | null = null;

  constructor(
    readonly origin: string,
    readonly https: boolean,
    readonly hostname: string,
    readonly port: number,
    readonly servername: string | undefined,
    readonly ca: string | undefined,
    readonly insecure: boolean,
    /** Where its connections go: its own host and port, or what options.hosts redirects them to (hosts.ts). */
    readonly dial: Redirect,
  ) {}

  /** A connection for one request: now, or (an https origin's first connection being opened) once its protocol is known. */
  acquire(): Conn | Promise<Conn> {
    if (this.https) {
      const shared = this.shared;
      if (shared && !shared.dead) return shared;
      if (this.#probe) return this.#probe.done.then(() => this.acquire());
      if (this.h2 !== false) {
        const conn = new Conn(this);
        this.all.add(conn);
        let resolve = () => {};
        const done = new Promise<void>((r) => (resolve = r));
        this.#probe = { conn, done, resolve };
        return conn;
      }
    }
    let c = this.idle.pop();
    while (c?.dead) c = this.idle.pop();
    if (c) return c;
    c = new Conn(this);
    this.all.add(c);
    return c;
  }

  /** The connector's word on an https connection: connected (with its protocol), or failed (null). */
  learned(c: Conn | null): void {
    if (c) {
      this.h2 = c.proto === 'HTTP/2.0';
      if (this.h2) this.shared = c;
      else if (this.shared === c) {
        // Its server answered a reconnection with http/1.1: one request at a time again, kept as any other.
        this.shared = null;
        c.client.pipelining = 1;
      }
    }
    const probe = this.#probe;
    if (probe && (c === null || probe.conn === c)) {
      this.#probe = null;
      probe.resolve();
    }
  }

  release(c: Conn): void {
    if (c.dead) this.all.delete(c);
    else if (c !== this.shared && !this.idle.includes(c)) this.idle.push(c);
  }

  drop(c: Conn, err: Error): void {
    c.dead = true;
    this.all.delete(c);
    if (this.shared === c) this.shared = null;
    c.client.destroy(err).catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Responses

const NO_OCSP = Object.freeze({ produced_at: 0, this_update: 0, next_update: 0, revocation_reason: '', revoked_at: 0, status: '' });
const UNPARSED: unique symbol = Symbol('unparsed');
const INVALID: unique symbol = Symbol('invalid');

export interface Timings {
  blocked: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
  duration: number;
}

interface RequestInfo {
  method: string;
  url: string;
  headers: readonly string[];
  body: string | Buffer | null;
}

const canonicalNames = new Map<string, string>();
/** Go's canonical header key: "content-type" → "Content-Type". */
function canonical(name: string): string {
  let c = canonicalNames.get(name);
  if (c !== undefined) return c;
  c = name
    .toLowerCase()
    .split('-')
    .map((p) => (p ? (p[0] as string).toUpperCase() + p.slice(1) : p))
    .join('-');
  if (canonicalNames.size > 2_000) canonicalNames.clear();
  canonicalNames.set(name, c);
  return c;
}

/** `res.request`: what was sent (the last hop's). */
export interface RequestView {
  method: string;
  url: string;
  headers: Record<string, string[]>;
  body: string;
  cookies: Record<string, unknown>;
}

interface ResponseCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  httpOnly: boolean;
  secure: boolean;
  maxAge: number;
  expires: number;
}

function parseSetCookie(line: string): ResponseCookie | undefined {
  const parts = line.split(';');
  const first = parts[0] ?? '';
  const eq = first.indexOf('=');
  if (eq <= 0) return undefined;
  const c: ResponseCookie = {
    name: first.slice(0, eq).trim(),
    value: first.slice(eq + 1).trim(),
    domain: '',
    path: '',
    httpOnly: false,
    secure: false,
    maxAge: 0,
    expires: 0,
  };
  for (const attr of parts.slice(1)) {
    const i = attr.indexOf('=');
    const k = (i < 0 ? attr : attr.slice(0, i)).trim().toLowerCase();
    const v = i < 0 ? '' : attr.slice(i + 1).trim();
    if (k === 'domain') c.domain = v;
    else if (k === 'path') c.path = v;
    else if (k === 'httponly') c.httpOnly = true;
    else if (k === 'secure') c.secure = true;
    else if (k === 'max-age') c.maxAge = Number(v) || 0;
    else if (k === 'expires') c.expires = Date.parse(v) || 0;
  }
  return c;
}

/** k6/html's parseHTML, set when the script's modules load it (cheerio costs a worker time to load: only when used). */
let htmlParser: ((html: string) => { find(selector: string): unknown }) | undefined;

/**
 * Lets `res.html()` parse with k6/html's `parseHTML`; `undefined` leaves it none again, as in a thread whose script
 * never loaded k6/html (a test's in-process runs share one main thread).
 */
export function useHtmlParser(parse: ((html: string) => { find(selector: string): unknown }) | undefined): void {
  htmlParser = parse;
}

/** k6's Response (/javascript-api/k6-http/response/). Headers, cookies and the request are built when first read. */
export class HttpResponse {
  /** HTTP/1.1, or HTTP/2.0 where the server chose h2 (set by the request after it is made). */
  proto = 'HTTP/1.1';
  readonly ocsp = NO_OCSP;
  tls_cipher_suite = '';
  #raw: readonly Buffer[] | null;
  #headers: Record<string, string> | undefined;
  #cookies: Record<string, ResponseCookie[]> | undefined;
  #req: RequestInfo;
  #request: RequestView | undefined;
  #json: unknown = UNPARSED;

  constructor(
    readonly status: number,
    readonly status_text: string,
    readonly url: string,
    readonly body: string | ArrayBuffer | null,
    readonly timings: Timings,
    readonly error: string,
    readonly error_code: number,
    readonly tls_version: string,
    readonly remote_ip: string,
    readonly remote_port: number,
    raw: readonly Buffer[] | null,
    req: RequestInfo,
  ) {
    this.#raw = raw;
    this.#req = req;
  }

  /** Response headers under their canonical names; repeated headers joined with ", ". */
  get headers(): Record<string, string> {
    if (this.#headers) return this.#headers;
    const h: Record<string, string> = {};
    const raw = this.#raw ?? [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = canonical((raw[i] as Buffer).toString('latin1'));
      const value = (raw[i + 1] as Buffer).toString('utf8');
      h[name] = h[name] === undefined ? value : `${h[name]}, ${value}`;
    }
    this.#headers = h;
    return h;
  }

  get cookies(): Record<string, ResponseCookie[]> {
    if (this.#cookies) return this.#cookies;
    const out: Record<string, ResponseCookie[]> = {};
    const raw = this.#raw ?? [];
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if ((raw[i] as Buffer).toString('latin1').toLowerCase() !== 'set-cookie') continue;
      const c = parseSetCookie((raw[i + 1] as Buffer).toString('utf8'));
      if (!c) continue;
      const list = out[c.name];
      if (list) list.push(c);
      else out[c.name] = [c];
    }
    this.#cookies = out;
    return out;
  }

  /** The request as sent (the last hop's): method, url, headers (name → values), body. */
  get request(): RequestView {
    if (this.#request) return this.#request;
    const r = this.#req;
    const headers: Record<string, string[]> = {};
    for (let i = 0; i + 1 < r.headers.length; i += 2) {
      const name = canonical(r.headers[i] as string);
      const list = headers[name];
      if (list) list.push(r.headers[i + 1] as string);
      else headers[name] = [r.headers[i + 1] as string];
    }
    const body = r.body === null ? '' : typeof r.body === 'string' ? r.body : r.body.toString('utf8');
    this.#request = { method: r.method, url: r.url, headers, body, cookies: {} };
    return this.#request;
  }

  /**
   * The body parsed as JSON (once; later calls reuse it), or the value a GJSON `selector` picks from it;
   * `undefined` when the body is not JSON or the selector finds nothing.
   */
  json(selector?: string): unknown {
    if (this.#json === UNPARSED) {
      const b = this.body;
      const text = typeof b === 'string' ? b : b instanceof ArrayBuffer ? Buffer.from(b).toString('utf8') : null;
      try {
        this.#json = text === null ? INVALID : (JSON.parse(text) as unknown);
      } catch {
        this.#json = INVALID;
      }
    }
    if (this.#json === INVALID) return undefined;
    return selector === undefined ? this.#json : gjsonGet(this.#json, selector);
  }

  /** /javascript-api/k6-http/response/response-html/: "Parses response as HTML and populates a Selection object." */
  html(selector?: string): unknown {
    if (!htmlParser) throw new Error('k6/http: res.html() found no HTML parser (k6/html was not loaded for this script)');
    const doc = htmlParser(typeof this.body === 'string' ? this.body : '');
    return selector === undefined ? doc : doc.find(selector);
  }

  clickLink(): never {
    throw new Error('k6/http: res.clickLink() is not supported by the built-in engine');
  }

  submitForm(): never {
    throw new Error('k6/http: res.submitForm() is not supported by the built-in engine');
  }

  toJSON(): Record<string, unknown> {
    const { status, status_text, url, body, timings, error, error_code, tls_version, remote_ip, remote_port, proto } = this;
    return {
      status,
      status_text,
      url,
      body,
      timings,
      error,
      error_code,
      tls_version,
      remote_ip,
      remote_port,
      proto,
      headers: this.headers,
      request: this.request,
    };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Errors (/javascript-api/error-codes/)

const UNKNOWN_AUTHORITY: ReadonlySet<string> = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

/** k6's error code and text for a request that got no response. */
function classify(err: Error & { code?: string }, o: Origin, timedOut: boolean): [number, string] {
  if (timedOut) return [1050, 'request timeout'];
  const code = err.code ?? '';
  const addr = `${o.dial.host.includes(':') ? `[${o.dial.host}]` : o.dial.host}:${o.dial.port}`;
  switch (code) {
    case 'ECONNREFUSED':
      return [1212, `dial tcp ${addr}: connect: connection refused`];
    case 'ETIMEDOUT':
      return [1211, `dial tcp ${addr}: i/o timeout`];
    case 'ENOTFOUND':
      return [1101, `lookup ${o.hostname}: no such host`];
    case 'EAI_AGAIN':
      return [1100, `lookup ${o.hostname}: ${err.message}`];
    case 'ECONNRESET':
      return [1220, `read tcp ${addr}: connection reset by peer`];
    case 'EPIPE':
      return [1201, `write tcp ${addr}: broken pipe`];
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return [1210, `dial tcp ${addr}: ${err.message}`];
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return [1311, `tls: failed to verify certificate: x509: certificate is not valid for ${o.hostname}`];
    case 'UND_ERR_SOCKET':
      return [1000, 'EOF'];
  }
  if (UNKNOWN_AUTHORITY.has(code)) return [1310, 'tls: failed to verify certificate: x509: certificate signed by unknown authority'];
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || code.startsWith('CERT_')) return [1300, `tls: ${err.message}`];
  return [1000, err.message];
}

/** Go's spelling of a method in its url.Error text ("Get", "Post"), for the warning k6 logs. */
const goMethod = (m: string) => (m ? m[0] + m.slice(1).toLowerCase() : m);

// ---------------------------------------------------------------------------------------------------------------
// One VU's HTTP client

type ResponseType = 'text' | 'binary' | 'none';

interface Params {
  headers?: Record<string, unknown> | null;
  tags?: Record<string, unknown> | null;
  timeout?: string | number;
  responseType?: ResponseType;
  responseCallback?: ExpectedStatuses | null;
  redirects?: number;
  throw?: boolean;
  /** Request-scoped cookies (/using-k6/cookies/). */
  cookies?: RequestCookies | null;
  /** A jar that replaces the VU's for this request. */
  jar?: CookieJar | null;
  /** 'digest' answers a 401's Digest challenge with the URL's credentials (digest-auth.ts); else they go as Basic. */
  auth?: string;
}

const NO_PARAMS: Params = Object.freeze({});
const NO_TAGS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const EMPTY_KEY = {};
const NO_USER_TAGS: UserTags = Object.freeze({ tags: NO_TAGS, name: undefined });

/** What a params.headers object becomes, once per object: undici's flat header array, with and without extras. */
interface HeaderSet {
  /** name, value, name, value… with the default User-Agent unless the script set one. */
  plain: string[];
  /** The same plus a form Content-Type, unless the script set one. */
  form: string[];
}

/** params.tags made strings, once per object. */
interface UserTags {
  tags: Record<string, string>;
  name: string | undefined;
}

function durationOf(t: Timings): number {
  return t.sending + t.waiting + t.receiving;
}

const DEFAULT_CALLBACK = new ExpectedStatuses([{ min: 200, max: 399 }]);
const TAGS_CACHE_MAX = 4_096;

class HttpVu {
  readonly sink: SampleSink;
  callback: ExpectedStatuses | null = DEFAULT_CALLBACK;
  readonly origins = new Map<string, Origin>();
  readonly inflight = new Set<Job>();
  readonly userAgent: string;
  readonly defaultResponseType: ResponseType;
  readonly throws: boolean;
  readonly insecure: boolean;
  /** options.hosts: where a host's connections go instead. */
  readonly hosts: HostsLookup | undefined;
  readonly maxRedirects: number;
  /** The VU's cookie jar, emptied when an iteration begins unless `noCookiesReset` (/using-k6/cookies/). */
  readonly jar: CookieJar;
  readonly #headerSets = new WeakMap<object, HeaderSet>();
  readonly #userTags = new WeakMap<object, UserTags>();
  readonly #tagCache = new WeakMap<object, WeakMap<object, Map<string, Tags>>>();

  constructor(readonly vu: VuHost) {
    this.sink = vu.sink;
    const ua = vu.options.userAgent;
    this.userAgent = typeof ua === 'string' ? ua : DEFAULT_USER_AGENT;
    this.defaultResponseType = vu.options.discardResponseBodies === true ? 'none' : 'text';
    this.throws = vu.options.throw === true;
    this.insecure = vu.tls.insecure || vu.options.insecureSkipTLSVerify === true;
    this.hosts = hostsLookup(vu.options.hosts);
    const max = vu.options.maxRedirects;
    this.maxRedirects = typeof max === 'number' && max >= 0 ? max : DEFAULT_REDIRECTS;
    const keep = vu.options.noCookiesReset === true || process.env.K6_NO_COOKIES_RESET === 'true';
    let iteration = vu.exec.vuIterationInInstance;
    this.jar = CookieJar.forVu((jar) => {
      if (vu.exec.vuIterationInInstance === iteration) return;
      iteration = vu.exec.vuIterationInInstance;
      if (!keep) jar.reset();
    });
    for (const m of HTTP_METRICS) this.sink.declare(m);
    vu.onInterrupt(this.#interrupt);
    vu.onClose(() => this.close());
  }

  /** The VU's connections to the origin `url` starts with (`end` = where its path starts). */
  origin(url: string, end: number): Origin {
    const key = url.slice(0, end);
    let o = this.origins.get(key);
    if (o) return o;
    const u = new URL(key);
    const https = u.protocol === 'https:';
    if (!https && u.protocol !== 'http:') throw new TypeError(`unsupported protocol scheme "${u.protocol.slice(0, -1)}"`);
    const normalized = `${u.protocol}//${u.host}`;
    o = this.origins.get(normalized);
    if (!o) {
      const hostname = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
      const port = u.port ? Number(u.port) : https ? 443 : 80;
      const servername = https && net.isIP(hostname) === 0 ? hostname : undefined;
      const dial = this.hosts?.(hostname, port) ?? { host: hostname, port };
      o = new Origin(normalized, https, hostname, port, servername, this.vu.tls.ca, this.insecure, dial);
      this.origins.set(normalized, o);
    }
    this.origins.set(key, o);
    return o;
  }

  headerSet(h: Record<string, unknown> | null | undefined): HeaderSet {
    const key = h ?? EMPTY_KEY;
    let s = this.#headerSets.get(key);
    if (s) return s;
    const plain: string[] = [];
    let ua = false;
    let ct = false;
    if (h) {
      for (const k in h) {
        const v = h[k];
        if (v === undefined || v === null) continue;
        const lower = k.toLowerCase();
        if (lower === 'user-agent') ua = true;
        else if (lower === 'content-type') ct = true;
        plain.push(k, String(v));
      }
    }
    if (!ua && this.userAgent !== '') plain.push('User-Agent', this.userAgent);
    s = { plain, form: ct ? plain : [...plain, 'Content-Type', 'application/x-www-form-urlencoded'] };
    this.#headerSets.set(key, s);
    return s;
  }

  userTags(t: Record<string, unknown> | null | undefined): UserTags {
    if (!t) return NO_USER_TAGS;
    let u = this.#userTags.get(t);
    if (u) return u;
    const tags: Record<string, string> = {};
    for (const k in t) if (t[k] !== undefined && t[k] !== null) tags[k] = String(t[k]);
    u = { tags: Object.freeze(tags), name: tags.name };
    this.#userTags.set(t, u);
    return u;
  }

  /**
   * The tags of one request's samples: the VU's, then k6's system tags, then params.tags (so `name` there wins).
   * Successful requests share frozen tag objects through a bounded cache, so identical requests reuse one object.
   */
  tags(job: Job, status: number, expected: boolean | undefined, errCode: number, errText: string): Tags {
    const base = job.baseTags;
    const user = job.user.tags;
    let byUser: WeakMap<object, Map<string, Tags>> | undefined;
    let cache: Map<string, Tags> | undefined;
    let key = '';
    if (errText === '') {
      byUser = this.#tagCache.get(base);
      if (!byUser) {
        byUser = new WeakMap();
        this.#tagCache.set(base, byUser);
      }
      cache = byUser.get(user);
      if (!cache) {
        cache = new Map();
        byUser.set(user, cache);
      }
      const tlsKey = job.origin.https ? `${job.conn?.tlsVersion}${job.conn?.proto}` : '';
      const exp = expected === undefined ? '' : expected ? '1' : '0';
      key = `${job.method}\u0001${status}\u0001${exp}\u0001${tlsKey}\u0001${job.templateName ?? ''}\u0001${job.url}`;
      const hit = cache.get(key);
      if (hit) return hit;
    }
    const t: Record<string, string> = { ...base };
    t.proto = job.conn?.proto ?? 'HTTP/1.1';
    t.status = String(status);
    t.method = job.method;
    t.url = job.url;
    t.name = job.templateName ?? job.url;
    if (expected !== undefined) t.expected_response = expected ? 'true' : 'false';
    if (job.origin.https && job.conn?.tlsVersion) t.tls_version = job.conn.tlsVersion;
    if (errCode !== 0) t.error_code = String(errCode);
    if (errText !== '') t.error = errText;
    for (const k in user) t[k] = user[k] as string;
    Object.freeze(t);
    if (cache) {
      if (cache.size >= TAGS_CACHE_MAX) cache.clear();
      cache.set(key, t);
    }
    return t;
  }

  /** An interrupted iteration aborts every request in flight. */
  #interrupt = (): void => {
    for (const job of [...this.inflight]) job.abort(2);
  };

  async close(): Promise<void> {
    const all: Promise<void>[] = [];
    for (const o of new Set(this.origins.values())) {
      for (const c of o.all) all.push(c.client.destroy().catch(() => {}));
      o.all.clear();
      o.idle.length = 0;
    }
    this.origins.clear();
    await Promise.all(all);
  }
}

function onTimeout(job: Job): void {
  job.abort(1);
}

/** A Job's reasons to stop early. */
const TIMEOUT = 1;
const INTERRUPTED = 2;

/**
 * One asyncRequest, across its redirect hops: undici's dispatch handler (the legacy callbacks, which undici 7 calls
 * without wrapping), its timings, and the promise it settles.
 */
class Job {
  // request
  method: string;
  url: string;
  path = '/';
  origin!: Origin;
  headers: string[];
  body: string | Buffer | null;
  templateName: string | undefined;
  readonly user: UserTags;
  readonly baseTags: Tags;
  readonly responseType: ResponseType;
  readonly callback: ExpectedStatuses | null;
  redirectsLeft: number;
  readonly throws: boolean;
  readonly jar: CookieJar;
  readonly cookies: RequestCookies | null | undefined;
  /** The Cookie header this hop sends from the jar and params.cookies, '' for none. */
  cookie = '';
  /** params.auth 'digest': the URL's credentials, until the challenge of a first 401 was answered with them. */
  digest: { username: string; password: string } | undefined;
  // state
  conn: Conn | null = null;
  abortFn: ((err?: Error) => void) | null = null;
  reason = 0;
  retried = false;
  done = false;
  timer: NodeJS.Timeout | undefined;
  resolve!: (r: HttpResponse) => void;
  reject!: (e: Error) => void;
  // the current hop
  t0 = 0;
  tConn = Number.NaN;
  tSent = Number.NaN;
  tFirst = Number.NaN;
  fresh: FreshConn | null = null;
  status = 0;
  statusText = '';
  rawHeaders: Buffer[] | null = null;
  chunks: Buffer[] = [];
  received = 0;

  constructor(
    readonly st: HttpVu,
    method: string,
    url: string,
    headers: string[],
    body: string | Buffer | null,
    p: Params,
  ) {
    this.method = method;
    this.url = url;
    this.headers = headers;
    this.body = body;
    this.user = st.userTags(p.tags);
    this.baseTags = st.vu.tags();
    this.responseType = p.responseType ?? st.defaultResponseType;
    this.callback = p.responseCallback === undefined ? st.callback : p.responseCallback;
    this.redirectsLeft = p.redirects ?? st.maxRedirects;
    this.throws = p.throw ?? st.throws;
    this.jar = p.jar instanceof CookieJar ? p.jar : st.jar;
    this.cookies = p.cookies;
  }

  /** Sends the current hop. */
  start(): void {
    this.t0 = performance.now();
    this.tConn = this.tSent = this.tFirst = Number.NaN;
    this.fresh = null;
    this.status = 0;
    this.statusText = '';
    this.rawHeaders = null;
    if (this.chunks.length > 0) this.chunks = [];
    this.received = 0;
    this.abortFn = null;
    this.cookie = cookieHeader(this.jar, this.url, this.cookies);
    const headers = this.cookie ? withCookie(this.headers, this.cookie) : this.headers;
    const conn = this.origin.acquire();
    if (conn instanceof Conn) this.#send(conn, headers);
    else conn.then((c) => this.#send(c, headers));
  }

  #send(conn: Conn, headers: string[]): void {
    if (this.reason !== 0) {
      // Timed out or interrupted while it waited for its origin's first connection.
      this.conn = null;
      this.onError(new Error(this.reason === TIMEOUT ? 'request timeout' : 'request aborted'));
      return;
    }
    this.conn = conn;
    // undici holds back a request that is not idempotent while others run on an h2 connection; k6 multiplexes them all.
    if (conn.proto === 'HTTP/2.0') conn.client.dispatch({ path: this.path, method: this.method, headers, body: this.body, idempotent: true }, this);
    else conn.client.dispatch({ path: this.path, method: this.method, headers, body: this.body }, this);
  }

  /** Stops the request: a timeout (1) or the iteration's interruption (2). */
  abort(reason: number): void {
    if (this.done || this.reason !== 0) return;
    this.reason = reason;
    const err = new Error(reason === TIMEOUT ? 'request timeout' : 'request aborted');
    if (this.abortFn) {
      this.abortFn(err);
      return;
    }
    const c = this.conn;
    if (!c) return;
    // A request queued on the shared h2 connection is ended alone when undici hands it over (onConnect).
    if (c === this.origin.shared) return;
    if (c.connecting) c.connecting.destroy(err);
    else this.origin.drop(c, err);
  }

  // ---- undici's handler ----

  onConnect(abort: (err?: Error) => void): void {
    this.abortFn = abort;
    if (this.reason !== 0) {
      abort(new Error(this.reason === TIMEOUT ? 'request timeout' : 'request aborted'));
      return;
    }
    this.tConn = performance.now();
    const c = this.conn as Conn;
    this.fresh = c.fresh;
    c.fresh = null;
  }

  onRequestSent(): void {
    this.tSent = performance.now();
  }

  onBodySent(): void {}

  onResponseStarted(): void {
    this.tFirst = performance.now();
  }

  onHeaders(status: number, raw: Buffer[], _resume: () => void, statusText: string): boolean {
    if (status < 200) return true;
    if (Number.isNaN(this.tFirst)) this.tFirst = performance.now();
    this.status = status;
    this.statusText = statusText;
    this.rawHeaders = raw;
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.received += chunk.length;
    if (this.responseType !== 'none') this.chunks.push(chunk);
    return true;
  }

  onUpgrade(): void {
    throw new Error('k6/http: unexpected protocol upgrade');
  }

  onComplete(): void {
    const end = performance.now();
    const conn = this.conn as Conn;
    const [sent, recv] = this.#bytes(conn);
    this.abortFn = null;
    this.origin.release(conn);
    if (this.done) return;
    const timings = this.#timings(end);
    const status = this.status;
    // The first answer of a digest request is expected to be its 401 (k6 expects it so, then the callback).
    const expected = this.callback === null ? undefined : this.digest !== undefined ? status === 401 : this.callback.has(status);
    const errCode = status >= 400 && status < 600 ? 1000 + status : 0;
    const tags = this.st.tags(this, status, expected, errCode, '');
    emitRequest(this.st.sink, tags, timings, expected, sent, recv);
    storeCookies(this.jar, this.rawHeaders, this.url);
    if (this.digest !== undefined && this.#answerDigest(status)) return;

    const location = REDIRECT_STATUSES.has(status) ? headerValue(this.rawHeaders, 'location') : undefined;
    if (location !== undefined && this.redirectsLeft > 0 && this.reason === 0) {
      if (this.#follow(location)) return;
    } else if (location !== undefined && this.redirectsLeft <= 0 && this.reason === 0) {
      this.st.vu.warn(`Stopped after the maximum of redirects; the ${status} response of ${this.url} is returned`);
    }
    // h2 has no reason phrase; Go's client gives the status's text, as HTTP/1.1 servers do.
    const statusText = this.statusText || (conn.proto === 'HTTP/2.0' ? (STATUS_CODES[status] ?? '') : '');
    const res = new HttpResponse(
      status,
      `${status} ${statusText}`,
      this.url,
      this.#body(),
      timings,
      '',
      errCode,
      this.origin.https ? conn.tlsVersion : '',
      conn.remoteIp,
      conn.remotePort,
      this.rawHeaders,
      this.#requestInfo(),
    );
    if (conn.proto !== 'HTTP/1.1') res.proto = conn.proto;
    this.#finish(res);
  }

  onError(err: Error & { code?: string }): void {
    const end = performance.now();
    const conn = this.conn;
    let sent = 0;
    let recv = 0;
    if (conn) {
      [sent, recv] = this.#bytes(conn);
      this.origin.release(conn);
    }
    this.abortFn = null;
    if (this.done) return;
    if (this.reason === INTERRUPTED) {
      this.#fail(new Error(`k6/http: ${this.method} ${this.url} aborted: the iteration was interrupted`));
      return;
    }
    // A kept-alive connection the server closed just as it was reused: sent again once on a new one, as Go does for
    // requests that can be replayed.
    const code = err.code ?? '';
    if (
      this.reason === 0 &&
      !this.retried &&
      conn &&
      this.fresh === null &&
      !Number.isNaN(this.tConn) &&
      Number.isNaN(this.tFirst) &&
      SAFE_METHODS.has(this.method) &&
      (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE')
    ) {
      this.retried = true;
      const t0 = this.t0;
      this.start();
      this.t0 = t0;
      return;
    }
    const [errCode, text] = classify(err, this.origin, this.reason === TIMEOUT);
    const timings = this.#timings(end);
    const expected = this.callback === null ? undefined : this.callback.has(0);
    const tags = this.st.tags(this, 0, expected, errCode, text);
    emitRequest(this.st.sink, tags, timings, expected, sent, recv);
    if (this.throws) {
      this.#fail(new Error(text));
      return;
    }
    this.st.vu.warn(`Request Failed error="${goMethod(this.method)} \\"${this.url}\\": ${text}"`);
    this.#finish(new HttpResponse(0, '', this.url, null, timings, text, errCode, '', '', 0, null, this.#requestInfo()));
  }

  // ---- helpers ----

  #bytes(c: Conn): [number, number] {
    const s = c.socket;
    if (!s) return [0, 0];
    const w = s.bytesWritten;
    const r = s.bytesRead;
    const out: [number, number] = [w - c.lastWritten, r - c.lastRead];
    c.lastWritten = w;
    c.lastRead = r;
    return out;
  }

  #timings(end: number): Timings {
    const f = this.fresh;
    const tConn = Number.isNaN(this.tConn) ? end : this.tConn;
    let connecting = 0;
    let tlsTime = 0;
    if (f) {
      const from = Number.isNaN(f.lookup) ? f.start : f.lookup;
      connecting = Math.max(0, f.tcp - from);
      if (!Number.isNaN(f.tls)) tlsTime = Math.max(0, f.tls - f.tcp);
    }
    const blocked = Math.max(0, tConn - this.t0 - connecting - tlsTime);
    const tSent = Number.isNaN(this.tSent) ? tConn : this.tSent;
    const tFirst = Number.isNaN(this.tFirst) ? end : this.tFirst;
    const t: Timings = {
      blocked,
      connecting,
      tls_handshaking: tlsTime,
      sending: Math.max(0, tSent - tConn),
      waiting: Math.max(0, tFirst - tSent),
      receiving: Math.max(0, end - tFirst),
      duration: 0,
    };
    t.duration = durationOf(t);
    return t;
  }

  #body(): string | ArrayBuffer | null {
    if (this.responseType === 'none') return null;
    const chunks = this.chunks;
    if (this.responseType === 'binary') {
      const out = new ArrayBuffer(this.received);
      const view = new Uint8Array(out);
      let at = 0;
      for (const c of chunks) {
        view.set(c, at);
        at += c.length;
      }
      return out;
    }
    if (chunks.length === 0) return '';
    if (chunks.length === 1) return (chunks[0] as Buffer).toString('utf8');
    return Buffer.concat(chunks, this.received).toString('utf8');
  }

  #requestInfo(): RequestInfo {
    return { method: this.method, url: this.url, headers: this.cookie ? withCookie(this.headers, this.cookie) : this.headers, body: this.body };
  }

  /**
   * The first answer of a digest request: a 401 whose WWW-Authenticate offers Digest is sent again, same URL and body,
   * with its Authorization; false when this answer is the response (not a 401, no Digest challenge, stopped).
   */
  #answerDigest(status: number): boolean {
    const d = this.digest as { username: string; password: string };
    this.digest = undefined;
    if (status !== 401 || this.reason !== 0) return false;
    const challenge = parseDigestChallenge(headerValues(this.rawHeaders, 'www-authenticate'));
    const authorization = challenge && digestAuthorization(challenge, { method: this.method, uri: this.path, body: this.body, ...d });
    if (authorization === undefined) return false;
    this.headers = [...dropHeaders(this.headers, AUTHORIZATION), 'Authorization', authorization];
    this.start();
    return true;
  }

  /** Moves to the redirect target; false when it cannot be followed (then this response is the answer). */
  #follow(location: string): boolean {
    let next: URL;
    try {
      next = new URL(location, this.url);
    } catch {
      return false;
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return false;
    const sameOrigin = next.origin === this.origin.origin;
    // 301/302/303 turn a POST (any method but GET/HEAD for 303) into a body-less GET, as Go's client does.
    const status = this.status;
    if ((status === 303 && this.method !== 'HEAD') || ((status === 301 || status === 302) && this.method === 'POST')) {
      this.method = status === 303 && this.method === 'HEAD' ? 'HEAD' : 'GET';
      if (this.body !== null) {
        this.body = null;
        this.headers = dropHeaders(this.headers, BODY_HEADERS);
      }
    }
    if (!sameOrigin) this.headers = dropHeaders(this.headers, SENSITIVE_HEADERS);
    this.redirectsLeft--;
    this.templateName = undefined;
    this.url = next.href;
    const split = splitUrl(this.url);
    this.origin = this.st.origin(this.url, split.originEnd);
    this.path = split.path;
    this.start();
    return true;
  }

  #finish(r: HttpResponse): void {
    this.done = true;
    clearTimeout(this.timer);
    this.st.inflight.delete(this);
    this.resolve(r);
  }

  #fail(e: Error): void {
    this.done = true;
    clearTimeout(this.timer);
    this.st.inflight.delete(this);
    this.reject(e);
  }
}

const BODY_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'transfer-encoding']);

/** A flat header array with `cookie` joined to the script's own Cookie header, if it set one (one Cookie header, RFC 6265). */
function withCookie(headers: readonly string[], cookie: string): string[] {
  for (let i = 0; i < headers.length; i += 2)
    if ((headers[i] as string).toLowerCase() === 'cookie') {
      const out = [...headers];
      out[i + 1] = `${headers[i + 1]}; ${cookie}`;
      return out;
    }
  return [...headers, 'Cookie', cookie];
}

/** Every Set-Cookie of a response into the jar, for the URL that answered (each redirect hop's too). */
function storeCookies(jar: CookieJar, raw: readonly Buffer[] | null, url: string): void {
  if (!raw) return;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as Buffer;
    if (name.length === 10 && name.toString('latin1').toLowerCase() === 'set-cookie') jar.store((raw[i + 1] as Buffer).toString('utf8'), url);
  }
}
const SENSITIVE_HEADERS: ReadonlySet<string> = new Set(['authorization', 'www-authenticate', 'cookie', 'cookie2']);

function dropHeaders(h: readonly string[], drop: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < h.length; i += 2) if (!drop.has((h[i] as string).toLowerCase())) out.push(h[i] as string, h[i + 1] as string);
  return out;
}

/** Every value of a response header, in order. */
function headerValues(raw: readonly Buffer[] | null, lowerName: string): string[] {
  const out: string[] = [];
  for (let i = 0; raw && i + 1 < raw.length; i += 2) {
    const n = raw[i] as Buffer;
    if (n.length === lowerName.length && n.toString('latin1').toLowerCase() === lowerName) out.push((raw[i + 1] as Buffer).toString('utf8'));
  }
  return out;
}

const AUTHORIZATION: ReadonlySet<string> = new Set(['authorization']);

function headerValue(raw: readonly Buffer[] | null, lowerName: string): string | undefined {
  if (!raw) return undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const n = raw[i] as Buffer;
    if (n.length === lowerName.length && n.toString('latin1').toLowerCase() === lowerName) return (raw[i + 1] as Buffer).toString('utf8');
  }
  return undefined;
}

function emitRequest(s: SampleSink, tags: Tags, t: Timings, expected: boolean | undefined, sent: number, recv: number): void {
  const now = Date.now();
  s.emit('http_reqs', 1, tags, now);
  s.emit('http_req_duration', t.duration, tags, now);
  s.emit('http_req_blocked', t.blocked, tags, now);
  s.emit('http_req_connecting', t.connecting, tags, now);
  s.emit('http_req_tls_handshaking', t.tls_handshaking, tags, now);
  s.emit('http_req_sending', t.sending, tags, now);
  s.emit('http_req_waiting', t.waiting, tags, now);
  s.emit('http_req_receiving', t.receiving, tags, now);
  if (expected !== undefined) s.emit('http_req_failed', expected ? 0 : 1, tags, now);
  s.emit('data_sent', sent, tags, now);
  s.emit('data_received', recv, tags, now);
}

/** Where a URL's origin ends and its path (with the query, without the fragment) starts. */
function splitUrl(url: string): { originEnd: number; path: string } {
  const scheme = url.indexOf('://');
  if (scheme <= 0) throw new TypeError(`invalid URL "${url}"`);
  let i = scheme + 3;
  const n = url.length;
  for (; i < n; i++) {
    const ch = url.charCodeAt(i);
    if (ch === 47 /* / */ || ch === 63 /* ? */ || ch === 35 /* # */) break;
    if (ch === 64 /* @ */ || ch === 92 /* \ */) throw new TypeError('needs normalizing');
  }
  const originEnd = i;
  if (originEnd === scheme + 3) throw new TypeError(`invalid URL "${url}": no host`);
  const hash = url.indexOf('#', i);
  let path = hash < 0 ? url.slice(i) : url.slice(i, hash);
  if (path === '') path = '/';
  else if (path.charCodeAt(0) === 63) path = `/${path}`;
  if (NEEDS_NORMALIZING.test(path)) throw new TypeError('needs normalizing');
  return { originEnd, path };
}

function formEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(FORM_UNSAFE, (c) => `%${(c.charCodeAt(0) as number).toString(16).toUpperCase()}`)
    .replace(SPACE, '+');
}

function toBuffer(d: string | ArrayBuffer | ArrayBufferView): Buffer {
  if (typeof d === 'string') return Buffer.from(d, 'utf8');
  if (d instanceof ArrayBuffer) return Buffer.from(d);
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

/** An object body: form-urlencoded (keys sorted, as Go's url.Values encodes; an array repeats its key), or multipart when it holds a file. */
function objectBody(o: Record<string, unknown>): { body: Buffer | string; multipart?: string } {
  const keys = Object.keys(o).sort();
  if (keys.some((k) => o[k] instanceof FileData)) {
    const boundary = randomBytes(16).toString('hex');
    const parts: Buffer[] = [];
    for (const k of keys) {
      const v = o[k];
      if (v instanceof FileData) {
        parts.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${v.filename ?? k}"\r\nContent-Type: ${v.content_type}\r\n\r\n`),
          toBuffer(v.data),
          Buffer.from('\r\n'),
        );
      } else {
        parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${String(v)}\r\n`));
      }
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return { body: Buffer.concat(parts), multipart: `multipart/form-data; boundary=${boundary}` };
  }
  let out = '';
  for (const k of keys) {
    const v = o[k];
    if (v === undefined) continue;
    // An array value repeats its key, once per element, in order (`t=a&t=b`), as k6 adds each element to url.Values.
    for (const x of Array.isArray(v) ? v : [v]) {
      if (out) out += '&';
      out += `${formEncode(k)}=${formEncode(String(x))}`;
    }
  }
  return { body: out };
}

// ---------------------------------------------------------------------------------------------------------------
// The module

/** One request of `http.batch()`, in any of k6's forms: a URL, `[method, url, body?, params?]` or `{ method, url, body?, params? }`. */
type BatchRequest = string | HttpURL | readonly unknown[] | { method?: string; url: string | HttpURL; body?: unknown; params?: Params | null };

/** A batch request as the arguments of `asyncRequest`; k6 docs, /javascript-api/k6-http/batch/. */
function batchArgs(r: BatchRequest): [string, string | HttpURL, unknown, Params | null | undefined] {
  if (typeof r === 'string' || r instanceof HttpURL) return ['GET', r, null, undefined];
  if (Array.isArray(r)) return [String(r[0] ?? 'GET'), r[1] as string | HttpURL, r[2], r[3] as Params | null | undefined];
  const o = r as { method?: string; url: string | HttpURL; body?: unknown; params?: Params | null };
  return [o.method ?? 'GET', o.url, o.body, o.params];
}

/** A positive whole number from an option, else the default. */
const limitOf = (v: unknown, fallback: number): number => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : fallback);

/** `k6/http` for one VU. */
export const httpModule: ModuleFactory = (vu) => {
  const st = new HttpVu(vu);

  function asyncRequest(method: string, url: string | HttpURL, body?: unknown, params?: Params | null): Promise<HttpResponse> {
    const p = params ?? NO_PARAMS;
    let urlText: string;
    let templateName: string | undefined;
    if (url instanceof HttpURL) {
      urlText = url.url;
      templateName = url.name;
    } else urlText = String(url);
    if (p.responseCallback !== undefined && p.responseCallback !== null && !(p.responseCallback instanceof ExpectedStatuses)) {
      throw new Error('k6/http: params.responseCallback must be http.expectedStatuses(…) or null');
    }
    if (vu.interrupted) return Promise.reject(new Error(`k6/http: ${method} ${urlText} not sent: the iteration was interrupted`));

    // The body, and the headers array that fits it.
    const hs = st.headerSet(p.headers);
    let headers = hs.plain;
    let b: string | Buffer | null = null;
    if (body === undefined || body === null) b = null;
    else if (typeof body === 'string') b = body;
    else if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) b = toBuffer(body);
    else if (typeof body === 'object') {
      const ob = objectBody(body as Record<string, unknown>);
      b = ob.body;
      if (ob.multipart) headers = [...dropHeaders(hs.plain, BODY_HEADERS), 'Content-Type', ob.multipart];
      else headers = hs.form;
    } else b = String(body);

    const job = new Job(st, method, urlText, headers, b, p);
    job.templateName = templateName;
    const promise = new Promise<HttpResponse>((resolve, reject) => {
      job.resolve = resolve;
      job.reject = reject;
    });
    vu.track(promise);
    try {
      let split: { originEnd: number; path: string };
      try {
        split = splitUrl(urlText);
      } catch {
        // Credentials, backslashes, spaces or non-ASCII: let WHATWG URL normalize it first.
        const u = new URL(urlText);
        if (u.username || u.password) {
          const username = decodeURIComponent(u.username);
          const password = decodeURIComponent(u.password);
          // params.auth 'digest': the credentials answer the server's challenge (digest-auth.ts), never sent as Basic.
          if (p.auth === 'digest') job.digest = { username, password };
          else job.headers = [...job.headers, 'Authorization', `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`];
          u.username = '';
          u.password = '';
        }
        u.hash = '';
        job.url = u.href;
        split = splitUrl(job.url);
      }
      job.origin = st.origin(job.url, split.originEnd);
      job.path = split.path;
    } catch (err) {
      const text = `invalid URL "${urlText}": ${(err as Error).message}`;
      if (job.throws) job.reject(new Error(text));
      else {
        vu.warn(`Request Failed error="${text}"`);
        const zero: Timings = { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: 0, receiving: 0, duration: 0 };
        job.resolve(new HttpResponse(0, '', urlText, null, zero, text, 1020, '', '', 0, null, { method, url: urlText, headers, body: b }));
      }
      return promise;
    }
    const timeout = parseTimeout(p.timeout);
    st.inflight.add(job);
    job.timer = setTimeout(onTimeout, timeout, job);
    job.start();
    return promise;
  }

  function expectedStatuses(...args: unknown[]): ExpectedStatuses {
    return new ExpectedStatuses(args);
  }

  function setResponseCallback(cb: unknown): void {
    if (cb !== null && !(cb instanceof ExpectedStatuses)) throw new Error('k6/http: setResponseCallback() takes http.expectedStatuses(…) or null');
    st.callback = cb;
  }

  function url(strings: TemplateStringsArray, ...args: unknown[]): HttpURL {
    let u = strings[0] ?? '';
    for (let i = 0; i < args.length; i++) u += String(args[i]) + (strings[i + 1] ?? '');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: k6 names a template's placeholders `${}` in the name tag.
    return new HttpURL(u, strings.join('${}'));
  }

  function file(data: string | ArrayBuffer | ArrayBufferView, filename?: string, contentType = 'application/octet-stream'): FileData {
    return new FileData(data, filename, contentType);
  }

  /**
   * k6 docs, /javascript-api/k6-http/batch/: "Batch multiple HTTP requests together to issue them in parallel over
   * multiple TCP connections." At most `batch` at once in this call (default 20), and `batchPerHost` to one host
   * (default 6; /using-k6/k6-options/reference/#batch-per-host); the answers in the requests' order, or by their keys.
   */
  async function batch(requests: readonly BatchRequest[] | Record<string, BatchRequest>): Promise<HttpResponse[] | Record<string, HttpResponse>> {
    const keyed = !Array.isArray(requests);
    const entries: [string, BatchRequest][] = keyed
      ? Object.entries(requests as Record<string, BatchRequest>)
      : (requests as BatchRequest[]).map((r, i) => [String(i), r]);
    const most = limitOf(vu.options.batch, 20);
    const perHost = Math.min(most, limitOf(vu.options.batchPerHost, 6));
    const out: HttpResponse[] = new Array(entries.length);
    const hosts = new Map<string, number>();
    const hostOf = (u: string | HttpURL) => {
      try {
        return new URL(u instanceof HttpURL ? u.url : String(u)).host;
      } catch {
        return '';
      }
    };
    const waiting = entries.map(([, r], i) => {
      const args = batchArgs(r);
      return { i, args, host: hostOf(args[1]) };
    });
    let running = 0;
    await new Promise<void>((resolve, reject) => {
      // Starts what the two limits allow; called again as each request ends.
      const startMore = () => {
        if (waiting.length === 0 && running === 0) return resolve();
        for (let k = 0; k < waiting.length && running < most; k++) {
          const w = waiting[k] as (typeof waiting)[number];
          if ((hosts.get(w.host) ?? 0) >= perHost) continue;
          waiting.splice(k--, 1);
          running++;
          hosts.set(w.host, (hosts.get(w.host) ?? 0) + 1);
          // A request refused before it is sent (a bad responseCallback) rejects the batch, as it would throw in k6.
          new Promise<HttpResponse>((r) => r(asyncRequest(...w.args))).then((res) => {
            out[w.i] = res;
            running--;
            hosts.set(w.host, (hosts.get(w.host) ?? 1) - 1);
            startMore();
          }, reject);
        }
      };
      startMore();
    });
    if (!keyed) return out;
    return Object.fromEntries(entries.map(([k], i) => [k, out[i] as HttpResponse]));
  }

  // The classic calls (/javascript-api/k6-http/get/ and its siblings) return the Response in k6, where they block the
  // VU; here they return its promise, which the script's rewrite (src/engine/blocking.ts) awaits.
  const exports: Record<string, unknown> = {
    asyncRequest,
    request: (method: string, url: string | HttpURL, body?: unknown, params?: Params | null) => asyncRequest(method, url, body, params),
    get: (url: string | HttpURL, params?: Params | null) => asyncRequest('GET', url, null, params),
    head: (url: string | HttpURL, params?: Params | null) => asyncRequest('HEAD', url, null, params),
    post: (url: string | HttpURL, body?: unknown, params?: Params | null) => asyncRequest('POST', url, body, params),
    put: (url: string | HttpURL, body?: unknown, params?: Params | null) => asyncRequest('PUT', url, body, params),
    patch: (url: string | HttpURL, body?: unknown, params?: Params | null) => asyncRequest('PATCH', url, body, params),
    del: (url: string | HttpURL, body?: unknown, params?: Params | null) => asyncRequest('DELETE', url, body, params),
    options: (url: string | HttpURL, body?: unknown, params?: Params | null) => asyncRequest('OPTIONS', url, body, params),
    batch,
    cookieJar: () => st.jar,
    CookieJar,
    expectedStatuses,
    setResponseCallback,
    url,
    file,
    TLS_1_0: 'tls1.0',
    TLS_1_1: 'tls1.1',
    TLS_1_2: 'tls1.2',
    TLS_1_3: 'tls1.3',
    SSL_3_0: 'ssl3.0',
    OCSP_STATUS_GOOD: 'good',
    OCSP_STATUS_REVOKED: 'revoked',
    OCSP_STATUS_SERVER_FAILED: 'server_failed',
    OCSP_STATUS_UNKNOWN: 'unknown',
  };
  exports.default = exports;
  return exports;
};

export default httpModule;
