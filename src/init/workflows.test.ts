import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SCENARIO_DEFAULTS } from '../load/defaults.js';
import { credentialVariables } from './profile-template.js';
import { gateWorkflow, nightlyWorkflow, type WorkflowOptions } from './workflows.js';

interface Step {
  name?: string;
  if?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  environment?: string;
  env: Record<string, string>;
  strategy?: { matrix: { scenario: string[] } };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const scenarios = Object.keys(SCENARIO_DEFAULTS);
const options = (engine: WorkflowOptions['engine'], environments = ['staging', 'pre-release']): WorkflowOptions => ({ environments, engine, scenarios });
const job = (text: string) => Object.values((parse(text) as Workflow).jobs)[0] as Job;
const secretsOf = (vars: string[]) => Object.fromEntries(vars.map((v) => [v, `\${{ secrets.${v} }}`]));

/** Everything a step runs or uses, for the "never fetches k6" checks. */
const commands = (text: string) => job(text).steps.map((s) => `${s.run ?? ''} ${s.uses ?? ''}`);

describe('the workflows of dialtone init', () => {
  it('start with a comment block that says what the workflow does and names the secrets it needs', () => {
    for (const [text, env] of [
      [gateWorkflow(options('builtin')), 'PRE_RELEASE'],
      [nightlyWorkflow(options('builtin')), 'STAGING'],
    ] as const) {
      const header = text.slice(0, text.indexOf('\nname:'));
      expect(
        header
          .split('\n')
          .filter((l) => l !== '')
          .every((l) => l.startsWith('# ')),
      ).toBe(true);
      expect(header).toMatch(/written by `dialtone init`/);
      expect(header.replace(/\n# /g, ' ')).toContain(`${env}_CHAT_API_KEY, ${env}_CHAT_CONNECTOR_TOKEN,`);
      expect(header).toMatch(/Variables: none/);
    }
  });

  it('gate on conformance against the pre-release profile with its secrets, publish the JUnit and upload the report', () => {
    const gate = job(gateWorkflow(options('builtin')));
    expect(gate.env.PROFILE).toBe('dialtone/profiles/pre-release.json');
    expect(gate.environment).toBe('pre-release');
    const run = gate.steps.find((s) => s.run?.startsWith('node_modules/.bin/dialtone conformance'));
    expect(run?.run).toBe('node_modules/.bin/dialtone conformance --target "$PROFILE" --report-dir reports');
    // The same list the profile's credentials name, each from the secret store.
    expect(run?.env).toEqual(secretsOf(credentialVariables('pre-release')));
    const junit = gate.steps.find((s) => s.uses?.startsWith('mikepenz/'));
    expect(junit?.uses).toBe('mikepenz/action-junit-report@v5');
    expect(junit?.with?.report_paths).toBe('reports/conformance/junit.xml');
    expect(gate.steps.find((s) => s.uses === 'actions/upload-artifact@v4')?.with?.path).toBe('reports/conformance/');
    expect((parse(gateWorkflow(options('builtin'))) as Workflow).permissions).toEqual({ contents: 'read', checks: 'write' });
  });

  it('gate the first environment when none is pre-release', () => {
    expect(job(gateWorkflow(options('builtin', ['qa', 'prod']))).env.PROFILE).toBe('dialtone/profiles/qa.json');
  });

  it('install dialtone as the package of the project: setup-node 26 (the active LTS), npm ci, its bin (npx hides exit 105); no clone, no Go', () => {
    for (const text of [gateWorkflow(options('builtin')), nightlyWorkflow(options('builtin')), nightlyWorkflow(options('k6'))]) {
      const steps = job(text).steps;
      expect(steps.find((s) => s.uses === 'actions/setup-node@v4')?.with).toEqual({ 'node-version': 26, cache: 'npm' });
      expect(steps.filter((s) => s.run === 'npm ci')).toHaveLength(1);
      expect(steps.filter((s) => s.run?.includes('dialtone ')).every((s) => s.run?.startsWith('node_modules/.bin/dialtone '))).toBe(true);
      expect(text).not.toMatch(/run: npx/);
      expect(text).not.toMatch(/git clone|setup-go|go (build|install)|repository: .*dialtone/);
    }
    const install = job(gateWorkflow(options('builtin'))).steps.find((s) => s.run === 'npm ci');
    expect(install?.env).toEqual({ DIALTONE_SKIP_CHROMIUM: '1' });
  });

  it('load every scenario of the registry nightly, with its history cached as the nightly of this repository does', () => {
    const nightly = job(nightlyWorkflow(options('builtin')));
    expect(nightly.strategy?.matrix.scenario).toEqual(scenarios);
    expect(nightly.env).toMatchObject({ PROFILE: 'dialtone/profiles/staging.json', HISTORY: `history/\${{ matrix.scenario }}.jsonl` });
    const load = nightly.steps.find((s) => s.run?.startsWith('node_modules/.bin/dialtone load'));
    expect(load?.run).toMatch(/--workload nightly/);
    expect(load?.run).toMatch(/--history "\$HISTORY" --fail-on-regression/);
    expect(load?.env).toEqual(secretsOf(credentialVariables('staging')));
    const [restore, save] = nightly.steps.filter((s) => s.uses?.startsWith('actions/cache/'));
    expect(restore?.uses).toBe('actions/cache/restore@v4');
    expect(save?.uses).toBe('actions/cache/save@v4');
    // A new entry each night (the run id), and the newest of the scenario's restored (the key's prefix).
    const key = `dialtone-history-\${{ matrix.scenario }}-\${{ github.run_id }}`;
    expect(restore?.with).toEqual({ path: 'history', key, 'restore-keys': `dialtone-history-\${{ matrix.scenario }}-` });
    expect(save?.with).toEqual({ path: 'history', key });
    expect(save?.if).toBe(`\${{ !cancelled() && hashFiles(env.HISTORY) != '' }}`);
    expect(nightly.steps.indexOf(restore as Step)).toBeLessThan(nightly.steps.indexOf(load as Step));
    expect(nightly.steps.indexOf(save as Step)).toBeGreaterThan(nightly.steps.indexOf(load as Step));
    expect(nightly.steps.find((s) => s.uses === 'actions/upload-artifact@v4')?.with?.path).toBe('reports/');
  });

  it('run the nightly on the built-in engine, or with --engine k6 on a k6 that only grafana/setup-k6-action installs', () => {
    const builtin = nightlyWorkflow(options('builtin'));
    expect(job(builtin).env.DIALTONE_ENGINE).toBe('builtin');
    expect(builtin).not.toMatch(/k6-action|k6-version/);
    const k6 = nightlyWorkflow(options('k6'));
    // voice-calls imports dialtone's own WebRTC module, which k6 lacks: its job runs on the built-in engine.
    expect(job(k6).env.DIALTONE_ENGINE).toBe(`\${{ contains(fromJSON('["voice-calls"]'), matrix.scenario) && 'builtin' || 'k6' }}`);
    expect(k6).toContain("voice-calls run on dialtone's built-in engine: k6/x/dialtone-voice (k6 has no WebRTC module).");
    expect(job(nightlyWorkflow({ ...options('k6'), scenarios: ['chat-turns'] })).env.DIALTONE_ENGINE).toBe('k6');
    const setup = job(k6).steps.filter((s) => s.uses?.includes('k6'));
    expect(setup).toEqual([{ name: 'Install k6', uses: 'grafana/setup-k6-action@v1', with: { 'k6-version': '2.2.0' } }]);
    expect(k6).toContain('k6-version: "2.2.0"');
    for (const c of [...commands(builtin), ...commands(k6)]) expect(c).not.toMatch(/xk6|k6\.io|grafana\/k6(?!-)|curl|wget|apt(-get)? install/);
  });

  it('read well: blank lines between steps, the matrix and tags on one line, no `null` triggers', () => {
    const nightly = nightlyWorkflow(options('builtin'));
    expect(nightly).toContain(`scenario: [${scenarios.join(', ')}]`);
    expect(nightly).toMatch(/\n\n {6}# A cache entry .*\n {6}- name: Restore the run history\n/);
    expect(nightly).toMatch(/\n\n {6}- name: Install \(dialtone from package\.json\)\n/);
    expect(nightly).toContain('    - cron: "17 2 * * *"\n  workflow_dispatch:\n');
    expect(gateWorkflow(options('builtin'))).toContain('tags: ["v*"]');
    expect(`${nightly}${gateWorkflow(options('builtin'))}`).not.toContain('null');
  });
});

describe('the nightly workflow and Prometheus', () => {
  // Issue 57: "A nightly workflow written by dialtone init shows how to stream a run to a team's Prometheus."
  it('shows, above the load step, how to stream the run to a Prometheus with the engine’s remote-write output', () => {
    for (const engine of ['builtin', 'k6'] as const) {
      const text = nightlyWorkflow({ environments: ['staging'], engine, scenarios: ['chat-turns'] });
      const above = text.slice(0, text.indexOf('name: Load run and regression verdict'));
      const comment = above.slice(above.lastIndexOf('\n\n')).replace(/\n\s*# ?/g, ' ');
      expect(comment).toContain('add `--out experimental-prometheus-rw` to this run line');
      expect(comment).toContain('K6_PROMETHEUS_RW_SERVER_URL: https://prometheus.example.com/api/v1/write');
    }
  });
});
