// The corpus's gRPC server, in a process of its own (tests/k6-grpc.test.ts spawns it, with tsx): the Echo service of
// protos/echo.proto on 127.0.0.1, plaintext on one port and TLS on another (key and certificate from the files named by
// GRPC_TLS_KEY and GRPC_TLS_CERT), with server reflection on the plaintext one. It prints
// `{"plaintext":PORT,"tls":PORT}` once listening, then answers each line
// read on stdin with a JSON line of what it saw, by the `x-run` metadata each call carries (so concurrent runs share it).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HEALTH_PROTO } from '../../src/engine/modules/grpc/health.ts';

const def = protoLoader.loadSync(join(import.meta.dirname, 'protos', 'echo.proto'), { keepCase: false, longs: String, defaults: true });
const echo = grpc.loadPackageDefinition(def).dialtone.corpus.Echo;
// The gRPC Health Checking protocol's Check, as the engine's k6/net/grpc reads it (src/engine/modules/grpc/health.ts):
// the server's overall health and the Echo service's are SERVING; another service name is NOT_FOUND, as the protocol says.
const health = protoLoader.fromJSON(HEALTH_PROTO, { enums: String });
const healthService = grpc.loadPackageDefinition(health).grpc.health.v1.Health.service;
const healthImpl = {
  // healthCheck takes no metadata: its answer, SERVING, is what the script's checks judge.
  Check(call, callback) {
    const known = ['', 'dialtone.corpus.Echo'].includes(call.request.service);
    if (known) callback(null, { status: 'SERVING' });
    else callback({ code: grpc.status.NOT_FOUND, details: `unknown service ${call.request.service}` });
  },
};

/** What each run made the server see. */
const seen = new Map();
function of(call) {
  const run = String(call.metadata.get('x-run')[0] ?? 'none');
  let s = seen.get(run);
  if (!s) {
    s = { say: 0, fail: 0, hang: 0, chats: 0, chatIn: 0, chatOut: 0, counts: 0, countOut: 0, tokens: [], bigNumbers: [], agents: [] };
    seen.set(run, s);
  }
  return s;
}

const service = {
  Say(call, callback) {
    const s = of(call);
    s.say++;
    s.tokens.push(String(call.metadata.get('authorization')[0] ?? ''));
    s.bigNumbers.push(call.request.bigNumber);
    s.agents.push(String(call.metadata.get('user-agent')[0] ?? ''));
    const headers = new grpc.Metadata();
    headers.set('x-echo', call.request.text);
    call.sendMetadata(headers);
    const trailers = new grpc.Metadata();
    trailers.set('x-served-by', 'dialtone-corpus');
    callback(null, { text: `hello ${call.request.text}`, seq: s.say, bigNumber: call.request.bigNumber }, trailers);
  },
  Fail(call, callback) {
    of(call).fail++;
    callback({ code: grpc.status.NOT_FOUND, details: `no ${call.request.text} here` });
  },
  // Never answers: the call ends by the client's deadline (or cancellation).
  Hang(call) {
    of(call).hang++;
  },
  Chat(call) {
    const s = of(call);
    s.chats++;
    let seq = 0;
    call.on('data', (m) => {
      s.chatIn++;
      s.chatOut++;
      call.write({ text: m.text.toUpperCase(), seq: ++seq });
    });
    call.on('end', () => call.end());
  },
  Count(call) {
    const s = of(call);
    s.counts++;
    for (let i = 1; i <= call.request.n; i++) {
      s.countOut++;
      call.write({ text: `count ${i}`, seq: i });
    }
    call.end();
  },
};

// The server reflection protocol (@grpc/reflection, v1 and v1alpha) on the plaintext server, for connect's reflect.
const reflection = new ReflectionService(def);
const plain = new grpc.Server();
plain.addService(echo.service, service);
plain.addService(healthService, healthImpl);
reflection.addToServer(plain);
const secure = new grpc.Server();
secure.addService(echo.service, service);
secure.addService(healthService, healthImpl);
const bind = (server, creds) => new Promise((ok, fail) => server.bindAsync('127.0.0.1:0', creds, (err, port) => (err ? fail(err) : ok(port))));
const tls = grpc.ServerCredentials.createSsl(null, [
  { private_key: readFileSync(process.env.GRPC_TLS_KEY), cert_chain: readFileSync(process.env.GRPC_TLS_CERT) },
]);
const ports = { plaintext: await bind(plain, grpc.ServerCredentials.createInsecure()), tls: await bind(secure, tls) };
process.stdout.write(`${JSON.stringify(ports)}\n`);

createInterface({ input: process.stdin }).on('line', () => process.stdout.write(`${JSON.stringify(Object.fromEntries(seen))}\n`));
process.stdin.on('end', () => {
  plain.forceShutdown();
  secure.forceShutdown();
});
