// How many simultaneous Messaging API sockets the reference target holds, and its resident memory then. Goal: 10,000
// sockets (1,000 sessions at the 10-socket cap) in under 1 GiB. Run:
//   node --import tsx scripts/bench-messaging.ts [--sessions 1000] [--per-session 10] [--parallel 200] [--timeout 240]
//
// The target runs as `dialtone target` in a child process, so its memory is measured apart from the clients, which run
// here with `ws`. Loopback only. Each socket counts once it is open and has its history batch; the target's own count
// (control surface, per session) and its open file descriptors are read too. Everything is bounded by --timeout.
// No rate limit needs raising: 10 access tokens (of 1,000 a minute per connector) with 100 sessions each (of 1,000 a
// minute per token), and sockets send nothing, so the control surface is only read.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import {
  AccessTokenHeaders,
  bearer,
  JSON_CONTENT_TYPE,
  MAX_SOCKETS_PER_SESSION,
  MessagingPaths,
  REFERENCE_MESSAGING_HOST,
  SessionHeaders,
} from '../src/contract/messaging/shapes.js';
import { loadProfile } from '../src/profile/load.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SESSIONS_PER_TOKEN = 100;
const HANDSHAKE_TIMEOUT_MS = 15_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for `p` at most `ms`; the timer is cleared either way, so it never holds the process open. */
async function bounded(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The soft limit on open files of a process, from /proc (Node cannot raise its own). */
function openFileLimit(pid: number | 'self'): number {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const soft = line?.split(/\s{2,}/)[1];
  return soft === 'unlimited' ? Number.POSITIVE_INFINITY : Number(soft);
}

/** VmRSS and VmHWM (peak) of a process, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Open sockets among a process's file descriptors. */
function socketFds(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed while we looked
    }
  }
  return n;
}

/** Starts `dialtone target` and resolves with the process once it has written its profile. */
async function startTarget(profileOut: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'dialtone.mjs'), 'target', '--profile-out', profileOut], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the target did not start within 30 s')), 30_000);
    lines.on('line', (line) => {
      if (!line.startsWith('profile:')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => reject(new Error(`the target exited (${code}) before it started`)));
  });
  return child;
}

/** Runs `fn` over `items` with at most `parallel` at once. */
async function pool<T, R>(items: readonly T[], parallel: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return out;
}

type Opened = { readonly ok: true; readonly ws: WebSocket } | { readonly ok: false; readonly reason: string; readonly status?: number };

/** Opens one socket and waits for its history batch (the socket counts only then). */
function openSocket(url: string): Promise<Opened> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const done = (r: Opened) => {
      clearTimeout(timer);
      ws.removeAllListeners('message');
      if (!r.ok) ws.terminate();
      resolve(r);
    };
    const timer = setTimeout(() => done({ ok: false, reason: 'no history batch within 15 s' }), HANDSHAKE_TIMEOUT_MS);
    ws.on('unexpected-response', (_req, res) => done({ ok: false, reason: `HTTP ${res.statusCode}`, status: res.statusCode ?? 0 }));
    ws.on('error', (e) => done({ ok: false, reason: e.message }));
    ws.on('message', (data) => {
      const type = (JSON.parse(String(data)) as { type?: string }).type;
      if (type === 'EVENT_TYPE_EVENT_BATCH') done({ ok: true, ws });
    });
  });
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${new URL(url).pathname} answered ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { sessions: { type: 'string' }, 'per-session': { type: 'string' }, parallel: { type: 'string' }, timeout: { type: 'string' } },
  });
  const sessions = Number(values.sessions ?? 1000);
  const perSession = Number(values['per-session'] ?? MAX_SOCKETS_PER_SESSION);
  const parallel = Number(values.parallel ?? 200);
  const timeoutS = Number(values.timeout ?? 240);
  const wanted = sessions * perSession;

  // Each socket is one descriptor here and one in the target (which inherits this limit), plus some headroom.
  const limit = openFileLimit('self');
  console.log(`open-file limit (ulimit -n): ${limit}; this run needs about ${wanted + 200} in each process`);
  if (limit < wanted + 200) {
    console.error(`raise it first, e.g. 'ulimit -n ${wanted + 1000}' in this shell (the hard limit is the ceiling), then run again`);
    return 2;
  }

  const dir = mkdtempSync(join(tmpdir(), 'dialtone-bench-messaging-'));
  const profilePath = join(dir, 'reference.json');
  const target = await startTarget(profilePath);
  const pid = target.pid as number;
  const sockets: WebSocket[] = [];
  const deadline = setTimeout(() => {
    console.error(`bench-messaging: stopped after ${timeoutS} s`);
    target.kill('SIGKILL');
    process.exit(1);
  }, timeoutS * 1000);
  deadline.unref();
  try {
    const { profile, secrets } = loadProfile(profilePath);
    const base = profile.hosts.messaging_url as string;
    const control = profile.control as { url: string };
    const connectorToken = secrets.messaging_connector_token as string;
    const controlToken = secrets.control_token as string;
    const idle = memoryOf(pid);
    console.log(`target pid ${pid}, idle RSS ${mib(idle.rss)}; ${sessions} sessions × ${perSession} sockets, ${parallel} handshakes at once`);

    // Access tokens and sessions, within the documented rate limits.
    const tokenCount = Math.ceil(sessions / SESSIONS_PER_TOKEN);
    const tokens: string[] = [];
    for (let i = 0; i < tokenCount; i++) {
      const r = await post(
        `${base}${MessagingPaths.accessToken}`,
        {
          [AccessTokenHeaders.token]: connectorToken,
          [AccessTokenHeaders.host]: profile.messaging_host ?? REFERENCE_MESSAGING_HOST,
          [AccessTokenHeaders.contentType]: JSON_CONTENT_TYPE,
        },
        {},
      );
      tokens.push(r.access_token as string);
    }
    const made = await pool(
      Array.from({ length: sessions }, (_, i) => tokens[Math.floor(i / SESSIONS_PER_TOKEN)] as string),
      50,
      async (token) => {
        const r = await post(
          `${base}${MessagingPaths.sessions}`,
          { [SessionHeaders.authorization]: bearer(token), [SessionHeaders.contentType]: JSON_CONTENT_TYPE },
          {},
        );
        return { token, sessionId: r.session_id as string };
      },
    );

    // Every socket up to the cap, `parallel` handshakes in flight at a time.
    const ws = base.replace(/^http/, 'ws');
    const urlOf = (s: { token: string; sessionId: string }) =>
      `${ws}${MessagingPaths.ws}?access_token=${encodeURIComponent(s.token)}&session_id=${encodeURIComponent(s.sessionId)}`;
    const started = performance.now();
    const outcomes = await pool(
      made.flatMap((s) => Array.from({ length: perSession }, () => s)),
      parallel,
      (s) => openSocket(urlOf(s)),
    );
    const openMs = performance.now() - started;
    const failures = new Map<string, number>();
    for (const o of outcomes) {
      if (o.ok) sockets.push(o.ws);
      else failures.set(o.reason, (failures.get(o.reason) ?? 0) + 1);
    }

    await sleep(1000); // let the target settle before its memory is read
    const held = memoryOf(pid);
    const fds = socketFds(pid);
    // The target's own count, session by session.
    const counted = await pool(made, 50, async (s) => {
      const res = await fetch(`${control.url}/messaging/sessions/${encodeURIComponent(s.sessionId)}`, {
        headers: { 'x-dialtone-control': controlToken },
        signal: AbortSignal.timeout(10_000),
      });
      return res.status === 200 ? ((await res.json()) as { sockets: number }).sockets : 0;
    });
    const targetHolds = counted.reduce((a, b) => a + b, 0);
    // One more on a full session: the cap still answers 429 with every socket held.
    const over = perSession >= MAX_SOCKETS_PER_SESSION && made[0] ? await openSocket(urlOf(made[0])) : undefined;
    if (over?.ok) over.ws.terminate();

    const result = {
      sessions,
      sockets_wanted: wanted,
      sockets_open: sockets.length,
      sockets_target_counts: targetHolds,
      target_socket_fds: fds,
      open_ms: Math.round(openMs),
      handshakes_per_s: Math.round((outcomes.length / openMs) * 1000),
      target_rss_mib: Number((held.rss / 2 ** 20).toFixed(1)),
      target_rss_peak_mib: Number((held.peak / 2 ** 20).toFixed(1)),
      target_idle_rss_mib: Number((idle.rss / 2 ** 20).toFixed(1)),
      kib_per_socket: Number(((held.rss - idle.rss) / Math.max(1, sockets.length) / 1024).toFixed(1)),
      over_cap_status: over === undefined ? null : over.ok ? 101 : (over.status ?? null),
      failures: Object.fromEntries(failures),
    };
    console.log(
      `${sockets.length} of ${wanted} sockets open with their history batch in ${(openMs / 1000).toFixed(1)} s (${result.handshakes_per_s} ` +
        `handshakes/s); the target counts ${targetHolds} and holds ${fds} socket descriptors`,
    );
    console.log(
      `target RSS ${mib(held.rss)} (peak ${mib(held.peak)}, idle ${mib(idle.rss)}, ${result.kib_per_socket} KiB per socket); goal: 10,000 sockets under 1 GiB`,
    );
    if (over) console.log(`one more socket on a full session: ${over.ok ? 'opened (the cap did not hold)' : over.reason}`);
    if (failures.size) console.log(`failures: ${JSON.stringify(result.failures)}`);
    console.log(JSON.stringify(result));
    return sockets.length === wanted && targetHolds === wanted && held.rss < 2 ** 30 && (over === undefined || (!over.ok && over.status === 429)) ? 0 : 1;
  } finally {
    // Close every socket (close frames), bounded; then stop the target.
    const closed = (s: WebSocket) =>
      new Promise<void>((r) => {
        if (s.readyState === WebSocket.CLOSED) return r();
        s.once('close', () => r());
        s.close();
      });
    const closing = Promise.all(sockets.map(closed));
    await bounded(closing, 30_000);
    for (const s of sockets) if (s.readyState !== WebSocket.CLOSED) s.terminate();
    const exited = new Promise<void>((r) => target.once('exit', () => r()));
    target.kill('SIGTERM');
    await bounded(exited, 10_000);
    if (target.exitCode === null && target.signalCode === null) target.kill('SIGKILL');
    clearTimeout(deadline);
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
