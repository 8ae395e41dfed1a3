import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../errors.js';
import type { LoadedProfile } from '../profile/load.js';
import { bundleScenario } from './bundle.js';
import { LOAD_ENV, type LoadConfig, type WorkloadName } from './config.js';
import { chatData } from './data.js';
import type { Engine } from './engine.js';
import { K6_VERSION } from './k6.js';
import { planLoad } from './plan.js';
import { loadConfigOf } from './run-kit.js';
import { refuseOnK6 } from './scenario-modules.js';

/** Where the k6-operator mounts the script's ConfigMap in every runner pod. */
const MOUNT = '/test';
/** A ConfigMap holds at most 1 MiB. */
const CONFIGMAP_LIMIT = 1024 * 1024;

export interface OperatorOptions {
  readonly root: string;
  readonly scenario: string;
  /** How hard the run pushes (smoke, nightly, capacity). */
  readonly workload: WorkloadName;
  readonly loaded: LoadedProfile;
  readonly parallelism: number;
  /** The Kubernetes Secret whose keys are the credential variables' names. */
  readonly secretName: string;
  readonly namespace?: string | undefined;
  readonly image?: string | undefined;
  readonly overrides?: LoadConfig['overrides'];
  /** --allow-live: without it the manifests' plan refuses a live profile, before anything is written. */
  readonly allowLive?: boolean | undefined;
}

/** The manifests, by file name, and the credential variables the Secret must hold. */
export interface OperatorManifests {
  readonly files: Record<string, Record<string, unknown>>;
  readonly secretKeys: string[];
}

/** The name of a scenario's manifests: `dialtone-SCENARIO`. */
export const manifestName = (scenario: string): string => `dialtone-${scenario}`;

/**
 * A Kubernetes name as --secret takes one (a DNS subdomain), or undefined when `v` is not one.
 *
 * @example
 * kubernetesName('dialtone-credentials'); // 'dialtone-credentials'
 * kubernetesName('Credentials'); // undefined
 */
export const kubernetesName = (v: string): string | undefined => (/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(v) && v.length <= 253 ? v : undefined);

/** The metadata every dialtone manifest carries: its name, the namespace when one is given, and labels naming the scenario. */
export function manifestMetadata(name: string, scenario: string, namespace?: string): Record<string, unknown> {
  return {
    name,
    ...(namespace ? { namespace } : {}),
    labels: { 'app.kubernetes.io/name': 'dialtone', 'dialtone/scenario': scenario },
  };
}

/**
 * The ConfigMap that carries a scenario's files into its pods (the k6-operator's runners, the Indexed Job's
 * segments); past the 1 MiB a ConfigMap holds, a usage error naming what it holds.
 *
 * @example
 * scenarioConfigMap({ command: 'k8s-job', name: 'dialtone-chat-turns', scenario: 'chat-turns', data: { 'profile.json': '{}' }, holds: 'the profile' });
 */
export function scenarioConfigMap(map: {
  command: string;
  name: string;
  scenario: string;
  namespace?: string | undefined;
  data: Record<string, string>;
  /** Files that are not text (a k6 archive), base64 as Kubernetes keeps them. */
  binaryData?: Record<string, string>;
  /** What the data is, for the message when it is too big. */
  holds: string;
}): Record<string, unknown> {
  const size = [...Object.values(map.data), ...Object.values(map.binaryData ?? {})].reduce((a, v) => a + Buffer.byteLength(v), 0);
  if (size > CONFIGMAP_LIMIT) throw new UsageError(`${map.command}: ${map.holds} of '${map.scenario}' take ${size} bytes, more than a ConfigMap holds (1 MiB)`);
  const binary = map.binaryData && Object.keys(map.binaryData).length ? { binaryData: map.binaryData } : {};
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: manifestMetadata(map.name, map.scenario, map.namespace), data: map.data, ...binary };
}

/**
 * Container env entries that read each credential variable from the Secret by reference (secretKeyRef): the
 * manifests name a key, never hold a value.
 *
 * @example
 * secretEnvRefs('dialtone-credentials', ['ACME_CHAT_API_KEY']);
 * // [{ name: 'ACME_CHAT_API_KEY', valueFrom: { secretKeyRef: { name: 'dialtone-credentials', key: 'ACME_CHAT_API_KEY' } } }]
 */
export function secretEnvRefs(secretName: string, keys: readonly string[]): Record<string, unknown>[] {
  return keys.map((key) => ({ name: key, valueFrom: { secretKeyRef: { name: secretName, key } } }));
}

/** What the k6-operator's pods run: k6 (its image), never the built-in engine. */
const K6_OPERATOR_ENGINE: Engine = { kind: 'k6', version: K6_VERSION, command: 'k6', args: [] };

/**
 * The k6-operator manifests for one scenario: a ConfigMap with the bundled script, its data file and its
 * LoadConfig, and a TestRun (k6.io/v1alpha1) that runs it on `parallelism` pods (the operator gives each
 * its execution segment). Credentials reach the pods from a Secret by reference (secretKeyRef): no value
 * is ever written.
 *
 * @example
 * const { files, secretKeys } = await operatorManifests({ root, scenario: 'chat-turns', workload: 'nightly', loaded, parallelism: 4, secretName:
 * 'dialtone-credentials' });
 */
export async function operatorManifests(asked: OperatorOptions): Promise<OperatorManifests> {
  // The scenario, the live refusal, the profile's expectations and its conversation scripts, checked before anything
  // is bundled; the dialogues go into the data file as in a local run.
  const { dialogues, shaped } = planLoad({
    command: 'k6-operator',
    root: asked.root,
    scenario: asked.scenario,
    workload: asked.workload,
    target: asked.loaded,
    allowLive: asked.allowLive,
    engine: K6_OPERATOR_ENGINE,
    overrides: asked.overrides,
  });
  // The k6-operator runs k6: a scenario on a module of dialtone's own cannot run there.
  refuseOnK6(K6_OPERATOR_ENGINE, asked.root, asked.scenario, 'the k6-operator runs k6');
  const name = manifestName(asked.scenario);
  const work = mkdtempSync(join(tmpdir(), 'dialtone-operator-'));
  let script: string;
  try {
    // The inline source map would double the size; a pod's stack trace still names the bundled lines.
    script = readFileSync(await bundleScenario(asked.root, asked.scenario, join(work, 'script.js')), 'utf8').replace(
      /\n\/\/# sourceMappingURL=data:[^\n]*\n?$/,
      '\n',
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  const config = loadConfigOf({
    scenario: asked.scenario,
    workload: asked.workload,
    loaded: asked.loaded,
    dataFile: `${MOUNT}/data.json`,
    overrides: asked.overrides,
    dialogues,
    shaped,
  });
  const data = { 'script.js': script, 'data.json': JSON.stringify(chatData(20261121, 500, dialogues)), 'config.json': JSON.stringify(config) };
  const configMap = scenarioConfigMap({
    command: 'k6-operator',
    name,
    scenario: asked.scenario,
    namespace: asked.namespace,
    data,
    holds: 'the bundle, data and config',
  });
  const secretKeys = [...new Set(Object.values(config.secretEnv).filter(Boolean))].sort();
  const testRun = {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: manifestMetadata(name, asked.scenario, asked.namespace),
    spec: {
      parallelism: asked.parallelism,
      script: { configMap: { name, file: 'script.js' } },
      arguments: '--no-color',
      runner: {
        image: asked.image ?? `grafana/k6:${K6_VERSION.slice(1)}`,
        env: [
          { name: LOAD_ENV, valueFrom: { configMapKeyRef: { name, key: 'config.json' } } },
          { name: 'K6_NO_USAGE_REPORT', value: 'true' },
          ...secretEnvRefs(asked.secretName, secretKeys),
        ],
      },
    },
  };
  return { files: { 'configmap.yaml': configMap, 'testrun.yaml': testRun }, secretKeys };
}
