import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { findGoTool } from '../src/tools/go-tools.js';
import { ROOT } from './run-cli.js';

const WORKFLOWS = join(ROOT, '.github', 'workflows');

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  env?: Record<string, string>;
  jobs: Record<string, { steps: Step[]; env?: Record<string, string> }>;
}
const workflow = (file: string) => parse(readFileSync(join(WORKFLOWS, file), 'utf8')) as Workflow;
const steps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps);

function actionlint(...files: string[]) {
  const bin = findGoTool(ROOT, 'actionlint');
  if (!bin) throw new Error('actionlint is not built: run npm install');
  return spawnSync(bin, ['-no-color', ...files], { cwd: ROOT, encoding: 'utf8' });
}

describe('the CI workflows', () => {
  it('pass actionlint', () => {
    const r = actionlint();
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('fail actionlint when a workflow is broken, so the check can fail', () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'dialtone-actionlint-')), 'bad.yml');
    writeFileSync(bad, readFileSync(join(WORKFLOWS, 'nightly-load.yml'), 'utf8').replace('matrix.scenario }}"', 'matrix.scenarios }}"'));
    const r = actionlint(bad);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/property "scenarios" is not defined/);
  });

  it('run the nightly load on a schedule with its history, the verdict as the result and the reports as artifacts', () => {
    const w = workflow('nightly-load.yml');
    expect(w.on.schedule).toEqual([{ cron: expect.any(String) }]);
    const all = steps(w);
    const load = all.find((s) => s.run?.includes('npx dialtone load'));
    expect(load?.run).toMatch(/--fail-on-regression/);
    expect(load?.run).toMatch(/--history "\$HISTORY"/);
    expect(all.filter((s) => s.uses?.startsWith('actions/cache')).map((s) => s.with?.path)).toEqual(['history', 'history']);
    expect(all.find((s) => s.uses?.startsWith('actions/upload-artifact'))?.with?.path).toBe('reports/');
    // The built-in engine unless the repository asks for k6, which only Grafana's own action installs.
    expect(w.jobs.load?.env?.DIALTONE_ENGINE).toMatch(/^\$\{\{ vars\.DIALTONE_NIGHTLY_ENGINE \|\| 'builtin' \}\}$/);
    expect(all.find((s) => s.uses?.startsWith('grafana/setup-k6-action'))?.with?.['k6-version']).toBe('2.2.0');
  });

  it('never build or fetch k6 themselves: no Go toolchain, no k6 build cache; k6 only through grafana/setup-k6-action@v1', () => {
    for (const file of readdirSync(WORKFLOWS)) {
      const all = steps(workflow(file));
      expect(
        all.filter((s) => s.uses?.startsWith('actions/setup-go')),
        file,
      ).toEqual([]);
      expect(
        all.filter((s) => s.uses?.startsWith('actions/cache') && s.with?.path === '.tools'),
        file,
      ).toEqual([]);
      for (const s of all) {
        expect(`${s.run ?? ''} ${s.uses ?? ''}`, file).not.toMatch(/go (build|install)|k6\.io|xk6|grafana\/k6(?!-)|apt(-get)? install.*\bk6\b/);
        if (s.uses?.includes('k6')) expect(s.uses, file).toBe('grafana/setup-k6-action@v1');
      }
    }
  });

  it('run the k6-engine tests on a k6 installed by grafana/setup-k6-action, failing when no k6 was found', () => {
    const all = steps(workflow('k6-engine.yml'));
    const setup = all.findIndex((s) => s.uses === 'grafana/setup-k6-action@v1');
    expect(all[setup]?.with?.['k6-version']).toBe('2.2.0');
    const tests = all.findIndex((s) => s.run?.includes('tests/k6-engine.test.ts'));
    expect(tests).toBeGreaterThan(setup);
    expect(all[tests]?.env?.DIALTONE_REQUIRE_K6).toBe('1');
  });

  it('gate a release on conformance with credentials from the secret store only, and publish its JUnit', () => {
    const all = steps(workflow('pre-release-gate.yml'));
    const gate = all.find((s) => s.run?.includes('npx dialtone conformance'));
    expect(Object.values(gate?.env ?? {}).length).toBeGreaterThan(0);
    for (const v of Object.values(gate?.env ?? {})) expect(v).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
    expect(all.find((s) => s.uses?.startsWith('mikepenz/action-junit-report'))?.with?.report_paths).toBe('reports/conformance/junit.xml');
  });
});
