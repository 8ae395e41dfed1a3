import Fastify, { type FastifyInstance } from 'fastify';
import { AlertsPaths } from '../contract/alerts/shapes.js';
import { PlatformNames } from '../contract/names.js';
import { WebhooksPaths } from '../contract/webhooks/shapes.js';
import { UsageError } from '../errors.js';
import { type LoadedProfile, resolveSecrets } from '../profile/load.js';
import type { Credentials, Profile } from '../profile/schema.js';
import { type CapacitySettings, registerAtCapacity } from './capacity.js';
import { AdjustableClock } from './clock.js';
import type { TargetContext } from './context.js';
import { registerControl } from './control-surface.js';
import { ConversationStore } from './conversations.js';
import { type DefectId, DefectSet } from './defects.js';
import { acceptEmptyJson, MalformedJson } from './http.js';
import { SeededRandom } from './ids.js';
import { addLatency, addPlantedDelay, caseWaitFor, LatencyPlan } from './latency.js';
import { agentReplyWaitFor, type LatencySpec, latencyFromEnv } from './latency-spec.js';
import { applyListenerTimeouts, FASTIFY_LIMITS } from './limits.js';
import { OPS, type Op } from './ops.js';
import { DEFAULT_TRAFFIC_SHAPE, type TrafficShape, trafficWindowEnd } from './records/traffic-seed.js';
import { type Retention, retentionOf } from './retention.js';
import { type HostKey, SURFACES } from './surfaces.js';
import { CREDENTIAL_NAMES, type IssuedCredentials, issueCredentials, REFERENCE_TENANT, referenceEnvName } from './tenancy.js';
import type { TlsMaterial } from './tls.js';

export interface TargetOptions {
  readonly defects?: readonly DefectId[];
  /** Seed for ids and generated data; the same seed gives the same data. */
  readonly seed?: number;
  /** Loopback host to bind; ports are always chosen free by the OS. */
  readonly host?: string;
  /** Credentials to issue instead of fresh random ones: the self-test gives all its targets one set. */
  readonly credentials?: IssuedCredentials;
  /**
   * Serve every host (control included) over https and wss with this key and certificate chain; `caFile` is what the
   * profile's `tls.ca_file` names (the caller writes the CA there). Without it, plain http.
   */
  readonly tls?: { readonly material: TlsMaterial; readonly caFile: string };
  /** Serve the browser voice client page on the gateway host (default true); off, the gateway serves only the documented paths. */
  readonly voiceClientPage?: boolean;
  /** Surfaces that serve like a fixed-service-time queue of N requests per second (src/reference-target/capacity.ts). */
  readonly capacity?: CapacitySettings;
  /**
   * How long each op takes (src/reference-target/latency-spec.ts); the draws are seeded by `seed`. Without it,
   * DIALTONE_TARGET_LATENCY's spec, if set.
   */
  readonly latency?: LatencySpec;
  /**
   * How many finished conversations (and equivalents) each store keeps, and how long (src/reference-target/retention.ts). Without
   * it, DIALTONE_TARGET_RETAIN and DIALTONE_TARGET_RETAIN_AGE, else the defaults.
   */
  readonly retention?: Retention;
  /**
   * Seeds the reference project with traffic of known distributions (src/reference-target/records/traffic-seed.ts) in
   * place of the reference history, over the whole days before the target started, drawn with this seed.
   */
  readonly trafficSeed?: number;
  /** How many days of seeded traffic, how much and how it grows (default: a week alike every day, DEFAULT_TRAFFIC_SHAPE). */
  readonly trafficShape?: Partial<TrafficShape>;
}

/** A running reference target: its profile, the secrets the profile references, and a stop. */
export interface RunningTarget {
  readonly profile: Profile;
  /** Environment variables (name to value) that the profile's credential references resolve to. */
  readonly env: Readonly<Record<string, string>>;
  /** The profile with its secrets resolved, ready for clients. */
  readonly loaded: LoadedProfile;
  readonly context: TargetContext;
  close(): Promise<void>;
}

/** The drawn latency of a surface host's requests; the control surface has none. */
interface HostLatency {
  readonly plan: LatencyPlan;
  readonly queued: (op: Op) => boolean;
}

function newApp(tls: TlsMaterial | undefined, latency?: HostLatency): FastifyInstance {
  // With https, fastify hands its `https` options to node's server and ignores `http`: the check interval goes there too.
  const https = tls ? { https: { key: tls.key, cert: tls.cert, ...FASTIFY_LIMITS.http } } : {};
  const app = Fastify({ logger: false, ...FASTIFY_LIMITS, ...https }) as unknown as FastifyInstance;
  applyListenerTimeouts(app);
  acceptEmptyJson(app);
  addPlantedDelay(app);
  if (latency) addLatency(app, latency.plan, latency.queued);
  app.setErrorHandler((error, _req, reply) => {
    if (error instanceof MalformedJson) return reply.code(400).send({ error_message: 'Malformed JSON body' });
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send({ error_message: status >= 500 ? 'Internal error' : (error as Error).message });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error_message: 'Not found' }));
  return app;
}

async function listen(app: FastifyInstance, host: string, scheme: 'http' | 'https'): Promise<string> {
  await app.listen({ host, port: 0 });
  const addr = app.server.address();
  if (!addr || typeof addr === 'string') throw new Error('listener has no port');
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
}

/**
 * Starts the reference target on free loopback ports and returns a profile that describes it.
 *
 * @example
 * const target = await startTarget({ defects: ['chat-close-success-false'] });
 * // ... run the suite against target.loaded ...
 * await target.close();
 */
export async function startTarget(options: TargetOptions = {}): Promise<RunningTarget> {
  const host = options.host ?? '127.0.0.1';
  const clock = new AdjustableClock();
  const rng = new SeededRandom(options.seed ?? 1);
  const chosen = options.latency ? { spec: options.latency } : latencyFromEnv();
  if ('error' in chosen) throw new UsageError(chosen.error);
  const retained = options.retention ? { retention: options.retention } : retentionOf();
  if ('error' in retained) throw new UsageError(retained.error);
  const latency = new LatencyPlan(chosen.spec, options.seed ?? 1);
  // A surface at a known capacity spends its request ops' drawn times in its queue's workers, not before the handler.
  // Surfaces that take their capacity themselves (voice: calls at once) have no request queue to spend a draw in.
  const ownCapacity = new Set<string>();
  const hostLatency: HostLatency = {
    plan: latency,
    queued: (op) => options.capacity?.[OPS[op].surface] !== undefined && !ownCapacity.has(OPS[op].surface),
  };
  const credentials = options.credentials ?? issueCredentials();
  const context: TargetContext = {
    clock,
    defects: new DefectSet(options.defects),
    rng,
    tenant: REFERENCE_TENANT,
    credentials,
    conversations: new ConversationStore(clock, rng, retained.retention),
    chatVersions: ['v1'],
    voiceClientPage: options.voiceClientPage ?? true,
    latency,
    retention: retained.retention,
    traffic:
      options.trafficSeed === undefined
        ? undefined
        : { seed: options.trafficSeed, toMs: trafficWindowEnd(clock.now()), ...DEFAULT_TRAFFIC_SHAPE, ...options.trafficShape },
  };
  const tls = options.tls?.material;
  const scheme = tls ? 'https' : 'http';

  // One app per host key that any surface names, plus the control surface on a port of its own.
  const apps = new Map<HostKey, FastifyInstance>();
  const control = newApp(tls);
  registerControl(control, context);
  const instances = Object.entries(SURFACES).map(([name, surface]) => {
    const instance = surface.create(context);
    const app = apps.get(surface.host) ?? newApp(tls, hostLatency);
    apps.set(surface.host, app);
    const setting = options.capacity?.[name];
    const own = setting !== undefined && instance.atCapacity?.(setting) === true;
    if (own) ownCapacity.add(name);
    registerAtCapacity(app, (scope, admit) => instance.register(scope, admit), own ? undefined : setting, latency.serviceTimes(name));
    instance.control?.(control);
    return instance;
  });

  const all = [...apps.values(), control];
  const closeAll = async () => {
    await Promise.all(instances.map((i) => i.close?.()));
    await Promise.all(all.map((a) => a.close()));
  };
  try {
    const hosts: Partial<Record<HostKey, string>> = {};
    for (const [key, app] of apps) hosts[key] = await listen(app, host, scheme);
    const controlUrl = await listen(control, host, scheme);
    const env: Record<string, string> = { [referenceEnvName('control_token')]: credentials.controlToken };
    const refs: Record<string, { env: string }> = {};
    for (const name of CREDENTIAL_NAMES) {
      env[referenceEnvName(name)] = credentials[name];
      refs[name] = { env: referenceEnvName(name) };
    }
    // The name says how this target was started; the profile schema has no field for it, and reports show the name.
    const started = [
      options.defects?.length ? `defects: ${options.defects.join(', ')}` : '',
      latency.active ? `latency: ${latency.spec.text}` : '',
      options.trafficSeed !== undefined ? `traffic seed: ${options.trafficSeed}` : '',
    ];
    const profile: Profile = {
      name: started.some(Boolean) ? `reference (${started.filter(Boolean).join('; ')})` : 'reference',
      ...(options.defects?.length ? { defects: [...options.defects] } : {}),
      kind: 'reference',
      environment: 'sandbox',
      region: 'us-1',
      agents_region: 'us',
      api_version: 'v1',
      hosts: { base_url: hosts.base_url ?? controlUrl, ...hosts },
      account_id: REFERENCE_TENANT.accountSlug,
      account_id_alt: REFERENCE_TENANT.accountId,
      project_id: REFERENCE_TENANT.projectSlug,
      project_id_alt: REFERENCE_TENANT.projectId,
      variant_id: REFERENCE_TENANT.variants[0]?.id,
      variant_id_alt: REFERENCE_TENANT.variants[1]?.id,
      credentials: refs as Credentials,
      names: PlatformNames.parse(undefined),
      cleanup: { alert_rule: `${AlertsPaths.alertRules}/{id}`, webhook_endpoint: `${WebhooksPaths.endpoints}/{id}` },
      chat_script: { handoff_message: 'Can I speak to a person, please?', goodbye_message: 'That is all, thank you. Goodbye!' },
      control: { url: controlUrl, token: { env: referenceEnvName('control_token') } },
      ...(options.tls ? { tls: { ca_file: options.tls.caFile, insecure: false } } : {}),
    };
    // A slowed agent, or every answer slowed on purpose, is waited for as long as it takes, as a real platform's profile would say.
    const waits = { agent_reply_ms: agentReplyWaitFor(latency.spec), case_ms: caseWaitFor() };
    if (Object.values(waits).some((ms) => ms !== undefined)) profile.waits = waits;
    return {
      profile,
      env,
      loaded: { profile, path: undefined, secrets: resolveSecrets(profile, undefined, env) },
      context,
      close: closeAll,
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
