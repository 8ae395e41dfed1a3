// The corpus's scripts for k6's protocols and modules beyond HTTP/1.1 (issue 56): k6/experimental/fs, csv, streams and
// websockets, k6/secrets with --secret-source, HTTP/2 by ALPN. Each runs on the built-in engine in this process
// (src/engine/run/in-process.ts) against a local target, judged by its exit code, the summary export's metrics and
// counts, and what the target saw; each test quotes the k6 documentation sentence it follows. Nothing here judges time.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runArgv } from '../src/engine/run/in-process.js';
import { makeTlsMaterial } from '../src/reference-target/tls.js';
import { type CorpusTarget, startTarget } from './k6-corpus/target.js';

const CORPUS = join(import.meta.dirname, 'k6-corpus');

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly metrics: Record<string, Record<string, number>>;
  readonly checks: Record<string, { passes: number; fails: number }>;
  readonly target: CorpusTarget;
  readonly dir: string;
  /** The summary export as written. */
  readonly summaryText: string;
}

/** Runs `script` of the corpus with `flags`, against a target of its own at BASE_URL (or `base`, when given). */
async function run(script: string, flags: readonly string[] = [], o: { base?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const target = await startTarget();
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-protocols-'));
  const summaryPath = join(dir, 'summary.json');
  const args = ['--no-color', '--quiet', '--summary-export', summaryPath, '-e', `BASE_URL=${o.base ?? target.url}`, ...flags, join(CORPUS, script)];
  const { code, stdout, stderr } = await runArgv(args, { dir, guardMs: 60_000, env: o.env ?? {} });
  await target.close();
  const summaryText = existsSync(summaryPath) ? readFileSync(summaryPath, 'utf8') : '';
  const summary = summaryText ? JSON.parse(summaryText) : { metrics: {}, root_group: { checks: {} } };
  return { code, stdout, stderr, metrics: summary.metrics, checks: summary.root_group.checks ?? {}, target, dir, summaryText };
}

const said = (r: Run) => `exited ${r.code}\n${r.stderr.slice(0, 2000)}`;

describe.concurrent('k6/experimental modules on the built-in engine', () => {
  // csv.parse: "parses an entire CSV file at once and returns a promise that resolves to a SharedArray instance";
  // asObjects: "The object keys are the column names from the CSV file, as inferred from the first line of the file";
  // csv.Parser: "a streaming parser that reads CSV files line-by-line"; next(): "done … Indicates whether there are more
  // rows to read (false) or the end of the file has been reached (true)". fs File.read: "It resolves to either the
  // number of bytes read during the operation, or null if there was nothing more to read."
  it('reads a CSV with k6/experimental/csv: one record an iteration, the parser bounded by fromLine and toLine', async () => {
    const r = await run('experimental-csv.js');
    expect(r.code, said(r)).toBe(0);
    const logins = r.target.hits.filter((h) => h.path === '/anything/login').map((h) => JSON.parse(h.body.toString()).username);
    expect(logins.sort()).toEqual(['alice', 'bob', 'carol', 'dave']);
    const bob = r.target.hits.find((h) => h.path === '/anything/login' && h.body.toString().includes('bob'));
    expect(JSON.parse(bob?.body.toString() ?? '{}')).toEqual({ username: 'bob', password: 'pw, with comma' });
    // Lines 2 and 3 of the file (0-based: the header is line 0), then done: two posts of four iterations.
    const streamed = r.target.hits.filter((h) => h.path === '/anything/streamed').map((h) => h.body.toString());
    expect(streamed.sort()).toEqual(['bob|pw, with comma', 'carol|pw-c']);
    expect(r.metrics.http_reqs?.count).toBe(6);
    for (const name of ['the csv has 4 users', 'stat gives the size and name', 'read gives the tail, then null at the end'])
      expect(r.checks[name], name).toMatchObject({ passes: 4, fails: 0 });
  });

  // streams: "The k6 streams experimental module provides an implementation of the Streams API specification";
  // read(): "If a chunk is available, the promise resolves with an object of the form: { done: false, value: chunkValue }.
  // If the stream is closed and no more data is available … { done: true, value: undefined }."
  it('reads a ReadableStream of k6/experimental/streams to its end, a request per chunk', async () => {
    const r = await run('experimental-streams.js');
    expect(r.code, said(r)).toBe(0);
    expect(r.target.count('/anything/chunk')).toBe(6);
    expect(r.target.hits.map((h) => h.query.get('n')).sort()).toEqual(['0', '0', '1', '1', '2', '2']);
    expect(r.metrics.http_reqs?.count).toBe(6);
  });

  // The Streams API's WritableStream: "writer.ready … fulfills when the desired size of the stream's internal queue
  // transitions from non-positive to positive, signaling that it is no longer applying backpressure".
  it('writes to a WritableStream of k6/experimental/streams through its writer, each chunk reaching the sink in order', async () => {
    const r = await run('experimental-writable-streams.js');
    expect(r.code, said(r)).toBe(0);
    expect(r.target.hits.filter((h) => h.path === '/anything/written').map((h) => h.body.toString())).toEqual(['chunk 1', 'chunk 2', 'chunk 3']);
  });

  // k6/experimental/websockets is the module k6/websockets graduated from: the same API under the earlier import name.
  it('runs the k6/experimental/websockets alias as k6/websockets: a session and an echo an iteration', async () => {
    const r = await run('experimental-websockets.js');
    expect(r.code, said(r)).toBe(0);
    expect(r.target.sockets).toEqual({ opened: 2, messages: 2 });
    expect(r.metrics.ws_sessions?.count).toBe(2);
    expect(r.metrics.ws_msgs_received?.count).toBe(2);
  });

  // fs: "NotFoundError is emitted when a file is not found" (the module's error kinds). The script rethrows it in its
  // iteration: every iteration fails, so the run ends 107 naming the error and the script's line, no engine frame.
  it('names the missing file of open() and the script line, and exits 107 with no request sent', async () => {
    const r = await run('experimental-fs-missing.js');
    expect(r.code, said(r)).toBe(107);
    expect(r.stderr).toContain('NotFoundError: no such file or directory');
    expect(r.stderr).toContain('experimental-fs-missing.js:8');
    expect(r.stderr).not.toMatch(/src\/engine|node:internal/);
    expect(r.target.hits).toHaveLength(0);
  });
});

describe.concurrent('k6/secrets and --secret-source on the built-in engine', () => {
  const sources = [
    `--secret-source=file=name=files,filename=${join(CORPUS, 'data', 'secrets.txt')},default`,
    '--secret-source=mock=name=other,cool="not cool secret"',
  ];
  const VALUES = ['s3cr3t-t0ken-value', 'abc=def==', 'not cool secret', 'env-secret-value'];

  // /using-k6/secret-source/: "Unlike values from environment variables or files, values from secret sources are
  // automatically redacted from k6 logs"; /javascript-api/k6-secrets/: "In both of those cases the end logs will have
  // ***SECRET_REDACTED*** in place of the secret"; mock: "Configure multiple mock sources and assign them names. You can
  // also set one as the default source." k6 PR #5724: K6_SECRET_SOURCE is "equivalent to one --secret-source flag".
  it('reads secrets from the default, named and K6_SECRET_SOURCE sources, sends them, and redacts them from all it prints', async () => {
    const r = await run('secrets.js', sources, { env: { K6_SECRET_SOURCE: 'mock=name=fromenv,key=env-secret-value' } });
    expect(r.code, said(r)).toBe(0);
    const hits = r.target.hits.filter((h) => h.path === '/anything/secret');
    expect(hits).toHaveLength(2);
    for (const h of hits) {
      expect(h.headers.authorization).toBe('Bearer s3cr3t-t0ken-value');
      expect(h.headers['x-other']).toBe('not cool secret');
      expect(h.headers['x-env']).toBe('env-secret-value');
      // get: "If there is no default secret source, there is no secret with that name … an exception will thrown."
      expect(h.headers['x-missing']).toContain("no secret 'no-such-secret'");
    }
    // The console line, the iteration's error, the summary's and the summary export's check name: each secret shown as
    // redacted, none in clear.
    expect(r.stderr).toContain('token=***SECRET_REDACTED*** signing=***SECRET_REDACTED*** other=***SECRET_REDACTED*** env=***SECRET_REDACTED***');
    expect(r.stderr).toContain('refused with ***SECRET_REDACTED***');
    expect(r.stdout).toContain('accepted ***SECRET_REDACTED***');
    expect(r.checks['accepted ***SECRET_REDACTED***']).toMatchObject({ passes: 2, fails: 0 });
    for (const v of VALUES) {
      expect(r.stderr).not.toContain(v);
      expect(r.stdout).not.toContain(v);
      expect(r.summaryText).not.toContain(v);
    }
    expect(r.metrics.http_reqs?.count).toBe(2);
  });

  // --console-output: "Redirects the console logging to the provided output file" (options reference); redacted there too.
  it('redacts the secrets from the --console-output file', async () => {
    const r = await run('secrets.js', [...sources, '--console-output', 'console.log'], { env: { K6_SECRET_SOURCE: 'mock=name=fromenv,key=x-env-x' } });
    expect(r.code, said(r)).toBe(0);
    const file = readFileSync(join(r.dir, 'console.log'), 'utf8');
    expect(file).toContain('token=***SECRET_REDACTED*** signing=***SECRET_REDACTED***');
    for (const v of [...VALUES.slice(0, 3), 'x-env-x']) expect(file).not.toContain(v);
  });

  // A source the engine does not have, or a file it cannot read: one line, k6's 104 (invalid config), nothing sent.
  it('refuses an unknown kind of source and an unreadable file with one line and exit 104', async () => {
    const unknown = await run('secrets.js', ['--secret-source=vault=x']);
    expect(unknown.code, said(unknown)).toBe(104);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect(unknown.stderr).toContain("unknown kind 'vault'");
    const missing = await run('secrets.js', ['--secret-source=file=no-such.secrets']);
    expect(missing.code, said(missing)).toBe(104);
    expect(missing.stderr).toContain("cannot read 'no-such.secrets'");
    expect(unknown.target.hits.length + missing.target.hits.length).toBe(0);
  });
});

/** A TLS server on 127.0.0.1 answering 200 to every request, counting its connections and what each request spoke. */
async function tlsServer(key: string, cert: string, h2: boolean) {
  const seen = { connections: 0, requests: [] as { path: string; version: string }[] };
  const answer = (req: { url?: string; httpVersion: string }, res: { writeHead(s: number, h: Record<string, string>): unknown; end(b: string): unknown }) => {
    seen.requests.push({ path: req.url ?? '', version: req.httpVersion });
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('ok');
  };
  const server = h2
    ? http2.createSecureServer({ key, cert, allowHTTP1: false }, (req, res) => answer(req, res))
    : https.createServer({ key, cert }, (req, res) => answer(req, res));
  server.on('secureConnection', () => seen.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `https://localhost:${(server.address() as AddressInfo).port}`;
  const close = () => {
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    return new Promise<void>((r) => server.close(() => r()));
  };
  return { seen, url, close };
}

describe('HTTP/2 on the built-in engine', () => {
  // /using-k6/protocols/http-2/: "k6 uses HTTP/2 by default when the server supports it"; "check … r.proto ===
  // 'HTTP/2.0'". k6 gives every VU its own connections (/using-k6/test-lifecycle/: each VU is its own runtime), and h2
  // multiplexes a VU's requests to a host on one connection, http.batch's included.
  it('speaks h2 where the server offers it and HTTP/1.1 where not, one h2 connection per VU, and exits 0', async () => {
    const material = await makeTlsMaterial(1, ['127.0.0.1', 'localhost']);
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6-h2-'));
    writeFileSync(join(dir, 'ca.pem'), material.ca);
    const h2 = await tlsServer(material.key, material.cert, true);
    const h1 = await tlsServer(material.key, material.cert, false);
    try {
      // SSL_CERT_FILE: the CA the engine trusts in place of the system's, as Go's client reads it.
      const r = await run('http2.js', ['-e', `H2_URL=${h2.url}`, '-e', `H1_URL=${h1.url}`], { env: { SSL_CERT_FILE: join(dir, 'ca.pem') } });
      expect(r.code, said(r)).toBe(0);
      // 2 VUs × 2 iterations: 6 requests each to the h2 server, 1 to the HTTP/1.1 one.
      expect(h2.seen.requests).toHaveLength(24);
      expect(new Set(h2.seen.requests.map((q) => q.version))).toEqual(new Set(['2.0']));
      expect(h2.seen.connections).toBe(2);
      expect(h1.seen.requests).toHaveLength(4);
      expect(new Set(h1.seen.requests.map((q) => q.version))).toEqual(new Set(['1.1']));
      expect(r.metrics['http_reqs{proto:HTTP/2.0}']?.count).toBe(24);
      expect(r.metrics['http_reqs{proto:HTTP/1.1}']?.count).toBe(4);
      expect(r.metrics.http_reqs?.count).toBe(28);
      for (const name of ['status is 200', 'protocol is HTTP/2', 'every batch answer is HTTP/2', 'an http/1.1-only server answers over HTTP/1.1'])
        expect(r.checks[name], name).toMatchObject({ passes: 4, fails: 0 });
      // Timings keep k6's meaning under h2: duration = sending + waiting + receiving, never negative.
      for (const k of ['http_req_duration', 'http_req_tls_handshaking', 'http_req_blocked']) expect(r.metrics[k]?.min, k).toBeGreaterThanOrEqual(0);
    } finally {
      await h2.close();
      await h1.close();
    }
  });
});
