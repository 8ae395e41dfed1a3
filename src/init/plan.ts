// What `dialtone init` writes into a project, and what it tells the user to do next. The files come from the
// profile template and the workflows; the .gitignore is appended to, not planned here (src/init/write.ts).
import { gateEnvironment, nightlyEnvironment, variablePrefix } from './environments.js';
import { credentialVariables, profilePath, profileText } from './profile-template.js';
import { GATE_WORKFLOW, gateWorkflow, NIGHTLY_WORKFLOW, nightlyWorkflow, type WorkflowOptions } from './workflows.js';
import type { PlannedFile } from './write.js';

/**
 * Every file init creates: a profile per environment, then the two workflows.
 *
 * @example
 * initFiles({ environments: ['staging', 'pre-release'], engine: 'builtin', scenarios: ['chat-turns'] }).map((f) => f.path);
 * // ['dialtone/profiles/staging.json', 'dialtone/profiles/pre-release.json', '.github/workflows/dialtone-gate.yml', '.github/workflows/dialtone-nightly.yml']
 */
export function initFiles(workflow: WorkflowOptions): PlannedFile[] {
  return [
    ...workflow.environments.map((env) => ({ path: profilePath(env), text: profileText(env) })),
    { path: GATE_WORKFLOW, text: gateWorkflow(workflow) },
    { path: NIGHTLY_WORKFLOW, text: nightlyWorkflow(workflow) },
  ];
}

/**
 * The CI secrets the workflows read: the credential variables of the gate's and the nightly's environments.
 *
 * @example
 * ciSecrets(['staging', 'pre-release'])[0]; // 'PRE_RELEASE_CHAT_API_KEY'
 */
export function ciSecrets(environments: readonly string[]): string[] {
  return workflowEnvironments(environments).flatMap(credentialVariables);
}

/** The environments the workflows run against, each once: the gate's, then the nightly's. */
const workflowEnvironments = (environments: readonly string[]) => [...new Set([gateEnvironment(environments), nightlyEnvironment(environments)])];

/**
 * What to do once the files are there, in two lines.
 *
 * @example
 * nextSteps(['staging', 'pre-release'])[1]; // 'then: npx dialtone conformance --target dialtone/profiles/pre-release.json, with PRE_RELEASE_* set'
 */
export function nextSteps(environments: readonly string[]): string[] {
  const secrets = workflowEnvironments(environments).map((env) => `${variablePrefix(env)}_*`);
  const gate = gateEnvironment(environments);
  return [
    `next: fill in the hosts, ids and chat_script of ${environments.map(profilePath).join(', ')} (drop the hosts and credentials of ` +
      `surfaces you do not have) and add to your CI the secrets the workflows' headers list (${secrets.join(', ')}, one per credential)`,
    `then: npx dialtone conformance --target ${profilePath(gate)}, with ${variablePrefix(gate)}_* set`,
  ];
}
