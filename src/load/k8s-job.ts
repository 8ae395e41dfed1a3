// `dialtone k8s-job`: a Kubernetes Indexed Job that runs one execution segment of a load per pod on the dialtone image
// (the built-in engine, no k6), for `dialtone merge` to join. The k6-operator's manifests (operator.ts) are the k6 way.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { parseProfile } from '../profile/load.js';
import { trustOf } from '../profile/tls.js';
import { DIALTONE_VERSION } from '../version.js';
import type { LoadConfig, WorkloadName } from './config.js';
import { builtinEngine } from './engine.js';
import { HISTOGRAMS_FILE } from './extras.js';
import { manifestMetadata, manifestName, scenarioConfigMap, secretEnvRefs } from './operator.js';
import { planLoad, runLimitSeconds, type TargetedPlan } from './plan.js';
import { drivesChromium } from './scenario-modules.js';

/** Where each pod mounts the ConfigMap (profile.json; ca.pem and dialogues.json when the profile names those files). */
export const CONFIG_MOUNT = '/config';
/** Each pod's emptyDir: `dialtone load --report-dir` writes RESULTS/load/SCENARIO there. */
export const RESULTS_MOUNT = '/results';
/** Seconds a Job may take before its load starts: scheduling, pulling the image, Node and the bundle starting. */
export const START_ALLOWANCE_S = 300;
/** Seconds a finished pod stays up for `kubectl cp` to take its results, unless told earlier that they were taken. */
export const COLLECT_WINDOW_S = 900;
/** The file a pod writes when its segment finished (its readiness probe) and the one `collect` writes when it took them. */
const DONE = `${RESULTS_MOUNT}/.done`;
const COLLECTED = `${RESULTS_MOUNT}/.collected`;

/** What one segment's pod asks for: the built-in engine is one Node process; a browser scenario adds Chromium. */
const RESOURCES = { requests: { cpu: '1', memory: '1Gi' }, limits: { memory: '2Gi' } };
const BROWSER_RESOURCES = { requests: { cpu: '2', memory: '2Gi' }, limits: { memory: '4Gi' } };

export interface JobOptions {
  readonly root: string;
  readonly scenario: string;
  readonly workload: WorkloadName;
  /** The profile file as read (JSON) and where it was read from: a tls.ca_file is relative to it. None for a script. */
  readonly profile?: { readonly json: unknown; readonly path: string } | undefined;
  /**
   * A user's own k6 script instead of a scenario, as an archive (`dialtone-engine archive`: its modules, remote ones
   * included, and the files it opens), carried in the ConfigMap as `name`; `scenario` is then that name.
   */
  readonly script?: { readonly name: string; readonly archive: Buffer } | undefined;
  /** Pods, each running segment i/N: 1..64 (what `dialtone load --segment` takes). */
  readonly parallelism: number;
  /** The Kubernetes Secret whose keys are the credential variables' names. */
  readonly secretName: string;
  readonly namespace?: string | undefined;
  /** Default `dialtone:VERSION`, VERSION from package.json (the Dockerfile at the repository root builds it). */
  readonly image?: string | undefined;
  readonly overrides?: LoadConfig['overrides'];
  /** Passes --allow-live to every pod; without it the Job's plan refuses a live profile, before anything is applied. */
  readonly allowLive?: boolean | undefined;
}

export interface JobManifests {
  /** The manifests by file name: configmap.yaml and job.yaml. */
  readonly files: Record<string, Record<string, unknown>>;
  /** The credential variables the Secret must hold. */
  readonly secretKeys: string[];
  readonly name: string;
  readonly image: string;
  readonly activeDeadlineSeconds: number;
}

/** The default image: `dialtone:` and dialtone's version (the one in package.json). */
export const defaultImage = (): string => `dialtone:${DIALTONE_VERSION}`;

/**
 * The plan of a scenario's Job (src/load/plan.ts): the profile the pods read, checked here (the live refusal, its
 * expectations, its dialogues) before anything is applied, on the built-in engine the image runs.
 */
function jobPlan(o: JobOptions & { profile: NonNullable<JobOptions['profile']> }): TargetedPlan {
  const loaded = { profile: parseProfile(o.profile.json, o.profile.path), path: o.profile.path, secrets: {} };
  const { root, scenario, workload, allowLive, overrides } = o;
  return planLoad({ command: 'k8s-job', root, scenario, workload, target: loaded, allowLive, engine: builtinEngine(root), overrides });
}

/**
 * The profile as the pods read it, and the ConfigMap's other files: no env_file (the credentials come from the
 * Secret), a tls.ca_file carried in the ConfigMap as ca.pem beside it, and a dialogues file as dialogues.json.
 */
function podProfile(plan: TargetedPlan, read: unknown): { data: Record<string, string>; keys: string[] } {
  const { profile, path } = plan.loaded;
  const json = { ...(read as Record<string, unknown>) };
  delete json.env_file;
  const data: Record<string, string> = {};
  const trust = trustOf(profile, path);
  if (trust.ca) {
    json.tls = { ...(json.tls as Record<string, unknown>), ca_file: 'ca.pem' };
    data['ca.pem'] = `${trust.ca.join('\n')}\n`;
  }
  if (plan.dialogues) {
    json.dialogues = 'dialogues.json';
    data['dialogues.json'] = readFileSync(plan.dialogues.path, 'utf8');
  }
  data['profile.json'] = `${JSON.stringify(json, null, 2)}\n`;
  const refs = [...Object.values(profile.credentials).map((r) => r?.env), profile.control?.token.env];
  return { data, keys: [...new Set(refs.filter((k): k is string => Boolean(k)))].sort() };
}

/** `dialtone load`'s arguments in every pod, up to (not including) its segment. */
function loadArgs(o: JobOptions): string[] {
  const x = o.overrides;
  // A script's own options set its load; the archive runs with no network (src/engine/archive.ts).
  if (o.script)
    return ['npx', 'dialtone', 'load', `${CONFIG_MOUNT}/${o.script.name}`, '--engine', 'builtin', ...(x?.duration ? ['--duration', x.duration] : [])];
  return [
    ...['npx', 'dialtone', 'load', o.scenario, '--target', `${CONFIG_MOUNT}/profile.json`, '--workload', o.workload, '--engine', 'builtin'],
    ...(x?.rate ? ['--rate', String(x.rate)] : []),
    ...(x?.duration ? ['--duration', x.duration] : []),
    ...(x?.maxVUs ? ['--max-vus', String(x.maxVUs)] : []),
    ...(o.allowLive ? ['--allow-live'] : []),
  ];
}

/**
 * The pod's shell script. JOB_COMPLETION_INDEX (0-based, set by Kubernetes in an Indexed Job) becomes dialtone's
 * 1-based segment. A segment that wrote its histograms succeeds whatever its own thresholds said (the merge judges
 * those on the whole run); one that did not fails, and with backoffLimit 0 fails the Job without a retry that would
 * add load. A finished pod turns Ready and waits for its results to be copied.
 */
export function segmentScript(job: JobOptions): string {
  // Every word is checked before it gets here (a scenario file's name, a workload, numbers, a duration): no quoting needed.
  const args = loadArgs(job).join(' ');
  if (!/^[-\w ./]+$/.test(args)) throw new UsageError(`k8s-job: cannot put '${args}' in a shell command`);
  const dir = `${RESULTS_MOUNT}/load/${job.scenario}`;
  return [
    'if [ -z "$JOB_COMPLETION_INDEX" ]; then echo "dialtone: no JOB_COMPLETION_INDEX: this script runs in a pod of an Indexed Job" >&2; exit 2; fi',
    `segment="$((JOB_COMPLETION_INDEX + 1))/${job.parallelism}"`,
    `${args} --segment "$segment" --report-dir ${RESULTS_MOUNT}`,
    'code=$?',
    `if [ ! -f ${dir}/${HISTOGRAMS_FILE} ]; then`,
    '  echo "dialtone: segment $segment wrote no histograms (dialtone load exited $code)" >&2',
    '  exit $((code == 0 ? 1 : code))',
    'fi',
    `touch ${DONE}`,
    'echo "dialtone: segment $segment finished (dialtone load exited $code; dialtone merge judges the thresholds on the whole run)"',
    `echo "dialtone: waiting up to ${COLLECT_WINDOW_S} s for kubectl cp to take ${dir} (then: touch ${COLLECTED})"`,
    'waited=0',
    `while [ ! -f ${COLLECTED} ] && [ "$waited" -lt ${COLLECT_WINDOW_S} ]; do sleep 5; waited=$((waited + 5)); done`,
    `[ -f ${COLLECTED} ] || echo "dialtone: segment $segment was not collected; its results go with the pod" >&2`,
    '',
  ].join('\n');
}

/**
 * The Indexed Job for one scenario and the ConfigMap it reads: N pods, pod i running `dialtone load --segment i/N` on
 * the dialtone image and writing to an emptyDir. Credentials reach the pods from a Secret by reference (secretKeyRef):
 * no value is ever written.
 *
 * @example
 * const { files, secretKeys } = jobManifests({ root, scenario: 'chat-turns', workload: 'nightly', profile: { json, path: 'staging.json' }, parallelism: 4,
 * secretName: 'dialtone-credentials' });
 */
export function jobManifests(asked: JobOptions): JobManifests {
  if (!(Number.isInteger(asked.parallelism) && asked.parallelism >= 1 && asked.parallelism <= 64))
    throw new UsageError(`k8s-job: --parallelism must be an integer from 1 to 64, got '${asked.parallelism}'`);
  // A script's file name holds dots, which a pod's host name (the Job's name and its index) may not.
  const name = manifestName(asked.script ? asked.scenario.replace(/\.tar$/, '').replace(/\./g, '-') : asked.scenario);
  if (!asked.script && !asked.profile) throw new UsageError('k8s-job: a scenario needs --target PROFILE');
  const { data, keys } =
    asked.profile && !asked.script ? podProfile(jobPlan({ ...asked, profile: asked.profile }), asked.profile.json) : { data: {}, keys: [] };
  const configMap = scenarioConfigMap({
    command: 'k8s-job',
    name,
    scenario: asked.scenario,
    namespace: asked.namespace,
    data,
    ...(asked.script ? { binaryData: { [asked.script.name]: asked.script.archive.toString('base64') } } : {}),
    holds: asked.script ? 'the archive' : 'the profile',
  });
  const browser = asked.script ? /["']k6\/browser["']/.test(asked.script.archive.toString('latin1')) : drivesChromium(asked.root, asked.scenario);
  const image = asked.image ?? defaultImage();
  // The Job's whole life: the start, the scenario's own bound (as `dialtone load` bounds it), the window to collect.
  const activeDeadlineSeconds = START_ALLOWANCE_S + runLimitSeconds(asked.workload, asked.overrides?.duration) + COLLECT_WINDOW_S;
  const { labels } = manifestMetadata(name, asked.scenario) as { labels: Record<string, string> };
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: manifestMetadata(name, asked.scenario, asked.namespace),
    spec: {
      completionMode: 'Indexed',
      completions: asked.parallelism,
      parallelism: asked.parallelism,
      backoffLimit: 0,
      activeDeadlineSeconds,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'dialtone',
              image,
              command: ['sh', '-c', segmentScript(asked)],
              env: secretEnvRefs(asked.secretName, keys),
              resources: browser ? BROWSER_RESOURCES : RESOURCES,
              readinessProbe: { exec: { command: ['test', '-f', DONE] }, periodSeconds: 5 },
              volumeMounts: [
                { name: 'config', mountPath: CONFIG_MOUNT, readOnly: true },
                { name: 'results', mountPath: RESULTS_MOUNT },
                // Chromium's shared memory: the container runtime's 64 MiB default crashes its renderers.
                ...(browser ? [{ name: 'dshm', mountPath: '/dev/shm' }] : []),
              ],
            },
          ],
          volumes: [
            { name: 'config', configMap: { name } },
            { name: 'results', emptyDir: {} },
            ...(browser ? [{ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } }] : []),
          ],
        },
      },
    },
  };
  return { files: { 'configmap.yaml': configMap, 'job.yaml': job }, secretKeys: keys, name, image, activeDeadlineSeconds };
}

/**
 * The shell lines that take every segment's results once the pods are Ready (their segment finished), release the
 * pods, and merge the segments; run from the directory `dir` is relative to (where `npx dialtone` finds dialtone).
 *
 * @example
 * collectLines({ name: 'dialtone-chat-turns', scenario: 'chat-turns', parallelism: 3, dir: 'reports/k8s-job/chat-turns' });
 */
export function collectLines(job: {
  name: string;
  scenario: string;
  parallelism: number;
  dir: string;
  namespace?: string | undefined;
  timeoutSeconds: number;
}): string[] {
  const k = `kubectl${job.namespace ? ` -n ${job.namespace}` : ''}`;
  const segments = `${job.dir}/segments`;
  return [
    `mkdir -p ${segments}`,
    `until [ "$(${k} get pod -l job-name=${job.name} -o name | wc -l)" -ge ${job.parallelism} ]; do sleep 5; done`,
    `${k} wait --for=condition=Ready pod -l job-name=${job.name} --timeout=${job.timeoutSeconds}s`,
    `for i in $(seq 0 ${job.parallelism - 1}); do` +
      ` pod=$(${k} get pod -l job-name=${job.name},batch.kubernetes.io/job-completion-index=$i -o jsonpath='{.items[0].metadata.name}')` +
      ` && ${k} cp "$pod:${RESULTS_MOUNT}/load/${job.scenario}" "${segments}/$((i + 1))"` +
      ` && ${k} exec "$pod" -- touch ${COLLECTED} || exit 1; done`,
    `npx dialtone merge ${segments}/* --report-dir ${job.dir}/merged`,
  ];
}
