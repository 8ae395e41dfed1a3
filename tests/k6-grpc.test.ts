// The corpus's k6/net/grpc scripts (issue 56) on the built-in engine in this process (src/engine/run/in-process.ts),
// against one gRPC server in a process of its own (k6-corpus/grpc-server.mjs, plaintext and TLS with a certificate
// dialtone makes), judged by exit code, the summary export's metrics and checks, and what the server saw. Each test
// quotes the k6 documentation sentence it follows. Nothing here judges time.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runArgv } from '../src/engine/run/in-process.js';
import { makeTlsMaterial } from '../src/reference-target/tls.js';

const CORPUS = join(import.meta.dirname, 'k6-corpus');

interface Seen {
  say: number;
  fail: number;
  hang: number;
  chats: number;
  chatIn: number;
  chatOut: number;
  counts: number;
  countOut: number;
  tokens: string[];
  bigNumbers: string[];
  agents: string[];
}

let server: ChildProcess;
let lines: Interface;
let ports: { plaintext: number; tls: number };
let caFile: string;

/** The server's next line on stdout. */
const nextLine = () => new Promise<string>((ok) => lines.once('line', ok));

/** What the server saw of the run `run`, asked on its stdin. */
async function seenBy(run: string): Promise<Seen | undefined> {
  const answer = nextLine();
  server.stdin?.write('stats\n');
  return (JSON.parse(await answer) as Record<string, Seen>)[run];
}

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-grpc-server-'));
  const material = await makeTlsMaterial(1, ['127.0.0.1', 'localhost']);
  writeFileSync(join(dir, 'key.pem'), material.key);
  writeFileSync(join(dir, 'cert.pem'), material.cert);
  caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, material.ca);
  server = spawn(process.execPath, ['--import', 'tsx', join(CORPUS, 'grpc-server.mjs')], {
    env: { ...process.env, GRPC_TLS_KEY: join(dir, 'key.pem'), GRPC_TLS_CERT: join(dir, 'cert.pem') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  lines = createInterface({ input: server.stdout as NodeJS.ReadableStream });
  ports = JSON.parse(await nextLine());
});

afterAll(() => {
  server.stdin?.end();
  server.kill();
});

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly metrics: Record<string, Record<string, number>>;
  readonly checks: Record<string, { passes: number; fails: number }>;
}

/** Runs `script` of the corpus against the server's plaintext port, or its TLS one trusting dialtone's CA. */
async function run(
  script: string,
  runId: string,
  o: { tls?: boolean; untrusted?: boolean; addr?: string; cacerts?: boolean; signalOn?: string } = {},
): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-grpc-'));
  const summaryPath = join(dir, 'summary.json');
  const addr = o.addr ?? `127.0.0.1:${o.tls ? ports.tls : ports.plaintext}`;
  const flags = ['-e', `GRPC_ADDR=${addr}`, '-e', `RUN=${runId}`, ...(o.tls ? ['-e', 'GRPC_TLS=1'] : []), ...(o.cacerts ? ['-e', `CA_FILE=${caFile}`] : [])];
  // One worker thread: both VUs share it, and the run costs one worker's start.
  const args = [
    '--no-color',
    '--quiet',
    '--workers',
    '1',
    '--summary-trend-stats',
    'avg,max,count',
    '--summary-export',
    summaryPath,
    ...flags,
    join(CORPUS, script),
  ];
  // SSL_CERT_FILE: the CA the engine trusts in place of the system's, as Go's client reads it.
  const { code, stdout, stderr } = await runArgv(args, {
    dir,
    guardMs: 60_000,
    env: o.tls && !o.untrusted && !o.cacerts ? { SSL_CERT_FILE: caFile } : {},
    ...(o.signalOn ? { signalOn: o.signalOn } : {}),
  });
  const summary = existsSync(summaryPath) ? JSON.parse(readFileSync(summaryPath, 'utf8')) : { metrics: {}, root_group: { checks: {} } };
  return { code, stdout, stderr, metrics: summary.metrics, checks: summary.root_group.checks ?? {} };
}

const said = (r: Run) => `exited ${r.code}\n${r.stderr.slice(0, 2000)}`;

const UNARY_CHECKS = [
  'status is OK',
  'the message is the answer',
  'headers and trailers are the server metadata',
  'no error on OK',
  'a refused call has its status',
  'and its error, no message',
  'a call past its timeout ends DeadlineExceeded',
  'asyncInvoke resolves to the response',
  'a protoset loads the service too',
  'server is healthy',
  'health status is serving',
];

describe.concurrent('k6/net/grpc on the built-in engine', () => {
  // Client.invoke: "Invokes an unary RPC request to the given method." Response: "Response.message … The successful
  // protobuf message, serialized to JSON. Will be null if status !== grpc.StatusOK"; "Response.error … If status !==
  // grpc.StatusOK then the error protobuf message, serialized to JSON; otherwise null." Params.metadata: "custom
  // metadata the user would like to add to the request"; Params.timeout: "Request timeout to use." Metrics reference:
  // grpc_req_duration, "Time to receive response from remote host". ConnectParams.plaintext: "If true will connect to
  // the gRPC server using plaintext i.e. insecure."
  // Client.healthCheck: "Check the health status of the gRPC service using the gRPC Health Checking protocol"; its
  // example checks `r.status === grpc.StatusOK` and `r.message.status === grpc.HealthCheckServing`.
  it('makes unary calls over plaintext: the response object, metadata, status, timeout, healthCheck and asyncInvoke, counted by the server', async () => {
    const r = await run('grpc-unary.js', 'unary-plain');
    expect(r.code, said(r)).toBe(0);
    for (const name of UNARY_CHECKS) expect(r.checks[name], name).toMatchObject({ passes: 4, fails: 0 });
    const seen = await seenBy('unary-plain');
    expect(seen).toMatchObject({ say: 12, fail: 4, hang: 4 });
    expect(seen?.tokens).toEqual(Array(12).fill('Bearer corpus-token'));
    // The run's user agent (k6's userAgent option, else the engine's own), as on HTTP.
    expect(seen?.agents.every((a) => a.startsWith('dialtone-engine/'))).toBe(true);
    // int64 travels as a string in the JSON mapping, exactly.
    expect(seen?.bigNumbers.filter((n) => n === '9007199254740993')).toHaveLength(4);
    // Six calls an iteration, each one sample, the deadline's and the health check's included; the tags name the call.
    expect(r.metrics.grpc_req_duration?.count).toBe(24);
    expect(r.metrics['grpc_req_duration{call:say}']?.count).toBe(4);
    expect(r.metrics['grpc_req_duration{status:4}']?.count).toBe(4);
  });

  // ConnectParams.plaintext: "Defaults to false i.e. secure via TLS." The server's certificate is signed by a CA the
  // engine trusts through SSL_CERT_FILE, as for k6/http, or that the script names in ConnectParams.tls.cacerts.
  it('makes the same calls over TLS with a certificate dialtone made, trusted by SSL_CERT_FILE or tls.cacerts', async () => {
    const r = await run('grpc-unary.js', 'unary-tls', { tls: true });
    expect(r.code, said(r)).toBe(0);
    for (const name of UNARY_CHECKS) expect(r.checks[name], name).toMatchObject({ passes: 4, fails: 0 });
    expect(await seenBy('unary-tls')).toMatchObject({ say: 12, fail: 4, hang: 4 });
    expect(r.metrics.grpc_req_duration?.count).toBe(24);
    // ConnectParams.tls with cacerts (the server's CA, PEM, read with open()), in place of the engine's trust.
    const own = await run('grpc-unary.js', 'unary-cacerts', { tls: true, cacerts: true });
    expect(own.code, said(own)).toBe(0);
    expect(await seenBy('unary-cacerts')).toMatchObject({ say: 12, fail: 4, hang: 4 });
  });

  // Stream.on: "data: Emitted when the server sends data"; "end: Emitted when the server closes the incoming stream".
  // Stream.write: "Writes a message to the stream"; Stream.end: "Signals to the server that the client has finished
  // sending messages." Metrics reference: grpc_streams, "Total number of started streams"; grpc_streams_msgs_sent and
  // grpc_streams_msgs_received, "Total number of messages sent" and "received".
  it('runs a bidirectional and a server stream, their messages counted alike by the metrics and the server', async () => {
    const r = await run('grpc-stream.js', 'streams');
    expect(r.code, said(r)).toBe(0);
    for (const name of ['the chat echoes each message in order', 'the server stream sends what was asked'])
      expect(r.checks[name], name).toMatchObject({ passes: 4, fails: 0 });
    const seen = await seenBy('streams');
    expect(seen).toMatchObject({ chats: 4, chatIn: 12, chatOut: 12, counts: 4, countOut: 8 });
    expect(r.metrics.grpc_streams?.count).toBe(8);
    // Three chat messages and one count request an iteration; what the server wrote, all received.
    expect(r.metrics.grpc_streams_msgs_sent?.count).toBe(16);
    expect(r.metrics.grpc_streams_msgs_received?.count).toBe((seen?.chatOut ?? 0) + (seen?.countOut ?? 0));
    expect(r.metrics.grpc_req_duration?.count).toBe(8);
  });

  // A stream holds its iteration while open (handlers run as the server sends). When the run is interrupted (SIGINT
  // once the first reply is printed; 105 on Ctrl-C, docs/engines.md) the stream is cancelled, no handler of the script
  // runs after it, and the run ends.
  it('holds the iteration while a stream is open and cancels the stream when the run is interrupted', async () => {
    const r = await run('grpc-stream-interrupted.js', 'interrupted', { signalOn: 'reply OPEN' });
    expect(r.code, said(r)).toBe(105);
    expect(r.stderr).toContain('reply OPEN');
    expect(r.stderr).not.toContain('handler ran after the interruption');
    const seen = await seenBy('interrupted');
    // One iteration, held by its stream to the end of the scenario.
    expect(seen).toMatchObject({ chats: 1, chatIn: 1 });
    expect(r.metrics.grpc_streams?.count).toBe(1);
    expect(r.metrics.grpc_streams_msgs_received?.count).toBe(1);
  });

  // Client.connect: "will block until a connection is made or a connection error is thrown". A closed port, and a TLS
  // server whose certificate the engine does not trust: each iteration fails on one line naming the script's line.
  it('fails connect on a closed port and on an untrusted certificate, in one line with the script line, exit 107', async () => {
    const closed = await new Promise<number>((ok) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => ok(port));
      });
    });
    const refused = await run('grpc-stream.js', 'closed', { addr: `127.0.0.1:${closed}` });
    expect(refused.code, said(refused)).toBe(107);
    expect(refused.stderr).toContain(`failed to connect to 127.0.0.1:${closed}: the connection failed (`);
    expect(refused.stderr).toMatch(/grpc-stream\.js:15\)/);
    const untrusted = await run('grpc-unary.js', 'untrusted', { tls: true, untrusted: true });
    expect(untrusted.code, said(untrusted)).toBe(107);
    expect(untrusted.stderr).toContain('a server certificate not trusted fails so too');
    expect(untrusted.stderr).not.toMatch(/src\/engine|node:internal/);
    expect(await seenBy('untrusted')).toBeUndefined();
  });

  // ConnectParams.reflect: "Whether to use the gRPC server reflection protocol when connecting." The script loads no
  // proto: the method it invokes is known only from the server's reflection (@grpc/reflection on the test server).
  it('finds the services by server reflection when connect asks for it, and invokes one with no proto loaded', async () => {
    const r = await run('grpc-reflect.js', 'reflect');
    expect(r.code, said(r)).toBe(0);
    expect(r.metrics.checks, said(r)).toMatchObject({ passes: 2, fails: 0 });
    expect((await seenBy('reflect'))?.say).toBe(1);
  });
});
