// What the manifest commands (k6-operator, k8s-job) share: reading the profile, and their common flags.
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { WORKLOADS } from '../load/config.js';
import type { FlagSpecs } from './command.js';

/**
 * A profile file's JSON for the manifest commands (k6-operator, k8s-job): they need its hosts and the names of its
 * credential variables, never their values. A missing or broken file is a one-line usage error.
 *
 * @example
 * const raw = profileJson('staging-us.json');
 */
export function profileJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UsageError(
      `${path}: ${(e as NodeJS.ErrnoException).code ? 'profile not found or not readable' : `not valid JSON (${(e as Error).message.split('\n')[0]})`}`,
    );
  }
}

/** The flags both manifest commands take (k6-operator, k8s-job); each adds its own. */
export const MANIFEST_FLAGS = {
  target: { type: 'string', value: 'PROFILE', help: 'the profile of the environment the pods load (required).' },
  parallelism: { type: 'string', value: 'N', kind: 'positive-integer', help: 'how many pods share the load (required).' },
  workload: { type: 'string', choices: WORKLOADS, help: 'how hard the run pushes.', default: 'smoke' },
  'out-dir': { type: 'string', value: 'DIR', help: 'where the manifests go.', defaultText: 'reports/COMMAND/SCENARIO' },
  secret: {
    type: 'string',
    value: 'NAME',
    help: 'the Kubernetes Secret the credentials come from, by reference; no value is written.',
    default: 'dialtone-credentials',
  },
  namespace: { type: 'string', value: 'NS', help: 'the Kubernetes namespace of the manifests.' },
  image: { type: 'string', value: 'IMAGE', help: 'the container image the pods run.' },
  rate: { type: 'string', value: 'N', kind: 'positive-integer', help: "replaces the workload's arrival rate, in iterations a second." },
  duration: { type: 'string', value: 'DURATION', kind: 'duration', help: "replaces the workload's length." },
} as const satisfies FlagSpecs;
