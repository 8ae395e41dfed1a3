import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { EXIT, UsageError } from '../../errors.js';
import { WORKLOADS } from '../../load/config.js';
import { builtinEngine } from '../../load/engine.js';
import type { JobManifests } from '../../load/k8s-job.js';
import { scenarioNames } from '../../load/scenarios.js';
import { isScriptPath } from '../../load/script-run.js';
import { defineCommand, type FlagValues, parseCommand } from '../command.js';
import { ALLOW_LIVE_FLAG } from '../flags.js';
import { MANIFEST_FLAGS, profileJson } from '../manifests.js';
import { ROOT } from '../root.js';
import { workloadName } from './load.js';

export const spec = defineCommand({
  name: 'k8s-job',
  summary: "writes a Kubernetes Indexed Job that runs a scenario's segments on N pods of the built-in engine",
  positionals: 'SCENARIO|SCRIPT',
  description: `Writes a Kubernetes Indexed Job for a scenario into DIR (default reports/k8s-job/SCENARIO): configmap.yaml (the
  profile) and job.yaml (batch/v1, N pods from 1 to 64; pod i runs 'dialtone load SCENARIO --segment i/N' on the built-in
  engine in IMAGE, default dialtone:VERSION from the Dockerfile). Each pod keeps its results in an emptyDir, turns
  Ready when its segment finished and waits for collect.sh (also written) to copy them; 'dialtone merge' joins them.
  A path to a k6 script of your own (./test.js) is archived here with every module (remote ones fetched now) and
  opened file, the archive carried in the ConfigMap (at most 1 MiB), and each pod runs its segment of the archive with
  no network needed for modules; the script's options set its load (no --target, no --rate). An archive made before
  (dialtone-engine archive -e NAME=VALUE script.js) goes as it is.`,
  flags: {
    ...MANIFEST_FLAGS,
    parallelism: { ...MANIFEST_FLAGS.parallelism, max: 64 },
    engine: { type: 'string', value: 'builtin', help: 'the engine of the pods: the dialtone image has no k6 (for k6, use dialtone k6-operator).' },
    'allow-live': ALLOW_LIVE_FLAG,
  },
  exits: { [EXIT.ok]: 'written', [EXIT.usage]: 'a usage error or a bad profile' },
  accepts: () => ({ scenarios: scenarioNames(ROOT), workloads: WORKLOADS }),
});

/** Writes the ConfigMap, the Indexed Job and collect.sh, and says which Secret keys they expect and how to run them. */
export async function k8sJob(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(spec, argv);
  const [scenario, ...extra] = positionals;
  if (!scenario) throw new UsageError('k8s-job: name a scenario, e.g. dialtone k8s-job chat-turns --target staging.json --parallelism 4');
  if (extra.length) throw new UsageError(`k8s-job: unexpected argument '${extra[0]}'`);
  if (isScriptPath(scenario)) return scriptJob(scenario, values);
  if (!values.target) throw new UsageError('k8s-job: --target PROFILE is required: the pods load the environment it describes');
  if (values.parallelism === undefined) throw new UsageError('k8s-job: --parallelism N is required: how many pods (segments) share the load, 1 to 64');
  const { parallelism, rate } = values;
  if (values.engine !== undefined && values.engine !== 'builtin')
    throw new UsageError(`k8s-job: --engine must be builtin (the dialtone image has no k6; for k6, use dialtone k6-operator), got '${values.engine}'`);
  const workload = workloadName(values.workload);
  const [{ kubernetesName }, { jobManifests }] = await Promise.all([import('../../load/operator.js'), import('../../load/k8s-job.js')]);
  const secretName = values.secret;
  checkNames(values, kubernetesName);
  const json = profileJson(values.target);
  // The Job's load plan checks the scenario and the profile (the live refusal first) before anything is written.
  const m = jobManifests({
    root: ROOT,
    scenario,
    workload,
    profile: { json, path: values.target },
    parallelism,
    secretName,
    namespace: values.namespace,
    image: values.image,
    overrides: rate || values.duration ? { rate, duration: values.duration } : undefined,
    allowLive: values['allow-live'],
  });
  return writeJob(m, scenario, values);
}

/** The manifests, collect.sh, and what to run, written and said. */
async function writeJob(m: JobManifests, scenario: string, values: FlagValues<(typeof spec)['flags']>): Promise<number> {
  const [{ collectLines }, { stringify }] = await Promise.all([import('../../load/k8s-job.js'), import('yaml')]);
  const { parallelism } = values as { parallelism: number };
  const dir = resolve(values['out-dir'] ?? `reports/k8s-job/${scenario}`);
  const shown = relative(process.cwd(), dir) || '.';
  mkdirSync(dir, { recursive: true });
  for (const [file, manifest] of Object.entries(m.files)) writeFileSync(resolve(dir, file), stringify(manifest, { lineWidth: 0 }));
  const collect = collectLines({ name: m.name, scenario, parallelism, dir: shown, namespace: values.namespace, timeoutSeconds: m.activeDeadlineSeconds });
  writeFileSync(
    resolve(dir, 'collect.sh'),
    `#!/bin/sh\n# Takes each segment's results from its pod once it finished, releases the pod, merges the segments.\n# Run it from the directory 'dialtone k8s-job' ran in.\nset -e\n${collect.join('\n')}\n`,
  );
  const k = `kubectl${values.namespace ? ` -n ${values.namespace}` : ''}`;
  const secretName = values.secret;
  console.log(`Indexed Job for ${scenario} on ${parallelism} pods (image ${m.image}): ${shown}/{${Object.keys(m.files).join(',')},collect.sh}`);
  console.log(`the pods read ${m.secretKeys.length ? m.secretKeys.join(', ') : 'no credential'} from the Secret '${secretName}':`);
  console.log(`  ${k} create secret generic ${secretName}${m.secretKeys.map((key) => ` --from-literal=${key}="$${key}"`).join('')}`);
  console.log(`  ${k} delete job ${m.name} --ignore-not-found && ${k} apply -f ${shown}/configmap.yaml -f ${shown}/job.yaml`);
  console.log(`then take the segments and merge them (each pod waits for this after its segment): sh ${shown}/collect.sh`);
  return 0;
}

/** --secret and --namespace as Kubernetes takes them. */
function checkNames(values: FlagValues<(typeof spec)['flags']>, kubernetesName: (v: string) => string | undefined): void {
  if (!kubernetesName(values.secret))
    throw new UsageError(`k8s-job: --secret must be a Kubernetes name (lowercase letters, digits, '-', '.'), got '${values.secret}'`);
  if (values.namespace !== undefined && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(values.namespace))
    throw new UsageError(`k8s-job: --namespace must be a Kubernetes namespace (lowercase letters, digits, '-'), got '${values.namespace}'`);
}

/**
 * `dialtone k8s-job ./script.js`: the script archived here by the built-in engine (`dialtone-engine archive`: its
 * modules, remote ones fetched now, and the files it opens), the archive in the ConfigMap, and each pod running
 * `dialtone load /config/NAME.tar --segment i/N` with no network needed for modules. The script's options set its load.
 */
async function scriptJob(script: string, values: FlagValues<(typeof spec)['flags']>): Promise<number> {
  if (!existsSync(script)) throw new UsageError(`k8s-job: no script at '${script}'`);
  if (values.parallelism === undefined) throw new UsageError('k8s-job: --parallelism N is required: how many pods (segments) share the load, 1 to 64');
  for (const flag of ['target', 'rate'] as const)
    if (values[flag] !== undefined) throw new UsageError(`k8s-job: --${flag} is for dialtone's scenarios; a script sets its own load and hosts in its options`);
  if (values.engine !== undefined && values.engine !== 'builtin')
    throw new UsageError(`k8s-job: --engine must be builtin (the dialtone image has no k6; for k6, use dialtone k6-operator), got '${values.engine}'`);
  const [{ kubernetesName }, { jobManifests }] = await Promise.all([import('../../load/operator.js'), import('../../load/k8s-job.js')]);
  checkNames(values, kubernetesName);
  // The name the pods' reports take (DIR/load/NAME): the file name, as Kubernetes takes a name.
  const name = `${basename(script)
    .replace(/\.tar$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9.-]/g, '-')}.tar`;
  // An archive made beforehand (dialtone-engine archive -e NAME=VALUE … script.js, or k6's own) goes as it is.
  const archive = /\.tar$/i.test(script) ? readFileSync(script) : archiveScript(script);
  const m = jobManifests({
    root: ROOT,
    scenario: name,
    // A script's length is its own: bounded as a nightly run is, unless --duration sets it.
    workload: 'nightly',
    script: { name, archive },
    parallelism: values.parallelism,
    secretName: values.secret,
    namespace: values.namespace,
    image: values.image,
    overrides: values.duration ? { duration: values.duration } : undefined,
    allowLive: values['allow-live'],
  });
  return writeJob(m, name, values);
}

/** The script's archive, made by the built-in engine in a process of its own; its refusal is its one line, exit 2 here. */
function archiveScript(script: string): Buffer {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-k8s-job-'));
  try {
    const engine = builtinEngine(ROOT);
    const out = join(work, 'archive.tar');
    const r = spawnSync(engine.command, [...engine.args, 'archive', '-O', out, script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    if (r.status !== 0) {
      const line = (r.stderr || r.stdout || '')
        .trim()
        .split('\n')
        .pop()
        ?.replace(/^ERRO\[\d+\] /, '');
      throw new UsageError(`k8s-job: the script cannot be archived: ${line || `the engine exited ${r.status}`}`);
    }
    return readFileSync(out);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
