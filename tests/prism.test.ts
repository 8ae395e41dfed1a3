import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../src/profile/load.js';
import { dialtoneInProcess } from './in-process-cli.js';
import { targetInProcess } from './in-process-target.js';
import { dialtone, ROOT } from './run-cli.js';

// The contract judged by a validator nobody here wrote: Stoplight Prism (a devDependency, pinned) validates every
// request and answer of the HTTP part of the conformance suite against docs/contract/openapi.json as a proxy in front
// of the reference target, and answers the suite itself as a mock. The sockets (messaging, voice signaling) are not
// HTTP operations and cannot pass Prism's HTTP proxy: their cases are left out.

/** Every Prism server of this file runs in one process of Prism's own modules (tests/prism-host.mjs). */
const PRISM_HOST = `${ROOT}tests/prism-host.mjs`;
/** Prism's npm dependencies include @scarf/scarf (telemetry): off. Colours off, so its log lines can be read. */
const PRISM_ENV = { SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1', FORCE_COLOR: '0', NO_COLOR: '1', NODE_ENV: 'test' };

/**
 * The HTTP part of the suite: every case that speaks only HTTP to the target's hosts. Left out, because they open a
 * WebSocket (messaging_url's /ws, webrtc_url's signaling) that Prism's HTTP proxy cannot carry: messaging.ws/events/
 * join/streaming/session-state/agent/handoff/expiry, the socket limits, messaging.flow.sequence,
 * messaging.session.body-optional (it opens a socket on the session it creates), and every voice rule but ice-servers.
 */
const HTTP_ONLY = [
  'chat.*',
  'conversations.*',
  'concurrency.*',
  'audio.*',
  'external-events.*',
  'outbound.*',
  'bridge.*',
  'agents.*',
  'alerts.*',
  'webhooks.*',
  'messaging.flow.api-v1-paths',
  'messaging.flow.cluster-must-match',
  'messaging.flow.http-error-body',
  'messaging.access-token.*',
  ...['success', 'user-agent-optional', 'platform-enum', 'platform-unknown', 'missing-access-token', 'missing-auth-headers'].map(
    (r) => `messaging.session.${r}`,
  ),
  ...['invalid-access-token', 'parse-error', 'create-failed'].map((r) => `messaging.session.${r}`),
  'messaging.limits.rate-limit-http',
  'voice.ice-servers.*',
].join(',');

/** The profile's HTTP hosts, each answered through a Prism server of its own. */
const HOSTS = ['base_url', 'messaging_url', 'webrtc_url', 'agents_url', 'agents_regionless_url'] as const;

interface Prism {
  readonly url: string;
  readonly log: () => string;
  readonly settled: () => Promise<void>;
  readonly stop: () => Promise<void>;
}

/** One pino record of a Prism server, as its logger wrote it. */
interface PrismRecord {
  readonly name?: string;
  readonly level?: string;
  readonly msg?: string;
  readonly input?: { method?: string; url?: { path?: string } };
}

/**
 * A record as Prism's CLI prints it (signale, createServer.js pipeOutputToSignale): `[HTTP SERVER] post /path info
 * Request received`, `[VALIDATOR] error Violation: response.body.x must be string`.
 */
const rendered = (r: PrismRecord) => `[${r.name}]${r.input ? ` ${r.input.method} ${r.input.url?.path}` : ''} ${r.level} ${r.msg}`;

interface PrismHost {
  readonly ask: (command: Record<string, unknown>) => Promise<{ url?: string; server?: number; error?: string }>;
  readonly logs: Map<number, string[]>;
  readonly end: () => Promise<void>;
}

let hostProcess: PrismHost | undefined;

/** The process that runs this file's Prism servers, started with the first. */
function prismHost(): PrismHost {
  if (hostProcess) return hostProcess;
  const child = spawn(process.execPath, [PRISM_HOST], { cwd: ROOT, env: { ...process.env, ...PRISM_ENV }, stdio: ['pipe', 'pipe', 'pipe'] });
  const logs = new Map<number, string[]>();
  const waiting = new Map<number, (answer: { url?: string; server?: number; error?: string }) => void>();
  let stderr = '';
  let asked = 0;
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    const m = JSON.parse(line) as { id?: number; server?: number; record?: PrismRecord; url?: string; error?: string };
    if (m.record && m.server !== undefined) {
      const lines = logs.get(m.server) ?? [];
      lines.push(rendered(m.record));
      logs.set(m.server, lines);
    } else if (m.id !== undefined) {
      waiting.get(m.id)?.(m);
      waiting.delete(m.id);
    }
  });
  child.on('exit', (code) => {
    for (const answer of waiting.values()) answer({ error: `the Prism host exited ${code}: ${stderr}` });
    waiting.clear();
  });
  hostProcess = {
    logs,
    ask: (command) =>
      new Promise((resolve) => {
        const id = ++asked;
        waiting.set(id, resolve);
        child.stdin.write(`${JSON.stringify({ id, ...command })}\n`);
      }),
    end: () =>
      new Promise<void>((done) => {
        hostProcess = undefined;
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.stdin.end();
      }),
  };
  return hostProcess;
}

/** Starts a Prism server (`prism proxy DOCUMENT UPSTREAM` or `prism mock DOCUMENT`) on a free loopback port. */
async function prism(mode: 'proxy' | 'mock', document: string, upstream?: string): Promise<Prism> {
  const h = prismHost();
  const started = await h.ask({ start: { mode, document, upstream } });
  if (started.error !== undefined || started.url === undefined || started.server === undefined) throw new Error(`prism did not start: ${started.error}`);
  const n = started.server;
  const log = () => (h.logs.get(n) ?? []).join('\n');
  return {
    url: started.url,
    log,
    settled: async () => {
      // Its records come through a pipe: wait until its log stops growing before it is read as complete.
      for (let seen = -1, i = 0; seen !== log().length && i < 40; i++) {
        seen = log().length;
        await new Promise((r) => setTimeout(r, 250));
      }
    },
    stop: async () => {
      await h.ask({ stop: n });
    },
  };
}

/** One violation Prism logged: `Violation: <location> <message>` on a `[VALIDATOR]` line. */
interface Violation {
  readonly host: string;
  /** `request…` or `response…`, dotted (`response.body.conversations.0.id`). */
  readonly location: string;
  readonly message: string;
}

/**
 * A Prism 5.14 server's log, a line per pino record (`rendered`): `[HTTP SERVER] post /path info Request received`, then
 * per violation `[VALIDATOR] error Violation: response.body.x must be string` (severity error, warning or info). A
 * request that matches no operation is forwarded anyway (`--errors false`) and logged as the violation `request Selected
 * route not found`.
 */
function violationsOf(host: string, log: string): Violation[] {
  const out: Violation[] = [];
  for (const line of log.split('\n')) {
    const m = /\[VALIDATOR\].*?Violation: ((?:request|response)\S*) (.*)$/.exec(line);
    if (m?.[1] && m[2] !== undefined) out.push({ host, location: m[1], message: m[2].trim() });
  }
  return out;
}

/** Prism's word for a request that matches no operation of the document. */
const UNMATCHED = 'Selected route not found';

interface WireEntry {
  request: string;
  response: string;
}
interface CaseRecord {
  rule: string;
  outcome: string;
  detail: string;
  check?: string;
  wire?: WireEntry[];
}
interface Results {
  gate: string;
  cases: CaseRecord[];
  rules: { id: string; outcome: string }[];
}

/** Prism's `sl-violations` answer header, as each case's wire log recorded it: the request each violation came from. */
interface Attributed {
  readonly rule: string;
  /** The origin the request went to (one Prism server per profile host). */
  readonly origin: string;
  readonly request: string;
  readonly location: string;
  readonly code: string;
  readonly message: string;
}

function attributed(results: Results): Attributed[] {
  const out: Attributed[] = [];
  for (const c of results.cases) {
    for (const w of c.wire ?? []) {
      const head = w.response.split('\n\n')[0] ?? '';
      const header = head.split('\n').find((l) => l.toLowerCase().startsWith('sl-violations: '));
      if (!header) continue;
      const [method = '', url = ''] = (w.request.split('\n')[0] ?? '').split(' ');
      const { origin, pathname } = new URL(url);
      const list = JSON.parse(header.slice('sl-violations: '.length)) as { location: string[]; code: string | number; message: string }[];
      for (const v of list)
        out.push({
          rule: c.rule,
          origin,
          request: `${method.toUpperCase()} ${pathname}`,
          location: v.location.join('.'),
          code: String(v.code),
          message: v.message,
        });
    }
  }
  return out;
}

/** Every request of every case's wire log, as `origin METHOD /path`. */
function wireRequests(results: Results): string[] {
  return results.cases.flatMap((c) =>
    (c.wire ?? []).map((w) => {
      const [method = '', url = ''] = (w.request.split('\n')[0] ?? '').split(' ');
      const { origin, pathname } = new URL(url);
      return `${origin} ${method.toUpperCase()} ${pathname}`;
    }),
  );
}

/** Every request a Prism server received, from its `[HTTP SERVER] <method> <path> … Request received` lines. */
function receivedRequests(origin: string, log: string): string[] {
  return [...log.matchAll(/\[HTTP SERVER\] (\w+) (\S+) .*Request received/g)].map((m) => `${origin} ${m[1]?.toUpperCase()} ${m[2]?.split('?')[0]}`);
}

/** `a` less `b`, as multisets. */
function without(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    if (n > 0) left.set(x, n - 1);
    return n === 0;
  });
}

function writeProfile(dir: string, ref: Record<string, unknown>, name: string, hosts: Record<string, string>, extra: Record<string, unknown> = {}): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ ...ref, name, hosts, ...extra }, null, 2));
  return path;
}

type Kind = 'auth' | 'body' | 'query' | 'content-type';

/** What a request violation is about: a missing or wrong credential, the body, the query, the content type. */
function kindOf(v: { location: string; message: string }): Kind | 'other' {
  if (v.message === 'Invalid security scheme used') return 'auth';
  if (v.message.startsWith('Supported content types')) return 'content-type';
  if (v.location.startsWith('request.body')) return 'body';
  if (v.location.startsWith('request.query')) return 'query';
  return 'other';
}

/**
 * The cases that send a request the contract calls invalid, on purpose, and what is invalid about it. Prism may report
 * request violations of these kinds for these cases only, and each of them must still send one (the list stays exact).
 */
const INVALID_ON_PURPOSE: Record<string, readonly Kind[]> = {
  'chat.create.channel-unknown': ['body'], // a channel outside the enum
  'chat.respond.conversation-id-required': ['body'], // respond without conversation_id
  'chat.close.conversation-id-required': ['body'], // close without conversation_id
  'chat.auth.headers-required': ['auth'], // without X-API-KEY, then without X-TOKEN
  'chat.errors.body-and-status': ['body'], // respond without conversation_id, for the error body
  'messaging.flow.http-error-body': ['auth'], // access-token without X-Token, for the error body
  'messaging.access-token.missing-headers': ['auth'], // without X-Token or X-Host
  'messaging.access-token.content-type-required': ['content-type', 'body'], // derived: Content-Type left out, then text/plain (a body Prism cannot read)
  'messaging.session.platform-unknown': ['body'], // a platform outside the enum
  'messaging.session.missing-access-token': ['auth'], // no Authorization header
  'messaging.session.missing-auth-headers': ['auth'], // Authorization not in Bearer form
  'voice.ice-servers.unauthorized': ['auth'], // no bearer token
  'voice.ice-servers.auth-required': ['auth'], // no bearer token
  'conversations.errors.violations-not-success': ['query'], // a bad client_env among the parameter violations
  'conversations.errors.other-violations-status': ['query'], // the same violations, for their status
  'conversations.auth.x-api-key-required': ['auth'], // no x-api-key
  'conversations.auth.legacy-key-model': ['auth'], // v1 and v2 without a key
  'concurrency.params.start-end-required': ['query'], // without start_time or end_time
  'concurrency.params.bad-time-range-400': ['query'], // times that are not ISO 8601
  'concurrency.errors.error-message-body': ['query', 'auth'], // a missing end_time, a missing key
  'concurrency.errors.401-403-key': ['auth'], // no key
  'concurrency.errors.other-parameters': ['query'], // an unknown slice_by, a bad client_env
  'audio.auth.x-api-key-required': ['auth'], // no x-api-key
  'audio.errors.rejections-not-success': ['query'], // a bad direction or redacted value
  'audio.errors.not-shown': ['query'], // the same, for their status
  'external-events.query.all-required': ['query'], // each required query parameter left out in turn
  'external-events.query.missing-status': ['query'], // a missing or unknown event_id_location
  'external-events.content-type.other': ['content-type'], // a content type outside the four accepted
  'external-events.errors.401-key': ['auth'], // no key
  'external-events.errors.error-message-body': ['auth'], // no key, for the error body
  'outbound.trigger.e164-destination': ['body'], // to_number not in E.164
  'outbound.auth.service-token': ['auth'], // no X-Service-Auth-Token
  'outbound.errors.rejections-not-success': ['body', 'auth'], // a bad number, no token
  'outbound.errors.other-codes': ['body', 'auth'], // the same, for their status
  'bridge.request.conversation-id-required': ['body'], // conversation_id missing or not a string
  'bridge.request.bridge-duration-required': ['body'], // bridge_duration_seconds missing or not a number
  'bridge.request.call-duration-required': ['body'], // call_duration_seconds missing or not a number
  'bridge.errors.error-message-body': ['body', 'auth'], // a missing field, a missing key
  'bridge.auth.external-events-key': ['auth'], // no key
  'bridge.errors.rejections-not-success': ['body'], // missing durations
  'bridge.open.error-statuses': ['body'], // the same, for their status
  'agents.auth.missing-key-401': ['auth'], // no x-api-key
  'agents.errors.400-validation': ['body'], // a name or behavior that is not a string
  'agents.errors.body-shape': ['auth', 'body'], // no key, an empty name
  'agents.errors.name-length-message': ['body'], // names of 0 and 129 characters
  'agents.agent.name-min-1': ['body'], // an empty name
  'agents.agent.name-max-128': ['body'], // a name of 129 characters
  'agents.deployments.environment-enum': ['body'], // an environment outside the enum
  'agents.deployments.environment-required': ['query'], // no environment
  'alerts.auth.missing-key-401': ['auth'], // no x-api-key
  'alerts.rules.name-required': ['body'], // no name
  'alerts.rules.other-fields-required': ['body'], // no metric, threshold_value or window_duration
  'alerts.rules.metric-enum': ['body'], // a metric outside the enum
  'alerts.rules.operators-other': ['body'], // operators other than the documented >= (what they answer is not shown)
  'alerts.rules.threshold-non-negative-integer': ['body'], // a negative and a fractional threshold
  'alerts.rules.window-enum': ['body'], // window_duration 15m
  'alerts.errors.threshold-message': ['body'], // the same thresholds, for the message
  'alerts.errors.metric-message': ['body'], // a metric outside the enum, for the message
  'webhooks.auth.missing-key-401': ['auth'], // no x-api-key
  'webhooks.endpoint.event-types-enum': ['body'], // an event type outside the enum
};

/** The operations of an OpenAPI document marked `x-dialtone-not-shown`, as `METHOD /template`. */
function notShownOf(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths).flatMap(([path, entry]) =>
    Object.entries(entry)
      .filter(([, op]) => typeof op === 'object' && op !== null && 'x-dialtone-not-shown' in op)
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
}

/** The not-shown operation (`METHOD /template`) a request (`METHOD /path`) is for, if any. */
function notShownFor(ops: readonly string[], request: string): string | undefined {
  const [method, path = ''] = request.split(' ');
  return ops.find((op) => {
    const [m, template = ''] = op.split(' ');
    return m === method && new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`).test(path);
  });
}

/**
 * The cases that fail through Prism's proxy because the proxy changes the exchange, not because the target or the
 * contract is wrong (each passes against the target directly: `npm test`'s gate).
 */
const CHANGED_BY_THE_PROXY: Record<string, string> = {
  'messaging.session.parse-error': 'Prism parses a JSON body itself and answers invalid JSON with its own 400',
  'conversations.streaming.chunked-v2-v3': 'Prism buffers the answer and sends it with Content-Length, never chunked',
  'concurrency.slice-by.language-501': 'Prism answers an upstream 501 with a mock of its own ("Remocking the call")',
  'concurrency.slice-by.phone-number-501': 'the same: an upstream 501 is mocked',
  'concurrency.errors.error-message-body': 'the same: its 501 is mocked',
  'concurrency.response.fields': 'the derived shape check judges the 200 Prism mocks in place of an upstream 501 (slice_by language or phone_number)',
  'external-events.payload.opaque': 'Prism forwards a JSON body parsed and serialized again, not the bytes as sent',
  ...Object.fromEntries(
    [
      'audio.path.v3',
      'audio.response.wav',
      'audio.direction.default-combined',
      'audio.direction.user',
      'audio.direction.agent',
      'audio.redacted.default-false',
      'audio.redaction.pii-false-raw',
      'audio.redaction.pii-true-redacted',
      'audio.redaction.no-pii-false-redacted',
      'audio.redaction.no-pii-true-redacted',
    ].map((id) => [id, 'Prism reads a non-JSON answer as UTF-8 text: the WAV bytes arrive mangled']),
  ),
};

/** One run of the HTTP part of the suite through a Prism proxy per host, each validating against `doc`. */
interface ProxiedRun {
  readonly proxies: Map<string, Prism>;
  readonly run: Awaited<ReturnType<typeof dialtone>>;
  readonly results: Results;
  /** What the Prism servers logged. */
  readonly logged: Violation[];
  /** What the cases' wire logs carry (Prism's sl-violations header). */
  readonly onWire: Attributed[];
  /** Every request the Prism servers received, as `origin METHOD /path`. */
  readonly received: string[];
  /** Requests Prism received that no case's wire log holds: the reachability probe and the clean-up's DELETEs. */
  readonly outside: string[];
  readonly hostOf: (origin: string) => string;
}

describe('the contract as Prism reads it', () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-prism-'));
  const contractDir = join(work, 'contract');
  // The reference target runs in this process; the gates, in processes of their own, reach it through the proxies.
  let target: Awaited<ReturnType<typeof targetInProcess>> | undefined;
  const running: Prism[] = [];
  let ref: Record<string, unknown> & { hosts: Record<string, string>; cleanup: Record<string, string> };
  /** The operations the reference target's contract adds to the published one. */
  let notShown: string[];

  beforeAll(async () => {
    const written = await dialtoneInProcess(['contract', '--out', contractDir]);
    expect(written.code, written.stderr).toBe(0);
    notShown = notShownOf(JSON.parse(readFileSync(join(contractDir, 'openapi-reference-target.json'), 'utf8')));
    target = await targetInProcess(join(work, 'ref.json'));
    ref = JSON.parse(readFileSync(join(work, 'ref.json'), 'utf8'));
  }, 120_000);

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await hostProcess?.end();
    await target?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** Runs the HTTP part of the suite with every host of the reference target behind a Prism proxy validating `doc`. */
  async function throughPrism(doc: string, name: string): Promise<ProxiedRun> {
    const proxies = new Map<string, Prism>();
    await Promise.all(
      HOSTS.filter((host) => ref.hosts[host]).map(async (host) => {
        const p = await prism('proxy', join(contractDir, doc), ref.hosts[host] as string);
        running.push(p);
        proxies.set(host, p);
      }),
    );
    // The same credentials (env_file) and control surface; every HTTP host through its proxy.
    const profile = writeProfile(work, ref, name, Object.fromEntries([...proxies].map(([host, p]) => [host, p.url])));
    const run = await dialtone(['conformance', '--target', profile, '--only', HTTP_ONLY, '--report-dir', join(work, name)], { timeoutMs: 240_000 });
    const results: Results = JSON.parse(readFileSync(join(work, name, 'conformance', 'results.json'), 'utf8'));
    await Promise.all([...proxies.values()].map((p) => p.settled()));
    await Promise.all([...proxies.values()].map((p) => p.stop()));
    const received = [...proxies].flatMap(([, p]) => receivedRequests(p.url, p.log()));
    const hosts = new Map([...proxies].map(([host, p]) => [p.url, host]));
    return {
      proxies,
      run,
      results,
      logged: [...proxies].flatMap(([host, p]) => violationsOf(host, p.log())),
      onWire: attributed(results),
      received,
      outside: without(received, wireRequests(results)),
      hostOf: (origin) => hosts.get(origin) ?? origin,
    };
  }

  /** Requests outside the cases are the reachability probe (once, on base_url) and clean-up DELETEs of not-shown paths. */
  function outsideAccounted(p: ProxiedRun): { probe: string[]; cleanup: string[] } {
    const probePath = `GET /v3/${ref.account_id}/${ref.project_id}/conversations`;
    const request = (r: string) => r.split(' ').slice(1).join(' ');
    const probe = p.outside.filter((r) => request(r) === probePath);
    const cleanup = p.outside.filter((r) => request(r) !== probePath);
    expect(probe.map((r) => p.hostOf(r.split(' ')[0] ?? ''))).toEqual(['base_url']);
    const stray = cleanup.filter((r) => r.split(' ')[1] !== 'DELETE' || notShownFor(notShown, request(r)) === undefined);
    // A request in no wire log, and not a clean-up: the cases that failed for another reason than the proxy are the
    // likeliest to have sent it, so the message names them with their detail.
    const failed = p.results.cases.filter((c) => c.outcome === 'fail' && !(c.rule in CHANGED_BY_THE_PROXY)).map((c) => `${c.rule}: ${c.detail}`);
    expect(stray, `cases that failed besides those the proxy changes: ${failed.join(' | ') || 'none'}`).toEqual([]);
    return { probe, cleanup };
  }

  /** The request violations that are not from a case sending an invalid request on purpose, of the kind it means. */
  const unintended = (onWire: Attributed[]) =>
    onWire
      .filter((v) => v.location.startsWith('request') && v.message !== UNMATCHED)
      .filter((v) => !(INVALID_ON_PURPOSE[v.rule] ?? []).includes(kindOf(v) as Kind));
  const key = (host: string, v: { location: string; message: string }) => `${host} ${v.location} ${v.message}`;
  /** A clean-up request with the case whose wire log shows the thing it deletes being created. */
  const createdBy = (p: ProxiedRun, r: string) => {
    const id = r.split('/').pop() ?? '';
    const cases = p.results.cases.filter((c) => (c.wire ?? []).some((w) => w.request.startsWith('POST') && w.response.includes(id))).map((c) => c.rule);
    return `${r.split(' ').slice(1).join(' ')} (created by ${cases.join(', ') || 'no case'})`;
  };

  describe("as a proxy in front of the reference target, with the reference target's contract", () => {
    let p: ProxiedRun;

    beforeAll(async () => {
      p = await throughPrism('openapi-reference-target.json', 'through-prism');
    }, 300_000);

    it('proxies every HTTP host the reference target names', () => {
      expect([...p.proxies.keys()].sort()).toEqual([...HOSTS].sort());
      expect(p.run.code, p.run.stderr).not.toBeNull();
    });

    it('finds no response violation: every answer of the reference target is one the contract allows', () => {
      expect(p.logged.filter((v) => v.location.startsWith('response'))).toEqual([]);
      expect(p.onWire.filter((v) => v.location.startsWith('response'))).toEqual([]);
      // The proxy saw the run: many requests, a few hundred validated answers.
      expect(p.results.cases.filter((c) => c.outcome === 'pass').length).toBeGreaterThan(200);
    });

    it('matches every request to an operation, the clean-up included: no "route not found"', () => {
      expect(p.onWire.filter((v) => v.message === UNMATCHED).map((v) => `${v.rule}: ${v.request}`)).toEqual([]);
      // The clean-up's requests too, which no case's wire log holds.
      expect(
        p.logged.filter((v) => v.message === UNMATCHED),
        p.outside.join('\n'),
      ).toEqual([]);
    });

    it('is asked by the suite for every path it adds to the published contract', () => {
      const asked = new Set(
        [...wireRequests(p.results), ...p.outside].map((r) => notShownFor(notShown, r.split(' ').slice(1).join(' '))).filter((op) => op !== undefined),
      );
      expect([...asked].sort()).toEqual([...notShown].sort());
      expect(notShown.length).toBeGreaterThan(0);
    });

    it('finds request violations only where a case sends an invalid request on purpose, of the kind it means', () => {
      expect(unintended(p.onWire)).toEqual([]);
      const rules = new Set(p.onWire.map((v) => v.rule));
      expect([...rules].sort()).toEqual(Object.keys(INVALID_ON_PURPOSE).sort());
    });

    it("logs no violation the cases' wire logs do not account for: the probe and the clean-up are valid requests", () => {
      const { cleanup } = outsideAccounted(p);
      const byKind: Record<string, number> = {};
      for (const v of p.onWire.filter((x) => x.location.startsWith('request'))) byKind[kindOf(v)] = (byKind[kindOf(v)] ?? 0) + 1;
      const responses = p.logged.filter((v) => v.location.startsWith('response')).length;
      const unmatched = p.logged.filter((v) => v.message === UNMATCHED).length;
      console.log(
        `reference target's contract: ${p.received.length} requests, ${responses} response violations, ${unmatched} unmatched, request violations by ` +
          `kind ${JSON.stringify(byKind)}; clean-up: ${cleanup.map((r) => createdBy(p, r)).join(', ') || 'none'}`,
      );
      expect(
        without(
          p.logged.map((v) => key(v.host, v)),
          p.onWire.map((v) => key(p.hostOf(v.origin), v)),
        ),
      ).toEqual([]);
      expect(p.logged.length).toBe(p.onWire.length);
    });

    it("passes the HTTP gate through the proxy, but for the cases whose exchange Prism's proxy itself changes", () => {
      const failed = p.results.cases.filter((c) => c.outcome === 'fail').map((c) => c.rule);
      // An unexpected failure says what failed and what it saw, so a failure on a busy runner can be read afterwards.
      const unexpected = p.results.cases.filter((c) => c.outcome === 'fail' && !(c.rule in CHANGED_BY_THE_PROXY)).map((c) => `${c.rule}: ${c.detail}`);
      expect(failed.sort(), unexpected.join('\n')).toEqual(Object.keys(CHANGED_BY_THE_PROXY).sort());
      expect(p.run.code).toBe(1);
    });

    it('reports a response violation when the contract and an answer differ, so the zero above can fail', async () => {
      const doc = JSON.parse(readFileSync(join(contractDir, 'openapi-reference-target.json'), 'utf8'));
      const create = doc.paths['/{version}/{account_id}/{project_id}/chat/create'].post;
      create.responses['2XX'].content['application/json'].schema.properties.conversation_id = { type: 'integer' };
      writeFileSync(join(work, 'broken.json'), JSON.stringify(doc));
      const broken = await prism('proxy', join(work, 'broken.json'), ref.hosts.base_url ?? '');
      running.push(broken);
      const { secrets } = loadProfile(join(work, 'ref.json'));
      const res = await fetch(`${broken.url}/v1/${ref.account_id}/${ref.project_id}/chat/create`, {
        method: 'POST',
        headers: { 'X-API-KEY': secrets.chat_api_key ?? '', 'X-TOKEN': secrets.chat_connector_token ?? '', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('sl-violations') ?? '').toContain('conversation_id');
      await broken.settled();
      expect(violationsOf('base_url', broken.log())).toEqual([
        { host: 'base_url', location: 'response.body.conversation_id', message: 'Response body property conversation_id must be integer' },
      ]);
    });

    it('reports "route not found" when a not-shown path is dropped from it, so the zero above can fail', async () => {
      const doc = JSON.parse(readFileSync(join(contractDir, 'openapi-reference-target.json'), 'utf8'));
      delete doc.paths['/v1/alert-rules/{ruleId}'].get;
      writeFileSync(join(work, 'dropped.json'), JSON.stringify(doc));
      const dropped = await prism('proxy', join(work, 'dropped.json'), ref.hosts.agents_url ?? '');
      running.push(dropped);
      const { secrets } = loadProfile(join(work, 'ref.json'));
      const res = await fetch(`${dropped.url}/v1/alert-rules/ar_0123456789abcdef`, { headers: { 'x-api-key': secrets.agents_api_key ?? '' } });
      expect(res.status).toBe(404);
      expect(res.headers.get('sl-violations') ?? '').toContain(UNMATCHED);
      await dropped.settled();
      expect(violationsOf('agents_url', dropped.log())).toEqual([{ host: 'agents_url', location: 'request', message: UNMATCHED }]);
    });
  });

  describe('as a proxy in front of the reference target, with the published contract', () => {
    let p: ProxiedRun;

    beforeAll(async () => {
      p = await throughPrism('openapi.json', 'through-prism-published');
    }, 300_000);

    it("finds no response violation there either, and request violations only from the cases' invalid requests", () => {
      expect(p.logged.filter((v) => v.location.startsWith('response'))).toEqual([]);
      expect(unintended(p.onWire)).toEqual([]);
    });

    it('leaves exactly the paths the documents do not show unmatched: the contract invents none of them', () => {
      const request = (r: string) => r.split(' ').slice(1).join(' ');
      const { cleanup } = outsideAccounted(p);
      const unmatched = [...p.onWire.filter((v) => v.message === UNMATCHED).map((v) => `${v.origin} ${v.request}`), ...cleanup];
      const notShownAsked = [...wireRequests(p.results), ...cleanup].filter((r) => notShownFor(notShown, request(r)));
      expect(unmatched.sort()).toEqual(notShownAsked.sort());
      expect(new Set(notShownAsked.map((r) => notShownFor(notShown, request(r)))).size).toBe(notShown.length);
      console.log(`published contract: ${unmatched.length} unmatched (${unmatched.length - cleanup.length} from cases, ${cleanup.length} from the clean-up)`);
      // Prism's own log says the same: one "route not found" per such request, no other violation the wire logs lack.
      expect(
        without(
          p.logged.map((v) => key(v.host, v)),
          [
            ...p.onWire.map((v) => key(p.hostOf(v.origin), v)),
            ...cleanup.map((r) => key(p.hostOf(r.split(' ')[0] ?? ''), { location: 'request', message: UNMATCHED })),
          ],
        ),
      ).toEqual([]);
      expect(p.logged.length).toBe(p.onWire.length + cleanup.length);
    });
  });

  describe('as a mock answering the suite in place of a target', () => {
    let run: Awaited<ReturnType<typeof dialtone>>;
    let results: Results;

    beforeAll(async () => {
      // Static answers: the documented examples, else values built from the schemas; the same on every run.
      const mock = await prism('mock', join(contractDir, 'openapi.json'));
      running.push(mock);
      // A real environment's profile: the mock has no control surface, so the cases that need one are skipped.
      const profile = writeProfile(work, ref, 'prism-mock', Object.fromEntries(HOSTS.map((host) => [host, mock.url])), { kind: 'real', control: undefined });
      run = await dialtone(['conformance', '--target', profile, '--only', HTTP_ONLY, '--report-dir', join(work, 'mocked')], { timeoutMs: 240_000 });
      results = JSON.parse(readFileSync(join(work, 'mocked', 'conformance', 'results.json'), 'utf8'));
    }, 300_000);

    it('ends the gate with exit 1, failed rules listed, never an internal error or a hang', () => {
      expect(run.code, run.stderr).toBe(1);
      expect(results.gate).toBe('fail');
      const failedRules = results.rules.filter((r) => r.outcome === 'fail');
      const count: Record<string, number> = {};
      for (const r of results.rules) count[r.outcome] = (count[r.outcome] ?? 0) + 1;
      console.log(`prism mock as the target: exit ${run.code}, rules ${JSON.stringify(count)}, ${results.cases.length} cases`);
      expect(failedRules.length).toBeGreaterThan(20);
      const failedCases = results.cases.filter((c) => c.outcome === 'fail');
      for (const r of failedRules)
        expect(
          failedCases.some((c) => c.rule === r.id),
          r.id,
        ).toBe(true);
    });

    it("fails each case on a named check with a detail, never on a crash of the harness over the mock's answers", () => {
      const failed = results.cases.filter((c) => c.outcome === 'fail');
      expect(failed.filter((c) => !c.check || c.check === 'error').map((c) => `${c.rule}: ${c.detail}`)).toEqual([]);
      for (const c of failed) expect(c.detail.length, c.rule).toBeGreaterThan(0);
      expect(results.cases.filter((c) => c.outcome === 'pass').length).toBeGreaterThan(0);
    });
  });
});
