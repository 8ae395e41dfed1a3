// `dialtone k8s-job ./script.js` (src/cli/commands/k8s-job.ts): a user's own k6 script archived by the built-in engine
// (its modules and opened files in k6's archive layout) and carried in the ConfigMap, each pod running
// `dialtone load /config/NAME.tar --segment i/N`. No Kubernetes here: the test does what the pods and collect.sh do, on
// this machine: the archive out of the ConfigMap, each segment's `dialtone load` as the Job's command gives it, then
// `dialtone merge`. Judged by the manifests, the counts and exit codes; nothing here judges time.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { untar } from '../src/engine/tar.js';
import { dialtoneInProcess } from './in-process-cli.js';
import { type CorpusTarget, startTarget } from './k6-corpus/target.js';

const CORPUS = join(import.meta.dirname, 'k6-corpus');
const dir = mkdtempSync(join(tmpdir(), 'dialtone-k8s-job-script-'));
let target: CorpusTarget;
beforeAll(async () => {
  target = await startTarget();
});
afterAll(async () => {
  await target.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('dialtone k8s-job with a script of its own', () => {
  it('carries the archive in the ConfigMap, and its segments run from it and merge to the whole run', async () => {
    const out = join(dir, 'manifests');
    const made = await dialtoneInProcess(['k8s-job', join(CORPUS, 'thresholds-pass.js'), '--parallelism', '2', '--out-dir', out]);
    expect(made.code, made.stderr).toBe(0);
    const configMap = parse(readFileSync(join(out, 'configmap.yaml'), 'utf8'));
    const job = parse(readFileSync(join(out, 'job.yaml'), 'utf8'));
    expect(job.metadata.name).toBe('dialtone-thresholds-pass-js');
    const command: string = job.spec.template.spec.containers[0].command[2];
    expect(command).toContain('npx dialtone load /config/thresholds-pass.js.tar --engine builtin --segment "$segment" --report-dir /results');
    // The archive: k6's layout, the script as data and under file/.
    const archive = Buffer.from(configMap.binaryData['thresholds-pass.js.tar'], 'base64');
    const entries = untar(archive);
    expect(entries.get('data')?.toString()).toBe(readFileSync(join(CORPUS, 'thresholds-pass.js'), 'utf8'));
    expect(JSON.parse(entries.get('metadata.json')?.toString() ?? '{}')).toMatchObject({ type: 'js', options: { vus: 2, iterations: 10 } });

    // What each pod does: its segment of the archive, the command's words as the Job gives them.
    const config = join(dir, 'config');
    mkdirSync(config);
    writeFileSync(join(config, 'thresholds-pass.js.tar'), archive);
    for (const i of [1, 2]) {
      const seg = await dialtoneInProcess(
        ['load', join(config, 'thresholds-pass.js.tar'), '--engine', 'builtin', '--segment', `${i}/2`, '--report-dir', join(dir, `pod-${i}`)],
        { env: { BASE_URL: target.url }, timeoutMs: 120_000 },
      );
      expect(seg.code, seg.stdout + seg.stderr).toBe(0);
    }
    // What collect.sh does: the segments merged.
    const merged = await dialtoneInProcess([
      'merge',
      join(dir, 'pod-1', 'load', 'thresholds-pass.js.tar'),
      join(dir, 'pod-2', 'load', 'thresholds-pass.js.tar'),
      '--report-dir',
      join(dir, 'merged'),
    ]);
    expect(merged.code, merged.stdout + merged.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'merged', 'load', 'thresholds-pass.js.tar', 'result.json'), 'utf8'));
    expect(result.passed).toBe(true);
    expect(target.count('/json', 'GET')).toBe(10);
  });

  it('refuses --target, which is for scenarios, in one line with exit 2', async () => {
    const r = await dialtoneInProcess(['k8s-job', join(CORPUS, 'thresholds-pass.js'), '--parallelism', '2', '--target', 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('--target is for dialtone');
  });
});
