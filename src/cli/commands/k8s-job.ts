import { mkdirSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { EXIT, UsageError } from '../../errors.js';
import { WORKLOADS } from '../../load/config.js';
import { checkExpectations } from '../../load/expectations.js';
import { scenarioNames } from '../../load/scenarios.js';
import { parseProfile } from '../../profile/load.js';
import { defineCommand, parseCommand } from '../command.js';
import { ALLOW_LIVE_FLAG } from '../flags.js';
import { MANIFEST_FLAGS, profileJson } from '../manifests.js';
import { ROOT } from '../root.js';
import { workloadName } from './load.js';

export const spec = defineCommand({
  name: 'k8s-job',
  summary: "writes a Kubernetes Indexed Job that runs a scenario's segments on N pods of the built-in engine",
  positionals: 'SCENARIO',
  description: `Writes a Kubernetes Indexed Job for a scenario into DIR (default reports/k8s-job/SCENARIO): configmap.yaml (the
  profile) and job.yaml (batch/v1, N pods from 1 to 64; pod i runs 'dialtone load SCENARIO --segment i/N' on the built-in
  engine in IMAGE, default dialtone:VERSION from the Dockerfile). Each pod keeps its results in an emptyDir, turns
  Ready when its segment finished and waits for collect.sh (also written) to copy them; 'dialtone merge' joins them.`,
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
  if (!values.target) throw new UsageError('k8s-job: --target PROFILE is required: the pods load the environment it describes');
  if (values.parallelism === undefined) throw new UsageError('k8s-job: --parallelism N is required: how many pods (segments) share the load, 1 to 64');
  const { parallelism, rate } = values;
  if (values.engine !== undefined && values.engine !== 'builtin')
    throw new UsageError(`k8s-job: --engine must be builtin (the dialtone image has no k6; for k6, use dialtone k6-operator), got '${values.engine}'`);
  const workload = workloadName(values.workload);
  const [{ checkScenario }, { kubernetesName }, { collectLines, jobManifests }, { stringify }] = await Promise.all([
    import('../../load/scenarios.js'),
    import('../../load/operator.js'),
    import('../../load/k8s-job.js'),
    import('yaml'),
  ]);
  checkScenario(ROOT, scenario);
  const secretName = values.secret;
  if (!kubernetesName(secretName))
    throw new UsageError(`k8s-job: --secret must be a Kubernetes name (lowercase letters, digits, '-', '.'), got '${secretName}'`);
  if (values.namespace !== undefined && !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(values.namespace))
    throw new UsageError(`k8s-job: --namespace must be a Kubernetes namespace (lowercase letters, digits, '-'), got '${values.namespace}'`);
  const json = profileJson(values.target);
  checkExpectations(parseProfile(json, values.target), values.target);
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
  console.log(`Indexed Job for ${scenario} on ${parallelism} pods (image ${m.image}): ${shown}/{${Object.keys(m.files).join(',')},collect.sh}`);
  console.log(`the pods read ${m.secretKeys.length ? m.secretKeys.join(', ') : 'no credential'} from the Secret '${secretName}':`);
  console.log(`  ${k} create secret generic ${secretName}${m.secretKeys.map((key) => ` --from-literal=${key}="$${key}"`).join('')}`);
  console.log(`  ${k} delete job ${m.name} --ignore-not-found && ${k} apply -f ${shown}/configmap.yaml -f ${shown}/job.yaml`);
  console.log(`then take the segments and merge them (each pod waits for this after its segment): sh ${shown}/collect.sh`);
  return 0;
}
