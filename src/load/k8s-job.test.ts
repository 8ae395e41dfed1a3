import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ROOT } from '../cli/root.js';
import { makeTlsMaterial } from '../reference-target/tls.js';
import { findGo, findGoTool } from '../tools/go-tools.js';
import { EXAMPLE_PROFILE } from './example-profile.js';
import { COLLECT_WINDOW_S, collectLines, type JobOptions, jobManifests, START_ALLOWANCE_S } from './k8s-job.js';
import { runLimitSeconds } from './plan.js';

/**
 * The Kubernetes release whose OpenAPI (api/openapi-spec/v3 in the k8s.io/kubernetes Go module) the manifests are
 * checked against. kubeconform carries no schemas of its own: it downloads them, which a test must not need.
 */
const KUBERNETES = 'k8s.io/kubernetes@v1.33.0';

type Schema = Record<string, unknown>;

/** Closes every object schema that lists its properties, as kubeconform's -strict schemas do: an unknown key fails. */
function closeObjects(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(closeObjects);
  if (!v || typeof v !== 'object') return v;
  const o = Object.fromEntries(
    Object.entries(v).map(([k, x]) => [
      k,
      k === 'properties' ? Object.fromEntries(Object.entries(x as Schema).map(([p, s]) => [p, closeObjects(s)])) : closeObjects(x),
    ]),
  );
  return o.properties && !('additionalProperties' in o) ? { ...o, additionalProperties: false } : o;
}

/** One kind's JSON schema from an OpenAPI v3 document of Kubernetes: its components, entered at the kind. */
function kindSchema(file: string, component: string): Schema {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { components: { schemas: Record<string, unknown> } };
  return { allOf: [{ $ref: `#/components/schemas/${component}` }], components: { schemas: closeObjects(doc.components.schemas) } };
}

/** Used only when neither Go nor the module cache can give the Kubernetes OpenAPI: the fields dialtone writes, closed. */
const closed = (properties: Schema, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
  additionalProperties: false,
});
const str = { type: 'string' };
const int = { type: 'integer' };
const strings = { type: 'array', items: str };
const quantities = { type: 'object', additionalProperties: str };
const keyRef = closed({ key: str, name: str, optional: { type: 'boolean' } }, ['key']);
const JOB_FIELDS_WE_WRITE = closed(
  {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: closed(
      {
        completionMode: str,
        completions: int,
        parallelism: int,
        backoffLimit: int,
        activeDeadlineSeconds: int,
        template: closed({
          metadata: { type: 'object' },
          spec: closed(
            {
              restartPolicy: str,
              containers: {
                type: 'array',
                items: closed(
                  {
                    name: str,
                    image: str,
                    command: strings,
                    env: {
                      type: 'array',
                      items: closed({ name: str, value: str, valueFrom: closed({ configMapKeyRef: keyRef, secretKeyRef: keyRef }) }, ['name']),
                    },
                    resources: closed({ requests: quantities, limits: quantities }),
                    readinessProbe: closed({ exec: closed({ command: strings }), periodSeconds: int }),
                    volumeMounts: { type: 'array', items: closed({ name: str, mountPath: str, readOnly: { type: 'boolean' } }, ['name', 'mountPath']) },
                  },
                  ['name'],
                ),
              },
              volumes: {
                type: 'array',
                items: closed({ name: str, configMap: closed({ name: str }), emptyDir: closed({ medium: str, sizeLimit: str }) }, ['name']),
              },
            },
            ['containers'],
          ),
        }),
      },
      ['template'],
    ),
  },
  ['apiVersion', 'kind'],
);
const CONFIGMAP_FIELDS_WE_WRITE = closed({ apiVersion: str, kind: str, metadata: { type: 'object' }, data: { type: 'object', additionalProperties: str } }, [
  'apiVersion',
  'kind',
]);

/** The Job and ConfigMap schemas from Kubernetes' own OpenAPI, fetched as a Go module (then cached), or the fallback. */
function kubernetesSchemas(): { job: Schema; configMap: Schema; from: string } {
  const go = findGo();
  const r = go ? spawnSync(go, ['mod', 'download', '-json', KUBERNETES], { cwd: tmpdir(), encoding: 'utf8', timeout: 120_000 }) : undefined;
  const dir = r?.status === 0 ? (JSON.parse(r.stdout) as { Dir?: string }).Dir : undefined;
  const v3 = dir ? join(dir, 'api/openapi-spec/v3') : undefined;
  if (!v3 || !existsSync(join(v3, 'apis__batch__v1_openapi.json')))
    return { job: JOB_FIELDS_WE_WRITE, configMap: CONFIGMAP_FIELDS_WE_WRITE, from: 'fields we write (no Go, or the module proxy is out of reach)' };
  return {
    job: kindSchema(join(v3, 'apis__batch__v1_openapi.json'), 'io.k8s.api.batch.v1.Job'),
    configMap: kindSchema(join(v3, 'api__v1_openapi.json'), 'io.k8s.api.core.v1.ConfigMap'),
    from: KUBERNETES,
  };
}

let dir = '';
let schemas = '';
const PROFILE = { ...EXAMPLE_PROFILE, env_file: 'staging.env' };
const OPTIONS: JobOptions = {
  root: ROOT,
  scenario: 'chat-turns',
  workload: 'nightly',
  profile: { json: PROFILE, path: 'staging-us.json' },
  parallelism: 3,
  secretName: 'dialtone-credentials',
};

type Job = {
  metadata: { name: string };
  spec: {
    completionMode: string;
    completions: number;
    parallelism: number;
    backoffLimit: number;
    activeDeadlineSeconds: number;
    template: {
      spec: {
        restartPolicy: string;
        containers: {
          image: string;
          command: string[];
          env: { name: string; value?: string; valueFrom?: unknown }[];
          resources: { requests: Record<string, string> };
          volumeMounts: { name: string; mountPath: string }[];
        }[];
        volumes: { name: string; configMap?: { name: string }; emptyDir?: Record<string, unknown> }[];
      };
    };
  };
};
const jobOf = (files: Record<string, unknown>) => files['job.yaml'] as Job;
const containerOf = (files: Record<string, unknown>) => jobOf(files).spec.template.spec.containers[0] as Job['spec']['template']['spec']['containers'][0];

function kubeconform(manifests: Record<string, unknown>): { status: number | null; out: string } {
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

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dialtone-k8s-job-'));
  schemas = mkdtempSync(join(tmpdir(), 'dialtone-schemas-'));
  const { job, configMap, from } = kubernetesSchemas();
  console.log(`Job and ConfigMap schemas: ${from}`);
  writeFileSync(join(schemas, 'job_v1.json'), JSON.stringify(job));
  writeFileSync(join(schemas, 'configmap_v1.json'), JSON.stringify(configMap));
}, 150_000);

describe('the Indexed Job of dialtone k8s-job', () => {
  it('is a batch/v1 Indexed Job of N pods, with no retry, resource requests and a deadline from the scenario bound', () => {
    const { files, image, activeDeadlineSeconds } = jobManifests(OPTIONS);
    const job = jobOf(files);
    expect(job).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'dialtone-chat-turns' } });
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 3, parallelism: 3, backoffLimit: 0 });
    expect(job.spec.activeDeadlineSeconds).toBe(START_ALLOWANCE_S + runLimitSeconds('nightly', undefined) + COLLECT_WINDOW_S);
    expect(activeDeadlineSeconds).toBe(job.spec.activeDeadlineSeconds);
    expect(jobOf(jobManifests({ ...OPTIONS, overrides: { duration: '1h' } }).files).spec.activeDeadlineSeconds).toBe(
      START_ALLOWANCE_S + 3600 + 300 + COLLECT_WINDOW_S,
    );
    const pod = job.spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    const c = containerOf(files);
    expect(image).toBe(`dialtone:${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}`);
    expect(c.image).toBe(image);
    expect(c.command.slice(0, 2)).toEqual(['sh', '-c']);
    expect(c.command[2]).toContain(
      'npx dialtone load chat-turns --target /config/profile.json --workload nightly --engine builtin --segment "$segment" --report-dir /results',
    );
    expect(c.resources.requests).toEqual({ cpu: '1', memory: '1Gi' });
    expect(pod.volumes).toEqual([
      { name: 'config', configMap: { name: 'dialtone-chat-turns' } },
      { name: 'results', emptyDir: {} },
    ]);
    expect(c.volumeMounts.map((m) => m.mountPath)).toEqual(['/config', '/results']);
    expect(containerOf(jobManifests({ ...OPTIONS, image: 'registry.example.com/dialtone:ci' }).files).image).toBe('registry.example.com/dialtone:ci');
  });

  it('gives a browser scenario more memory and a larger /dev/shm for Chromium', () => {
    const { files } = jobManifests({ ...OPTIONS, scenario: 'voice-browser' });
    expect(containerOf(files).resources.requests).toEqual({ cpu: '2', memory: '2Gi' });
    expect(jobOf(files).spec.template.spec.volumes).toContainEqual({ name: 'dshm', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } });
  });

  it('carries the profile in the ConfigMap without its env_file, and reads the credentials only through Secret references', () => {
    const { files, secretKeys } = jobManifests(OPTIONS);
    const data = (files['configmap.yaml'] as { data: Record<string, string> }).data;
    expect(Object.keys(data)).toEqual(['profile.json']);
    const profile = JSON.parse(data['profile.json'] as string) as Record<string, unknown>;
    expect(profile.env_file).toBeUndefined();
    expect(profile.credentials).toEqual(PROFILE.credentials);
    expect(secretKeys).toEqual(['ACME_CHAT_API_KEY', 'ACME_CHAT_TOKEN']);
    const env = containerOf(files).env;
    expect(env).toEqual([
      { name: 'ACME_CHAT_API_KEY', valueFrom: { secretKeyRef: { name: 'dialtone-credentials', key: 'ACME_CHAT_API_KEY' } } },
      { name: 'ACME_CHAT_TOKEN', valueFrom: { secretKeyRef: { name: 'dialtone-credentials', key: 'ACME_CHAT_TOKEN' } } },
    ]);
    expect(env.every((e) => e.value === undefined)).toBe(true);
  });

  it('carries a profile CA file in the ConfigMap as ca.pem beside the profile', async () => {
    const tls = await makeTlsMaterial();
    const ca = join(dir, 'ca-bundle.pem');
    writeFileSync(ca, tls.ca);
    const { files } = jobManifests({ ...OPTIONS, profile: { json: { ...PROFILE, tls: { ca_file: 'ca-bundle.pem' } }, path: join(dir, 'staging.json') } });
    const data = (files['configmap.yaml'] as { data: Record<string, string> }).data;
    expect(Object.keys(data).sort()).toEqual(['ca.pem', 'profile.json']);
    expect(data['ca.pem']).toContain('-----BEGIN CERTIFICATE-----');
    expect(JSON.parse(data['profile.json'] as string).tls).toEqual({ ca_file: 'ca.pem' });
  });

  it('refuses a live profile unless --allow-live is given, and then passes it to every pod', () => {
    const live = { ...OPTIONS, profile: { json: { ...PROFILE, environment: 'live' }, path: 'live.json' } };
    expect(() => jobManifests(live)).toThrow(/refusing a load run against the live environment/);
    expect(containerOf(jobManifests({ ...live, allowLive: true }).files).command[2]).toContain('--allow-live --segment');
  });

  it('maps JOB_COMPLETION_INDEX 0, 1 and 2 to dialtone segments 1/3, 2/3 and 3/3', () => {
    const script = containerOf(jobManifests(OPTIONS).files).command[2] as string;
    const bin = join(dir, 'bin');
    mkdirSync(bin, { recursive: true });
    // A stand-in for npx that records its arguments and fails like a run that wrote nothing.
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\necho "$@" >> "${join(dir, 'calls')}"\nexit 3\n`);
    chmodSync(join(bin, 'npx'), 0o755);
    for (const index of [0, 1, 2]) {
      const r = spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH}`, JOB_COMPLETION_INDEX: String(index) } });
      expect(r.status).toBe(3); // no histograms: the pod fails with the run's exit code, and backoffLimit 0 fails the Job
      expect(r.stderr).toContain(`segment ${index + 1}/3 wrote no histograms`);
    }
    const calls = readFileSync(join(dir, 'calls'), 'utf8').trim().split('\n');
    expect(calls.map((c) => /--segment (\S+)/.exec(c)?.[1])).toEqual(['1/3', '2/3', '3/3']);
    const outside = spawnSync('sh', ['-c', script], { encoding: 'utf8', env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(outside.status).not.toBe(0);
    expect(outside.stderr).toContain('runs in a pod of an Indexed Job');
  });

  it('tells how to take every segment from its pod and merge them', () => {
    const lines = collectLines({ name: 'dialtone-chat-turns', scenario: 'chat-turns', parallelism: 3, dir: 'out', namespace: 'load', timeoutSeconds: 2100 });
    expect(lines[1]).toContain('kubectl -n load get pod -l job-name=dialtone-chat-turns -o name | wc -l)" -ge 3 ]');
    expect(lines[2]).toBe('kubectl -n load wait --for=condition=Ready pod -l job-name=dialtone-chat-turns --timeout=2100s');
    expect(lines[3]).toContain('$(seq 0 2)');
    expect(lines[3]).toContain('batch.kubernetes.io/job-completion-index=$i');
    expect(lines[3]).toContain('kubectl -n load cp "$pod:/results/load/chat-turns" "out/segments/$((i + 1))"');
    expect(lines[3]).toContain('touch /results/.collected');
    expect(lines[4]).toBe('npx dialtone merge out/segments/* --report-dir out/merged');
    expect(spawnSync('sh', ['-n', '-c', lines.join('\n')]).status).toBe(0);
  });

  it('validates with kubeconform against the Job and ConfigMap schemas of Kubernetes', () => {
    const withNamespace = jobManifests({ ...OPTIONS, namespace: 'load' }).files;
    const browser = jobManifests({ ...OPTIONS, scenario: 'voice-browser' }).files;
    const r = kubeconform({ ...withNamespace, 'browser-job.yaml': browser['job.yaml'] });
    expect(r.out).toMatch(/Summary: 3 resources found in 3 files - Valid: 3, Invalid: 0, Errors: 0, Skipped: 0/);
    expect(r.status).toBe(0);
  });

  it('fails kubeconform when the Job is wrong, so the check can fail', () => {
    const job = jobOf(jobManifests(OPTIONS).files);
    const r = kubeconform({ 'job.yaml': { ...job, spec: { ...job.spec, completions: 'three' } } });
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/Invalid: 1/);
    const unknown = kubeconform({ 'job.yaml': { ...job, spec: { ...job.spec, segments: 3 } } });
    expect(unknown.status).toBe(1);
  });
});
