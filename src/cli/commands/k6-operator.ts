import { mkdirSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { EXIT, UsageError } from '../../errors.js';
import { WORKLOADS } from '../../load/config.js';
import { scenarioNames } from '../../load/scenarios.js';
import { defineCommand, parseCommand } from '../command.js';
import { ALLOW_LIVE_FLAG } from '../flags.js';
import { MANIFEST_FLAGS, profileJson } from '../manifests.js';
import { ROOT } from '../root.js';
import { workloadName } from './load.js';

export const spec = defineCommand({
  name: 'k6-operator',
  summary: 'writes the k6-operator manifests (ConfigMap, TestRun) to run a scenario on N pods',
  positionals: 'SCENARIO',
  description: `Writes the k6-operator manifests for a scenario into DIR (default reports/k6-operator/SCENARIO): configmap.yaml
  (the bundled script, its data and its config) and testrun.yaml (a k6.io/v1alpha1 TestRun on N pods, 1 to 1000). A
  profile whose environment is live is refused unless --allow-live is given.`,
  flags: { ...MANIFEST_FLAGS, parallelism: { ...MANIFEST_FLAGS.parallelism, max: 1000 }, 'allow-live': ALLOW_LIVE_FLAG },
  exits: { [EXIT.ok]: 'written', [EXIT.usage]: 'a usage error or a bad profile' },
  accepts: () => ({ scenarios: scenarioNames(ROOT), workloads: WORKLOADS }),
});

/** Writes the ConfigMap and TestRun for the k6-operator and says which Secret keys they expect. */
export async function k6Operator(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(spec, argv);
  const [scenario, ...extra] = positionals;
  if (!scenario) throw new UsageError('k6-operator: name a scenario, e.g. dialtone k6-operator chat-turns --target staging.json --parallelism 4');
  if (extra.length) throw new UsageError(`k6-operator: unexpected argument '${extra[0]}'`);
  if (!values.target) throw new UsageError('k6-operator: --target PROFILE is required: the pods load the environment it describes');
  const { parallelism, rate } = values;
  if (parallelism === undefined) throw new UsageError('k6-operator: --parallelism N is required: how many pods (segments) share the load, 1 to 1000');
  const secretName = values.secret;
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(secretName))
    throw new UsageError(`k6-operator: --secret must be a Kubernetes name (lowercase letters, digits, '-', '.'), got '${secretName}'`);
  const [{ parseProfile }, { operatorManifests }, { stringify }] = await Promise.all([
    import('../../profile/load.js'),
    import('../../load/operator.js'),
    import('yaml'),
  ]);
  // The manifests' load plan checks the scenario and the profile (the live refusal first) before anything is written.
  const { files, secretKeys } = await operatorManifests({
    root: ROOT,
    scenario,
    workload: workloadName(values.workload),
    loaded: { profile: parseProfile(profileJson(values.target), values.target), path: values.target, secrets: {} },
    parallelism,
    secretName,
    namespace: values.namespace,
    image: values.image,
    overrides: rate || values.duration ? { rate, duration: values.duration } : undefined,
    allowLive: values['allow-live'],
  });
  const dir = resolve(values['out-dir'] ?? `reports/k6-operator/${scenario}`);
  mkdirSync(dir, { recursive: true });
  for (const [file, manifest] of Object.entries(files)) writeFileSync(resolve(dir, file), stringify(manifest, { lineWidth: 0 }));
  console.log(`k6-operator manifests for ${scenario} on ${parallelism} pods: ${relative(process.cwd(), dir)}/{${Object.keys(files).join(',')}}`);
  console.log(`the runners read ${secretKeys.length ? secretKeys.join(', ') : 'no credential'} from the Secret '${secretName}':`);
  console.log(`  kubectl create secret generic ${secretName}${secretKeys.map((k) => ` --from-literal=${k}="$${k}"`).join('')}`);
  console.log(`  kubectl apply -f ${relative(process.cwd(), dir)}/configmap.yaml -f ${relative(process.cwd(), dir)}/testrun.yaml`);
  return 0;
}
