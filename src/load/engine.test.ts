import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvironmentError, UsageError } from '../errors.js';
import { BUILTIN_ENGINE_VERSION, engineName, resolveEngine } from './engine.js';

const ROOT = '/repo';
const base = mkdtempSync(join(tmpdir(), 'dialtone-engine-'));

/** A folder holding a fake `k6` that prints `line` for `k6 version`, as k6 does (first line, then more). */
function fakeK6(name: string, line: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, 'k6');
  writeFileSync(bin, `#!/bin/sh\nif [ "$1" = version ]; then echo '${line}'; echo 'Extensions:'; exit 0; fi\nexit 1\n`);
  chmodSync(bin, 0o755);
  return dir;
}

const current = fakeK6('current', 'k6 v2.2.0 (go1.25.1, linux/amd64)');
const newer = fakeK6('newer', 'k6 v2.4.1 (go1.25.3, linux/amd64)');
const v1 = fakeK6('v1', 'k6 v1.4.2 (go1.24.4, linux/amd64)');
const older2 = fakeK6('older2', 'k6 v2.1.0 (go1.25.0, linux/amd64)');
const empty = join(base, 'empty');
mkdirSync(empty);
/** An environment whose PATH is only `dir`: no k6 of the machine's can be found. */
const envWith = (dir: string, more: Record<string, string> = {}): NodeJS.ProcessEnv => ({ PATH: dir, ...more });

describe('resolveEngine', () => {
  it('auto: the k6 on PATH when it is a v2 not older than the tested one, with the first line of its version', () => {
    const e = resolveEngine(ROOT, 'auto', envWith(current));
    expect(e).toEqual({ kind: 'k6', version: 'k6 v2.2.0 (go1.25.1, linux/amd64)', command: join(current, 'k6'), args: [] });
    expect(engineName(e)).toBe('k6 v2.2.0');
  });

  it('auto: the built-in engine when there is no k6, or only an older one (v1, v2.1)', () => {
    for (const dir of [empty, v1, older2]) {
      const e = resolveEngine(ROOT, 'auto', envWith(dir));
      expect(e).toEqual({ kind: 'builtin', version: BUILTIN_ENGINE_VERSION, command: process.execPath, args: [join(ROOT, 'bin', 'dialtone-engine.mjs')] });
    }
    expect(engineName(resolveEngine(ROOT, 'builtin', envWith(empty)))).toBe(`dialtone built-in engine ${BUILTIN_ENGINE_VERSION}`);
  });

  it('DIALTONE_K6 comes before PATH', () => {
    const e = resolveEngine(ROOT, 'auto', envWith(current, { DIALTONE_K6: join(newer, 'k6') }));
    expect(e.command).toBe(join(newer, 'k6'));
    expect(e.version).toMatch(/^k6 v2\.4\.1/);
  });

  it('k6 without a k6: exit 3 (EnvironmentError), one line saying how to install it or to use the built-in engine', () => {
    let err: unknown;
    try {
      resolveEngine(ROOT, 'k6', envWith(empty));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(EnvironmentError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toContain('https://grafana.com/docs/k6/latest/set-up/install-k6/');
    expect(message).toContain('--engine builtin');
  });

  it('k6 with only a v1: refused, naming the one found and its version', () => {
    expect(() => resolveEngine(ROOT, 'k6', envWith(v1))).toThrow(EnvironmentError);
    expect(() => resolveEngine(ROOT, 'k6', envWith(v1))).toThrow(`${join(v1, 'k6')} is k6 v1.4.2`);
  });

  it('builtin: the built-in engine even where a k6 is installed', () => {
    expect(resolveEngine(ROOT, 'builtin', envWith(current)).kind).toBe('builtin');
  });

  it('DIALTONE_ENGINE is the default choice; the flag beats it; a bad value is a usage error', () => {
    expect(resolveEngine(ROOT, undefined, envWith(current, { DIALTONE_ENGINE: 'builtin' })).kind).toBe('builtin');
    expect(resolveEngine(ROOT, 'auto', envWith(current, { DIALTONE_ENGINE: 'builtin' })).kind).toBe('k6');
    expect(resolveEngine(ROOT, undefined, envWith(current)).kind).toBe('k6');
    expect(() => resolveEngine(ROOT, undefined, envWith(current, { DIALTONE_ENGINE: 'go' }))).toThrow(UsageError);
    expect(() => resolveEngine(ROOT, undefined, envWith(empty, { DIALTONE_ENGINE: 'k6' }))).toThrow(EnvironmentError);
  });
});
