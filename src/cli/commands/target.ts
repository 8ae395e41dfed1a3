import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { EXIT, UsageError } from '../../errors.js';
import { parseCapacity } from '../../reference-target/capacity.js';
import { Defects } from '../../reference-target/defects.js';
import { LATENCY_ENV, type LatencySpec, latencyFromEnv, latencyGrammar, parseLatency } from '../../reference-target/latency-spec.js';
import { DEFAULT_TRAFFIC_SHAPE, seededConversations, type TrafficShape } from '../../reference-target/records/traffic-seed.js';
import { DEFAULT_RETENTION, describeRetention, formatAge, RETAIN_AGE_ENV, RETAIN_ENV, type Retention, retentionOf } from '../../reference-target/retention.js';
import { startTarget } from '../../reference-target/server.js';
import { SURFACES } from '../../reference-target/surfaces.js';
import { makeTlsMaterial, type TlsMaterial } from '../../reference-target/tls.js';
import { AGENT_OPS, learnedLatencySpec } from '../../traffic/latency.js';
import { readModel } from '../../traffic/model-file.js';
import { defineCommand, parseCommand } from '../command.js';
import { defectIds } from '../target-session.js';

/** The most conversations the traffic flags may seed: every one is held in memory (about 16 kB each). */
const MAX_SEEDED_CONVERSATIONS = 25_000;
/** The longest seeded window, in days. */
const MAX_TRAFFIC_DAYS = 366;

export const spec = defineCommand({
  name: 'target',
  summary: 'starts the reference target on this machine and writes a profile for it; runs until interrupted',
  description: `Starts the reference target on free loopback ports and writes a profile for it. Its credentials go to a
  sibling .env file (mode 600) that the profile names in env_file; they are never printed. Runs until interrupted.`,
  flags: {
    defect: { type: 'string', multiple: true, value: 'ID', help: 'starts the target with this defect: it breaks the rules the defect names.' },
    'profile-out': { type: 'string', value: 'FILE', help: 'where the profile goes.', default: '.dialtone/reference.json' },
    seed: { type: 'string', value: 'N', kind: 'integer', help: 'seeds the latency draws (one stream per op) and the generated data.' },
    tls: {
      type: 'boolean',
      help: 'serves every host over https and wss, with a CA made at start (or the given certificate chain and key); the CA goes to a sibling -ca.pem file that the profile names in tls.ca_file.',
    },
    'tls-cert': { type: 'string', value: 'FILE', help: 'with --tls, the certificate chain to serve (PEM), with --tls-key.' },
    'tls-key': { type: 'string', value: 'FILE', help: 'with --tls, the key of --tls-cert (PEM).' },
    'tls-ca': { type: 'string', value: 'FILE', help: 'with --tls-cert, the CA that signed it, for the profile to trust.' },
    'no-voice-client-page': { type: 'boolean', help: 'the gateway serves only the documented paths, as a real gateway does.' },
    capacity: {
      type: 'string',
      multiple: true,
      value: 'SURFACE=N',
      help: "makes a surface serve N requests per second and no more (a queue with a fixed service time), so 'dialtone capacity' can be checked against a known capacity. voice=N is N calls at once instead: the offer of a call beyond them waits until one ends.",
    },
    latency: {
      type: 'string',
      multiple: true,
      value: 'SPEC|FILE.json',
      help: `makes ops take as long as a real agent platform's: 'realistic' (agent turns p50 1.5 s, p95 4.5 s; other calls p50 80 ms, p95 250 ms; streamed chunks every 60 ms p50, 200 ms p95), or your own. ${latencyGrammar('')} A FILE.json is a traffic model ('dialtone traffic learn'): the agent ops (${AGENT_OPS.join(', ')}) answer lognormal through its learned agent latency p50 and p95. With --capacity, a surface's request ops spend their drawn time in its queue's workers and N becomes its mean throughput.`,
      defaultText: `$${LATENCY_ENV}, if set`,
    },
    retain: {
      type: 'string',
      value: 'N',
      help: 'keeps at most N finished conversations (closed chats, ended calls), and as many of each other finished thing (bridge-ended notifications, external events); the oldest finished go first.',
      defaultText: `$${RETAIN_ENV}, else ${DEFAULT_RETENTION.maxCount}`,
    },
    'retain-age': {
      type: 'string',
      value: 'DURATION',
      help: "keeps each of them at most this long after it finished (90s, 30m, 2h). Open conversations, live sessions, the seeded history, and what the documents keep retrievable for a time (a call's status 2 hours, an idle session 10 minutes) stay.",
      defaultText: `$${RETAIN_AGE_ENV}, else ${formatAge(DEFAULT_RETENTION.maxAgeMs)}`,
    },
    'traffic-seed': {
      type: 'string',
      value: 'N',
      kind: 'integer',
      help: `seeds the reference project with traffic of known distributions instead of the reference history: the whole UTC days before today, the same arrivals per hour of day every day, lognormal think times and agent latencies (src/reference-target/records/traffic-seed.ts), drawn with seed N, for 'dialtone traffic learn' to learn from. At most ${MAX_SEEDED_CONVERSATIONS.toLocaleString('en')} conversations in all (each is held in memory).`,
    },
    'traffic-days': {
      type: 'string',
      value: 'N',
      kind: 'integer',
      min: 1,
      max: MAX_TRAFFIC_DAYS,
      help: 'how many whole days before today the seeded traffic covers.',
      defaultText: String(DEFAULT_TRAFFIC_SHAPE.days),
    },
    'traffic-scale': {
      type: 'string',
      value: 'F',
      kind: 'positive-number',
      max: 1,
      help: "seeds this share of every hour's arrivals.",
      defaultText: String(DEFAULT_TRAFFIC_SHAPE.scale),
    },
    'traffic-growth': {
      type: 'string',
      value: 'P%',
      kind: 'percent',
      help: "grows every hour's arrivals by P % of the first day's a day, so the daily peak grows by a known amount: hour h of day d (0 the oldest) starts round(n(h) x F x (1 + P/100 x d)).",
      defaultText: `${DEFAULT_TRAFFIC_SHAPE.growth * 100}%`,
    },
  },
  exits: {
    [EXIT.ok]: 'stopped by SIGINT, SIGTERM or SIGHUP after it served',
  },
  accepts: () => ({ defects: Object.keys(Defects), surfaces: Object.keys(SURFACES) }),
});

/** Reads a file named by a flag; a missing one is a usage error naming the flag. */
function readFlagFile(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`target: ${flag}: cannot read ${path}`);
  }
}

/** The key, chain and CA for --tls: the given files, or a CA and certificate made now. */
async function tlsMaterial(v: { tls?: boolean; 'tls-cert'?: string; 'tls-key'?: string; 'tls-ca'?: string }): Promise<TlsMaterial | undefined> {
  const given = v['tls-cert'] !== undefined || v['tls-key'] !== undefined || v['tls-ca'] !== undefined;
  if (!v.tls) {
    if (given) throw new UsageError('target: --tls-cert, --tls-key and --tls-ca go with --tls');
    return undefined;
  }
  if (!given) return makeTlsMaterial();
  if (!v['tls-cert'] || !v['tls-key']) throw new UsageError('target: --tls-cert and --tls-key go together');
  const cert = readFlagFile('--tls-cert', v['tls-cert']);
  const key = readFlagFile('--tls-key', v['tls-key']);
  try {
    createSecureContext({ cert, key }); // a key that does not match the certificate fails here, not at the first handshake
  } catch (e) {
    throw new UsageError(`target: --tls-cert/--tls-key: ${(e as Error).message}`);
  }
  // Without --tls-ca, clients trust the certificate itself (a self-signed one is its own CA).
  return { cert, key, ca: v['tls-ca'] ? readFlagFile('--tls-ca', v['tls-ca']) : cert };
}

/**
 * The seeded traffic's shape from --traffic-days, --traffic-scale and --traffic-growth (undefined without them); each
 * needs --traffic-seed, and the whole must fit in memory. A bad one is a usage error.
 */
function trafficShapeOf(
  values: { 'traffic-days'?: number | undefined; 'traffic-scale'?: number | undefined; 'traffic-growth'?: number | undefined },
  seeded: boolean,
): TrafficShape | undefined {
  const given = (['days', 'scale', 'growth'] as const).filter((n) => values[`traffic-${n}`] !== undefined);
  if (given.length === 0) return undefined;
  if (!seeded) throw new UsageError(`target: --traffic-${given[0]} goes with --traffic-seed`);
  const growth = values['traffic-growth'];
  const shape = {
    days: values['traffic-days'] ?? DEFAULT_TRAFFIC_SHAPE.days,
    scale: values['traffic-scale'] ?? DEFAULT_TRAFFIC_SHAPE.scale,
    growth: growth === undefined ? DEFAULT_TRAFFIC_SHAPE.growth : growth / 100,
  };
  const n = seededConversations(shape);
  if (n > MAX_SEEDED_CONVERSATIONS)
    throw new UsageError(
      `target: the traffic flags seed ${n.toLocaleString('en')} conversations, above the ${MAX_SEEDED_CONVERSATIONS.toLocaleString('en')} held in memory; lower --traffic-scale or --traffic-days`,
    );
  return shape;
}

/** The latency spec: the --latency flags (their entries joined; a .json file is a traffic model), else DIALTONE_TARGET_LATENCY; a bad one is a usage error. */
function latencyOf(flags: readonly string[] | undefined): LatencySpec {
  const entries = flags?.map((f) => (f.trim().endsWith('.json') ? learnedLatencySpec(readModel(f.trim(), 'target: --latency')) : f));
  const parsed = entries?.length ? parseLatency(entries.join(';')) : latencyFromEnv();
  if ('error' in parsed) throw new UsageError(`target: ${parsed.error}`);
  return parsed.spec;
}

/** The retention: each bound from its flag, else its variable, else the default; a bad one is a usage error. */
function retentionFlags(count: string | undefined, age: string | undefined): Retention {
  const parsed = retentionOf({ count, age });
  if ('error' in parsed) throw new UsageError(`target: ${parsed.error}`);
  return parsed.retention;
}

/** Starts the reference target in the foreground. */
export async function target(argv: string[]): Promise<number> {
  const { values } = parseCommand(spec, argv);
  const capacity = parseCapacity(values.capacity ?? [], Object.keys(SURFACES));
  if ('error' in capacity) throw new UsageError(`target: ${capacity.error}`);
  const latency = latencyOf(values.latency);
  const retention = retentionFlags(values.retain, values['retain-age']);
  const { seed, 'traffic-seed': trafficSeed } = values;
  const trafficShape = trafficShapeOf(values, trafficSeed !== undefined);
  const out = resolve(values['profile-out']);
  const envFile = `${out.replace(/\.json$/, '')}.env`;
  const caFile = `${out.replace(/\.json$/, '')}-ca.pem`;
  const material = await tlsMaterial(values);
  mkdirSync(dirname(out), { recursive: true });
  if (material) writeFileSync(caFile, material.ca);
  const running = await startTarget({
    defects: defectIds(values.defect ?? []),
    ...(seed !== undefined ? { seed } : {}),
    ...(material ? { tls: { material, caFile: basename(caFile) } } : {}),
    voiceClientPage: !values['no-voice-client-page'],
    capacity: capacity.settings,
    latency,
    retention,
    ...(trafficSeed !== undefined ? { trafficSeed } : {}),
    ...(trafficShape ? { trafficShape } : {}),
  });
  writeFileSync(
    envFile,
    `${Object.entries(running.env)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n')}\n`,
    { mode: 0o600 },
  );
  writeFileSync(out, `${JSON.stringify({ ...running.profile, env_file: basename(envFile) }, null, 2)}\n`);
  console.log(
    `reference target listening: ${Object.entries(running.profile.hosts)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}`,
  );
  if (running.context.defects.ids.length) console.log(`defects on: ${running.context.defects.ids.join(', ')}`);
  if (latency.ops.size > 0) console.log(`latency: ${latency.text} (seed ${running.context.latency.seed})`);
  const defaultRetention = retention.maxCount === DEFAULT_RETENTION.maxCount && retention.maxAgeMs === DEFAULT_RETENTION.maxAgeMs;
  const traffic = running.context.traffic;
  if (traffic) {
    const from = new Date(traffic.toMs - traffic.days * 86_400_000).toISOString();
    const shape = traffic.scale !== 1 || traffic.growth !== 0 ? `, ${traffic.scale} of the arrivals growing ${traffic.growth * 100} % a day` : '';
    console.log(`traffic: seeded from ${from} to ${new Date(traffic.toMs).toISOString()} (seed ${traffic.seed}${shape})`);
  }
  if (!defaultRetention) console.log(`retention: ${describeRetention(retention)}`);
  console.log(`profile: ${out} (credentials in ${envFile}); stop with Ctrl-C`);
  await new Promise<void>((done) => {
    for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(sig, () => done());
  });
  await running.close();
  return 0;
}
