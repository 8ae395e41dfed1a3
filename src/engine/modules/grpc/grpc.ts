// k6/net/grpc for the built-in engine (/javascript-api/k6-net-grpc/), on @grpc/grpc-js and @grpc/proto-loader:
// `Client` (load, loadProtoset, connect, invoke, asyncInvoke, close), `Stream` (on, write, end) and the `Status…`
// constants. `connect` and `invoke` block the VU in k6; here they return promises the blocking rewrite awaits
// (src/engine/blocking.ts, BLOCKING_METHODS).
//
// Metrics (/using-k6/metrics/reference/, gRPC): grpc_req_duration (a unary call from start to its status; a stream
// from its start to its end), grpc_streams (one per stream started), grpc_streams_msgs_sent and
// grpc_streams_msgs_received (one per message). Samples carry the VU's tags, `name` and `method` (the method's path),
// `status` (the gRPC code, "0" for OK) and the call's `tags`.

import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createSecureContext } from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { durationMs } from '../../../core/duration.js';
import type { Tags, VuHost } from '../../types.js';
import { DEFAULT_USER_AGENT } from '../http/http.js';
import { secureContextOf } from '../http/tls-context.js';
import { HEALTH_CHECK_PATH, HEALTH_PROTO } from './health.js';
import { GRPC_METRICS } from './metrics.js';
import { reflectedDefinitions } from './reflection.js';

/** /javascript-api/k6-net-grpc/constants/: the gRPC status codes, by k6's names. */
export const STATUS: Readonly<Record<string, number>> = {
  StatusOK: 0,
  StatusCanceled: 1,
  StatusUnknown: 2,
  StatusInvalidArgument: 3,
  StatusDeadlineExceeded: 4,
  StatusNotFound: 5,
  StatusAlreadyExists: 6,
  StatusPermissionDenied: 7,
  StatusResourceExhausted: 8,
  StatusFailedPrecondition: 9,
  StatusAborted: 10,
  StatusOutOfRange: 11,
  StatusUnimplemented: 12,
  StatusInternal: 13,
  StatusUnavailable: 14,
  StatusDataLoss: 15,
  StatusUnauthenticated: 16,
};

/** Client.healthCheck's response statuses (the gRPC Health Checking protocol's ServingStatus, by name). */
const HEALTH_STATUS: Readonly<Record<string, string>> = {
  HealthCheckServing: 'SERVING',
  HealthCheckNotServing: 'NOT_SERVING',
  HealthCheckUnknown: 'UNKNOWN',
  // k6's spelling.
  HealthCheckServiceUnkown: 'SERVICE_UNKNOWN',
};

/** "Default timeout is 60 seconds" (Params.timeout, ConnectParams.timeout). */
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The Protobuf JSON mapping k6 speaks (/using-k6/protocols/grpc/): lowerCamelCase field names, 64-bit integers and
 * bytes as strings, enums by name, unset fields with their defaults.
 */
const LOADER_OPTIONS: protoLoader.Options = { keepCase: false, longs: String, enums: String, bytes: String, defaults: true, oneofs: true };

type Method = protoLoader.MethodDefinition<object, object>;
type Methods = ReadonlyMap<string, Method>;

let healthCheckMethod: Method | undefined;
const healthCheckOf = (): Method => {
  healthCheckMethod ??= methodsOf(protoLoader.fromJSON(HEALTH_PROTO, LOADER_OPTIONS)).get(HEALTH_CHECK_PATH) as Method;
  return healthCheckMethod;
};

/** Loaded definitions, by what was loaded: every VU's init context loads the same files, parsed once per thread. */
const loaded = new Map<string, Methods>();

/** The methods of a package definition, by their path (`/package.Service/Method`). */
function methodsOf(def: protoLoader.PackageDefinition): Methods {
  const out = new Map<string, Method>();
  for (const entry of Object.values(def)) {
    if ('format' in entry || 'type' in entry) continue;
    for (const m of Object.values(entry as protoLoader.ServiceDefinition)) out.set(m.path, m as Method);
  }
  return out;
}

function loadOnce(key: string, make: () => protoLoader.PackageDefinition): Methods {
  let m = loaded.get(key);
  if (!m) {
    m = methodsOf(make());
    loaded.set(key, m);
  }
  return m;
}

/** Client.invoke's "The leading slash / is optional." */
const pathOf = (url: unknown): string => {
  if (typeof url !== 'string' || url === '') throw new Error('k6/net/grpc: the method URL must be a non-empty string (/package.Service/Method)');
  return url.startsWith('/') ? url : `/${url}`;
};

function timeoutOf(v: unknown, what: string): number {
  if (v === undefined || v === null) return DEFAULT_TIMEOUT_MS;
  const ms = durationMs(v);
  if (ms === undefined || ms < 0) throw new Error(`k6/net/grpc: ${what} '${String(v)}' is not a duration (e.g. "10s", or a number of ms)`);
  return ms;
}

/** Params.metadata: "Values of keys ending with -bin will be treated as binary data." */
function metadataOf(v: unknown): grpc.Metadata {
  const md = new grpc.Metadata();
  if (v === undefined || v === null) return md;
  if (typeof v !== 'object') throw new Error('k6/net/grpc: metadata must be an object of key-value pairs');
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    if (k.endsWith('-bin')) {
      const bytes =
        typeof value === 'string'
          ? Buffer.from(value)
          : value instanceof ArrayBuffer
            ? Buffer.from(value)
            : ArrayBuffer.isView(value)
              ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
              : undefined;
      if (!bytes) throw new Error(`k6/net/grpc: metadata '${k}' must be a string, an ArrayBuffer or a typed array`);
      md.set(k, bytes);
    } else {
      if (typeof value !== 'string') throw new Error(`k6/net/grpc: metadata '${k}' must be a string`);
      md.set(k, value);
    }
  }
  return md;
}

/** Metadata as k6 gives it: each key with the list of its values. */
function metadataObject(md: grpc.Metadata | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!md) return out;
  for (const [k, values] of Object.entries(md.toJSON())) out[k] = values.map((x) => (typeof x === 'string' ? x : x.toString()));
  return out;
}

/** The call options k6's Params takes; anything else is an error, as in k6. */
interface CallParams {
  readonly metadata: grpc.Metadata;
  readonly tags: Record<string, string>;
  readonly timeoutMs: number;
  readonly discard: boolean;
  readonly authority?: string;
}

const PARAM_KEYS = new Set(['metadata', 'tags', 'timeout', 'discardResponseMessage', 'authority']);

function callParamsOf(p: unknown): CallParams {
  if (p !== undefined && p !== null && typeof p !== 'object') throw new Error('k6/net/grpc: params must be an object');
  const o = (p ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!PARAM_KEYS.has(k)) throw new Error(`k6/net/grpc: unknown param '${k}' (k6 takes ${[...PARAM_KEYS].join(', ')})`);
  const tags: Record<string, string> = {};
  for (const [k, v] of Object.entries((o.tags ?? {}) as Record<string, unknown>)) tags[k] = String(v);
  return {
    metadata: metadataOf(o.metadata),
    tags,
    timeoutMs: timeoutOf(o.timeout, 'timeout'),
    discard: o.discardResponseMessage === true,
    ...(typeof o.authority === 'string' ? { authority: o.authority } : {}),
  };
}

const CONNECT_KEYS = new Set(['plaintext', 'tls', 'reflect', 'reflectMetadata', 'timeout', 'maxReceiveSize', 'maxSendSize']);

/** Response.error: "If status !== grpc.StatusOK then the error protobuf message, serialized to JSON". */
interface GrpcError {
  readonly code: number;
  readonly message: string;
  readonly details: unknown[];
}

const errorOf = (s: grpc.StatusObject): GrpcError => ({ code: s.code, message: s.details, details: [] });

/** /javascript-api/k6-net-grpc/response/ */
export interface GrpcResponse {
  status: number;
  message: unknown;
  headers: Record<string, string[]>;
  trailers: Record<string, string[]>;
  error: GrpcError | null;
}

/** One client: made through the per-VU class the module exports, which supplies `vu` and the script's folder. */
export class VuGrpcClient {
  #vu: VuHost;
  #base: string;
  #methods = new Map<string, Method>();
  #client: grpc.Client | undefined;
  /** Calls and streams in flight, cancelled when the iteration is interrupted or the client closed. */
  #calls = new Set<grpc.Call>();

  constructor(vu: VuHost, ctx: { readonly scriptPath: string }) {
    this.#vu = vu;
    this.#base = dirname(resolve(ctx.scriptPath || '.'));
    vu.onInterrupt(() => this.#cancelAll());
    vu.onClose(() => this.close());
  }

  /**
   * Client.load: "If no import paths are provided then "." (current directory) is assumed to be the only import path";
   * relative paths are the script's folder's, as open() resolves them.
   */
  load(importPaths: readonly string[] | null | undefined, ...protoFiles: string[]): void {
    if (protoFiles.length === 0) throw new Error('k6/net/grpc: load needs at least one proto file');
    const dirs = (importPaths ?? []).map((p) => resolve(this.#base, p));
    const includeDirs = dirs.length > 0 ? dirs : [this.#base];
    const key = JSON.stringify(['load', includeDirs, protoFiles]);
    const methods = loadOnce(key, () => {
      try {
        return protoLoader.loadSync(protoFiles, { ...LOADER_OPTIONS, includeDirs });
      } catch (e) {
        throw new Error(`k6/net/grpc: cannot load ${protoFiles.join(', ')}: ${(e as Error).message.split('\n')[0]}`);
      }
    });
    for (const [path, m] of methods) this.#methods.set(path, m);
  }

  /** Client.loadProtoset: "Loads and parses the protoset file (serialized FileDescriptor set)". */
  loadProtoset(path: string): void {
    const full = resolve(this.#base, path);
    const methods = loadOnce(JSON.stringify(['protoset', full]), () => {
      try {
        return protoLoader.loadFileDescriptorSetFromBuffer(readFileSync(full), LOADER_OPTIONS);
      } catch (e) {
        throw new Error(`k6/net/grpc: cannot load the protoset ${path}: ${(e as Error).message.split('\n')[0]}`);
      }
    });
    for (const [p, m] of methods) this.#methods.set(p, m);
  }

  /**
   * Client.connect: "Opens a connection to a gRPC server; will block until a connection is made or a connection error
   * is thrown." plaintext: "Defaults to false i.e. secure via TLS."
   */
  connect(address: string, params?: Record<string, unknown> | null): Promise<boolean> {
    const p = params ?? {};
    for (const k of Object.keys(p))
      if (!CONNECT_KEYS.has(k)) throw new Error(`k6/net/grpc: unknown connect param '${k}' (k6 takes ${[...CONNECT_KEYS].join(', ')})`);
    if (typeof address !== 'string' || !/^[^/\s]+:[\w-]+$/.test(address))
      throw new Error(`k6/net/grpc: the address '${String(address)}' must be host:port with no protocol prefix`);
    const timeoutMs = timeoutOf(p.timeout, 'connect timeout');
    // k6 sends the run's userAgent option on gRPC too; grpc-js adds its own name after it.
    const ua = typeof this.#vu.options.userAgent === 'string' ? this.#vu.options.userAgent : DEFAULT_USER_AGENT;
    const options: grpc.ChannelOptions = ua === '' ? {} : { 'grpc.primary_user_agent': ua };
    if (typeof p.maxReceiveSize === 'number' && p.maxReceiveSize > 0) options['grpc.max_receive_message_length'] = p.maxReceiveSize;
    if (typeof p.maxSendSize === 'number' && p.maxSendSize > 0) options['grpc.max_send_message_length'] = p.maxSendSize;
    this.close();
    const client = new grpc.Client(address, this.#credentials(p), options);
    this.#client = client;
    // The failure comes from a callback: its error carries the script's frames from here, so it names the script's line.
    const at: { stack?: string } = {};
    Error.captureStackTrace(at, this.connect);
    // grpc-js names no cause when a connection fails (a refused port, a certificate not trusted): the hint says both.
    const hint = p.plaintext === true ? '' : '; over TLS, a server certificate not trusted fails so too (trust its CA with SSL_CERT_FILE or tls.cacerts)';
    const channel = client.getChannel();
    const deadline = Date.now() + timeoutMs;
    return this.#vu.track(
      new Promise<boolean>((done, fail) => {
        const failWith = (why: string) => {
          if (this.#client === client) this.close();
          const e = new Error(`k6/net/grpc: failed to connect to ${address}: ${why}${hint}`);
          e.stack = `Error: ${e.message}\n${(at.stack ?? '').split('\n').slice(1).join('\n')}`;
          fail(e);
        };
        // reflect: "Whether to use the gRPC server reflection protocol when connecting"; reflectMetadata: the metadata
        // "to add to the reflection request". The services it finds join what load() gave.
        const connected = () => {
          if (p.reflect !== true) return done(true);
          reflectedDefinitions(client, metadataOf(p.reflectMetadata), deadline, LOADER_OPTIONS).then(
            (def) => {
              for (const [path, m] of methodsOf(def)) this.#methods.set(path, m);
              done(true);
            },
            (e: Error) => {
              if (this.#client === client) this.close();
              const err = new Error(`k6/net/grpc: reflection on ${address} failed: ${e.message.split('\n')[0]}`);
              err.stack = `Error: ${err.message}\n${(at.stack ?? '').split('\n').slice(1).join('\n')}`;
              fail(err);
            },
          );
        };
        // "will block until a connection is made or a connection error is thrown": the first failure ends the wait.
        const watch = () => {
          const state = channel.getConnectivityState(true);
          if (state === grpc.connectivityState.READY) return connected();
          if (state === grpc.connectivityState.TRANSIENT_FAILURE) return failWith('the connection failed');
          if (state === grpc.connectivityState.SHUTDOWN) return failWith('the client was closed');
          channel.watchConnectivityState(state, deadline, (err) => (err ? failWith(`no connection within ${timeoutMs} ms`) : watch()));
        };
        watch();
      }),
    );
  }

  /** ConnectParams.tls (cert, key, password, cacerts), else the engine's trust (SSL_CERT_FILE, insecureSkipTLSVerify). */
  #credentials(p: Record<string, unknown>): grpc.ChannelCredentials {
    if (p.plaintext === true) return grpc.credentials.createInsecure();
    const vu = this.#vu;
    const insecure = vu.tls.insecure || vu.options.insecureSkipTLSVerify === true;
    const verify: grpc.VerifyOptions = insecure ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {};
    const tls = p.tls as { cert?: string; key?: string; password?: string; cacerts?: string | string[] } | undefined;
    if (!tls) {
      const ctx = secureContextOf(vu.tls.ca) ?? createSecureContext();
      return grpc.credentials.createFromSecureContext(ctx, verify);
    }
    const ca = tls.cacerts === undefined ? vu.tls.ca : Array.isArray(tls.cacerts) ? tls.cacerts.join('\n') : tls.cacerts;
    const ctx = createSecureContext({
      ...(ca !== undefined ? { ca } : {}),
      ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
      ...(tls.key !== undefined ? { key: tls.key } : {}),
      ...(tls.password !== undefined ? { passphrase: tls.password } : {}),
    });
    return grpc.credentials.createFromSecureContext(ctx, verify);
  }

  /** Client.invoke: "Invokes an unary RPC request to the given method." Awaited by the blocking rewrite. */
  invoke(url: string, request: unknown, params?: unknown): Promise<GrpcResponse> {
    return this.asyncInvoke(url, request, params);
  }

  /** Client.asyncInvoke: "Asynchronously invokes an unary RPC request to the given method." */
  asyncInvoke(url: string, request: unknown, params?: unknown): Promise<GrpcResponse> {
    const path = pathOf(url);
    const { client, method } = this.method(path, 'invoke');
    if (method.requestStream || method.responseStream) throw new Error(`k6/net/grpc: ${path} is a streaming method; use new grpc.Stream(client, '${path}')`);
    return this.#unary(client, path, method, request, params);
  }

  /**
   * Client.healthCheck: "Check the health status of the gRPC service using the gRPC Health Checking protocol"; "If no
   * service name is provided, it checks the overall server health." Awaited by the blocking rewrite, as invoke.
   */
  healthCheck(service?: string): Promise<GrpcResponse> {
    const client = this.#client;
    if (!client) throw new Error('k6/net/grpc: healthCheck needs a connection; call client.connect() first');
    return this.#unary(client, HEALTH_CHECK_PATH, healthCheckOf(), { service: service ?? '' }, undefined);
  }

  #unary(client: grpc.Client, path: string, method: Method, request: unknown, params: unknown): Promise<GrpcResponse> {
    const p = callParamsOf(params);
    const vu = this.#vu;
    const started = performance.now();
    const response: GrpcResponse = { status: 0, message: null, headers: {}, trailers: {}, error: null };
    const serialize = (v: object) => method.requestSerialize(v);
    const answer = new Promise<GrpcResponse>((done) => {
      const call = client.makeUnaryRequest(
        path,
        serialize,
        (b: Buffer) => method.responseDeserialize(b),
        (request ?? {}) as object,
        p.metadata,
        { deadline: Date.now() + p.timeoutMs, ...(p.authority ? { host: p.authority } : {}) },
        (err, value) => {
          if (!err && !p.discard) response.message = value ?? null;
        },
      );
      this.#calls.add(call);
      call.on('metadata', (md: grpc.Metadata) => {
        response.headers = metadataObject(md);
      });
      call.on('status', (s: grpc.StatusObject) => {
        this.#calls.delete(call);
        response.status = s.code;
        response.trailers = metadataObject(s.metadata);
        if (s.code !== grpc.status.OK) {
          response.error = errorOf(s);
          response.message = null;
        }
        vu.sink.emit('grpc_req_duration', performance.now() - started, sampleTags(vu, path, s.code, p.tags));
        // grpc-js runs the callback (the message) before it emits the status.
        done(response);
      });
    });
    return vu.track(answer);
  }

  /** Client.close: "Close the connection to the gRPC service." */
  close(): void {
    this.#cancelAll();
    this.#client?.close();
    this.#client = undefined;
  }

  /** The connected client and a loaded method, or the error k6 documents for each. */
  method(path: string, what: string): { client: grpc.Client; method: Method } {
    const method = this.#methods.get(path);
    if (!method)
      throw new Error(`k6/net/grpc: method "${path}" not found in the loaded definitions (call client.load() with its proto file in the init context)`);
    const client = this.#client;
    if (!client) throw new Error(`k6/net/grpc: ${what} needs a connection; call client.connect() first`);
    return { client, method };
  }

  track(call: grpc.Call): () => void {
    this.#calls.add(call);
    return () => this.#calls.delete(call);
  }

  #cancelAll(): void {
    for (const c of this.#calls) c.cancel();
    this.#calls.clear();
  }
}

function sampleTags(vu: VuHost, path: string, code: number, own: Record<string, string>): Tags {
  return { ...vu.tags(), name: path, method: path, status: String(code), ...own };
}

type StreamEvent = 'data' | 'error' | 'end';
const STREAM_EVENTS: ReadonlySet<string> = new Set<StreamEvent>(['data', 'error', 'end']);
type Handler = (data?: unknown, metadata?: { ts: number }) => void;

/**
 * A stream of any kind (client, server or bidirectional): one HTTP/2 stream of messages each way, the same on the
 * wire, so each is a duplex call. It holds the iteration until the server ends it.
 */
export class VuGrpcStream {
  #vu: VuHost;
  #path: string;
  #tags: Record<string, string>;
  #call: grpc.ClientDuplexStream<object, object>;
  #handlers = new Map<StreamEvent, Handler[]>();
  #started = performance.now();
  #ended = false;
  #writable = true;
  #release: () => void;
  #untrack: () => void;
  /** A server-streaming method: one request message, then the client side ends. */
  #oneRequest = false;

  constructor(vu: VuHost, client: unknown, url: string, params?: unknown) {
    if (!(client instanceof VuGrpcClient)) throw new Error('k6/net/grpc: new Stream(client, url) needs a grpc.Client');
    this.#vu = vu;
    const path = pathOf(url);
    this.#path = path;
    const { client: channel, method } = client.method(path, 'new Stream');
    if (!method.requestStream && !method.responseStream) throw new Error(`k6/net/grpc: ${path} is a unary method; use client.invoke()`);
    const p = callParamsOf(params);
    this.#tags = p.tags;
    const call = channel.makeBidiStreamRequest(
      path,
      (v: object) => method.requestSerialize(v),
      (b: Buffer) => method.responseDeserialize(b),
      p.metadata,
      params && (params as { timeout?: unknown }).timeout !== undefined ? { deadline: Date.now() + p.timeoutMs } : {},
    );
    this.#call = call;
    this.#oneRequest = !method.requestStream;
    this.#untrack = client.track(call);
    this.#release = vu.hold();
    vu.sink.emit('grpc_streams', 1, this.#sampleTags());
    call.on('data', (message: object) => {
      vu.sink.emit('grpc_streams_msgs_received', 1, this.#sampleTags());
      this.#dispatch('data', message, { ts: Date.now() });
    });
    // Errors arrive as the status too; reading them here keeps an unhandled 'error' from throwing.
    call.on('error', () => {});
    call.on('status', (s: grpc.StatusObject) => this.#finish(s));
  }

  /** Stream.on: "Set up handler functions for various events on the gRPC stream." */
  on(event: string, handler: Handler): void {
    if (!STREAM_EVENTS.has(event)) throw new Error(`k6/net/grpc: unknown stream event '${event}' (data, error, end)`);
    if (typeof handler !== 'function') throw new Error('k6/net/grpc: Stream.on needs a function');
    const list = this.#handlers.get(event as StreamEvent);
    if (list) list.push(handler);
    else this.#handlers.set(event as StreamEvent, [handler]);
  }

  /** Stream.write: "Writes a message to the stream." */
  write(message: unknown): void {
    if (!this.#writable) throw new Error(`k6/net/grpc: write on ${this.#path} after end() or after the stream ended`);
    this.#call.write((message ?? {}) as object);
    this.#vu.sink.emit('grpc_streams_msgs_sent', 1, this.#sampleTags());
    // A server-streaming method takes exactly one request message: the client side is done once it is written, as k6's
    // server-streaming example expects (it never calls end()), and servers that wait for the half-close need it.
    if (this.#oneRequest) this.end();
  }

  /** Stream.end: "Signals to the server that the client has finished sending messages." */
  end(): void {
    if (!this.#writable) return;
    this.#writable = false;
    this.#call.end();
  }

  #finish(s: grpc.StatusObject): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#writable = false;
    this.#untrack();
    this.#vu.sink.emit('grpc_req_duration', performance.now() - this.#started, { ...this.#sampleTags(), status: String(s.code) });
    // Cancelled by the iteration's interruption: no script code runs after it.
    if (!(s.code === grpc.status.CANCELLED && this.#vu.interrupted)) {
      // 'error': "Emitted when an error occurs. In case of the error, an Error object sends to the handler function."
      if (s.code !== grpc.status.OK) this.#dispatch('error', errorOf(s));
      // 'end': "Emitted when the server closes the incoming stream."
      this.#dispatch('end');
    }
    this.#release();
  }

  #sampleTags(): Tags {
    return { ...this.#vu.tags(), name: this.#path, method: this.#path, ...this.#tags };
  }

  /** Runs the event's handlers; what one throws ends the iteration (`vu.error`), as an uncaught exception does in k6. */
  #dispatch(event: StreamEvent, data?: unknown, metadata?: { ts: number }): void {
    for (const h of this.#handlers.get(event) ?? []) {
      try {
        h.call(this, data, metadata);
      } catch (err) {
        this.#vu.error(err);
      }
    }
  }
}

/** `k6/net/grpc` for one VU. */
export function grpcModule(vu: VuHost, ctx: { readonly scriptPath: string }): Record<string, unknown> {
  for (const m of GRPC_METRICS) vu.sink.declare(m);
  class Client extends VuGrpcClient {
    constructor() {
      super(vu, ctx);
    }
  }
  class Stream extends VuGrpcStream {
    constructor(client: unknown, url: string, params?: unknown) {
      super(vu, client, url, params);
    }
  }
  const exports: Record<string, unknown> = { Client, Stream, ...STATUS, ...HEALTH_STATUS };
  exports.default = exports;
  return exports;
}
