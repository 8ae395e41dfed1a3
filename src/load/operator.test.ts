import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { ROOT } from '../cli/root.js';
import { parseProfile } from '../profile/load.js';
import { findGo, findGoTool } from '../tools/go-tools.js';
import { EXAMPLE_PROFILE } from './example-profile.js';
import { operatorManifests } from './operator.js';

/** The k6-operator release whose TestRun CRD the manifests are checked against. */
const OPERATOR = 'github.com/grafana/k6-operator@v1.6.0';

/**
 * Used only when the Go module proxy does not serve the operator (it answers 403 for it today): the
 * fields dialtone writes, with the types and required keys of the operator's TestRun CRD
 * (config/crd/bases/k6.io_testruns.yaml, v1alpha1), closed so that any other key fails.
 */
const closed = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});
const keyRef = closed({ key: { type: 'string' }, name: { type: 'string' }, optional: { type: 'boolean' } }, ['key']);
const TESTRUN_FIELDS_WE_WRITE = closed(
  {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: closed(
      {
        parallelism: { type: 'integer', format: 'int32' },
        arguments: { type: 'string' },
        script: closed({ configMap: closed({ name: { type: 'string' }, file: { type: 'string' } }, ['name']) }),
        runner: closed({
          image: { type: 'string' },
          env: {
            type: 'array',
            items: closed({ name: { type: 'string' }, value: { type: 'string' }, valueFrom: closed({ configMapKeyRef: keyRef, secretKeyRef: keyRef }) }, [
              'name',
            ]),
          },
        }),
      },
      ['parallelism', 'script'],
    ),
  },
  ['apiVersion', 'kind', 'spec'],
);
/** core/v1 ConfigMap, as far as the manifests use it. */
const CONFIGMAP = closed(
  {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    data: { type: 'object', additionalProperties: { type: 'string' } },
  },
  ['apiVersion', 'kind'],
);

/** The TestRun schema from the operator's own CRD, fetched through the Go module proxy, or the fallback above. */
function testRunSchema(): { schema: unknown; from: string } {
  const go = findGo();
  const r = go
    ? spawnSync(go, ['mod', 'download', '-json', OPERATOR], { cwd: tmpdir(), encoding: 'utf8', timeout: 60_000, env: { ...process.env, GOFLAGS: '-mod=mod' } })
    : undefined;
  const dir = r?.status === 0 ? (JSON.parse(r.stdout) as { Dir?: string }).Dir : undefined;
  const crd = dir ? join(dir, 'config/crd/bases/k6.io_testruns.yaml') : undefined;
  if (!crd || !existsSync(crd)) return { schema: TESTRUN_FIELDS_WE_WRITE, from: 'fields we write (the proxy does not serve the operator)' };
  const doc = parseYaml(readFileSync(crd, 'utf8')) as { spec: { versions: { name: string; schema: { openAPIV3Schema: unknown } }[] } };
  return { schema: doc.spec.versions.find((v) => v.name === 'v1alpha1')?.schema.openAPIV3Schema, from: OPERATOR };
}

let dir = '';
let schemas = '';
let files: Record<string, Record<string, unknown>> = {};
const PROFILE = EXAMPLE_PROFILE;

function kubeconform(manifests: Record<string, Record<string, unknown>>): { status: number | null; out: string } {
  const bin = findGoTool(ROOT, 'kubeconform');
  if (!bin) throw new Error('kubeconform is not built: run npm install');
  const paths = Object.entries(manifests).map(([name, m]) => {
    const p = join(dir, name);
    writeFileSync(p, stringify(m, { lineWidth: 0 }));
    return p;
  });
  const r = spawnSync(bin, ['-strict', '-summary', '-schema-location', join(schemas, '{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json'), ...paths], {
    encoding: 'utf8',
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dialtone-operator-'));
  schemas = mkdtempSync(join(tmpdir(), 'dialtone-schemas-'));
  const { schema, from } = testRunSchema();
  console.log(`TestRun schema: ${from}`);
  writeFileSync(join(schemas, 'testrun_v1alpha1.json'), JSON.stringify(schema));
  writeFileSync(join(schemas, 'configmap_v1.json'), JSON.stringify(CONFIGMAP));
  const loaded = { profile: parseProfile(PROFILE, 'staging-us.json'), path: 'staging-us.json', secrets: { chat_api_key: 'never-written-7f3a' } };
  ({ files } = await operatorManifests({
    root: ROOT,
    scenario: 'chat-turns',
    workload: 'nightly',
    loaded,
    parallelism: 4,
    secretName: 'dialtone-credentials',
  }));
}, 60_000);

describe('k6-operator manifests', () => {
  it('validate with kubeconform against the TestRun schema and a ConfigMap schema', () => {
    const r = kubeconform(files);
    expect(r.out).toMatch(/Summary: 2 resources found in 2 files - Valid: 2, Invalid: 0, Errors: 0, Skipped: 0/);
    expect(r.status).toBe(0);
  });

  it('fail kubeconform when the TestRun is wrong, so the check can fail', () => {
    const testRun = files['testrun.yaml'] as { spec: Record<string, unknown> };
    const bad = { ...testRun, spec: { ...testRun.spec, parallelism: 'four' } };
    const r = kubeconform({ 'testrun.yaml': bad });
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/Invalid: 1/);
  });

  it('hold the bundled script, its data and its config, and reach the credentials only through a Secret reference', () => {
    const text = Object.values(files)
      .map((m) => JSON.stringify(m))
      .join('\n');
    expect(text).not.toContain('never-written-7f3a');
    const data = (files['configmap.yaml'] as { data: Record<string, string> }).data;
    expect(Object.keys(data).sort()).toEqual(['config.json', 'data.json', 'script.js']);
    expect(JSON.parse(data['config.json'] as string)).toMatchObject({
      scenario: 'chat-turns',
      dataFile: '/test/data.json',
      secretEnv: { chat_api_key: 'ACME_CHAT_API_KEY' },
    });
    const env = (files['testrun.yaml'] as { spec: { runner: { env: { name: string; valueFrom?: unknown }[] } } }).spec.runner.env;
    expect(env.find((e) => e.name === 'ACME_CHAT_API_KEY')).toEqual({
      name: 'ACME_CHAT_API_KEY',
      valueFrom: { secretKeyRef: { name: 'dialtone-credentials', key: 'ACME_CHAT_API_KEY' } },
    });
  });

  it("judge by the profile's SLOs and run its workload, as a local run does", async () => {
    const profile = {
      ...PROFILE,
      slos: { 'chat-turns': { 'http_req_duration{op:chat.respond}': ['p(95)<3000'] } },
      workloads: { 'chat-turns': { nightly: { rate: 12 } } },
    };
    const loaded = { profile: parseProfile(profile, 'staging-us.json'), path: 'staging-us.json', secrets: {} };
    const m = await operatorManifests({ root: ROOT, scenario: 'chat-turns', workload: 'nightly', loaded, parallelism: 2, secretName: 'dialtone-credentials' });
    const config = JSON.parse((m.files['configmap.yaml'] as { data: Record<string, string> }).data['config.json'] as string);
    expect(config.thresholds['http_req_duration{op:chat.respond}']).toEqual(['p(95)<3000']);
    expect(config.thresholds['http_req_duration{op:chat.create}']).toEqual(['p(95)<500']);
    expect(config.shape).toMatchObject({ executor: 'constant-arrival-rate', rate: 12 });
  });
});
