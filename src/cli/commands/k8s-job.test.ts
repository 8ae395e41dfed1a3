import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { EXAMPLE_PROFILE } from '../../load/example-profile.js';
import { main } from '../main.js';

let dir = '';
let profile = '';

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'dialtone-k8s-job-cli-'));
  profile = join(dir, 'staging.json');
  writeFileSync(profile, JSON.stringify({ ...EXAMPLE_PROFILE, credentials: { chat_api_key: EXAMPLE_PROFILE.credentials.chat_api_key } }));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `dialtone ARGS` in this process and keeps what it printed. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const code = await main(args);
  return { code, out: out.join('\n'), err };
}

describe('dialtone k8s-job', () => {
  it.each([
    [['chat-turns', '--parallelism', '3'], '--target PROFILE is required'],
    [['chat-turns', '--target', 'PROFILE'], '--parallelism N is required'],
    [['chat-turns', '--target', 'PROFILE', '--parallelism', '0'], "--parallelism: expected a whole number from 1 to 64, got '0'"],
    [['chat-turns', '--target', 'PROFILE', '--parallelism', '65'], "--parallelism: expected a whole number from 1 to 64, got '65'"],
    [['chat-turns', '--target', 'PROFILE', '--parallelism', '2.5'], "--parallelism: expected a whole number from 1 to 64, got '2.5'"],
    [['no-such-scenario', '--target', 'PROFILE', '--parallelism', '3'], "unknown scenario 'no-such-scenario'"],
    [['chat-turns', '--target', 'PROFILE', '--parallelism', '3', '--engine', 'k6'], 'for k6, use dialtone k6-operator'],
  ])('exits 2 with one line for %j', async (args, message) => {
    const r = await run(['k8s-job', ...args.map((a) => (a === 'PROFILE' ? profile : a))]);
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toContain(message);
    expect(r.err[0]).not.toContain('\n');
  });

  it('writes the ConfigMap, the Indexed Job and collect.sh, and prints the Secret and apply lines', async () => {
    const out = join(dir, 'out');
    const r = await run(['k8s-job', 'chat-turns', '--target', profile, '--parallelism', '3', '--workload', 'nightly', '--out-dir', out, '--engine', 'builtin']);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    const job = parse(readFileSync(join(out, 'job.yaml'), 'utf8')) as { kind: string; spec: { completions: number; completionMode: string } };
    expect(job).toMatchObject({ kind: 'Job', spec: { completions: 3, completionMode: 'Indexed' } });
    expect(existsSync(join(out, 'configmap.yaml'))).toBe(true);
    expect(readFileSync(join(out, 'collect.sh'), 'utf8')).toContain('npx dialtone merge');
    expect(r.out).toContain('kubectl create secret generic dialtone-credentials --from-literal=ACME_CHAT_API_KEY="$ACME_CHAT_API_KEY"');
    expect(r.out).toMatch(/kubectl apply -f \S*configmap\.yaml -f \S*job\.yaml/);
  });
});
