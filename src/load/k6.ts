import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from '../errors.js';

/** The pinned k6 release; tools/k6/go.mod pins the same version with its checksums in go.sum. */
export const K6_VERSION = 'v2.2.0';
const SUITABLE = /^k6 v2\.(\d+)\.\d+/;

/** Where the project's own k6 build lives. */
export const localK6 = (root: string) => join(root, '.tools', 'bin', 'k6');

function versionOf(bin: string): string | undefined {
  try {
    const out = execFileSync(bin, ['version'], { encoding: 'utf8', env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, timeout: 20_000 });
    return out.trim().split('\n')[0];
  } catch {
    return undefined;
  }
}

const onPath = (name: string): string | undefined => {
  const r = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
};

/**
 * Finds a suitable k6 (a v2.x at least as new as the pin): $DIALTONE_K6, then the project's
 * .tools/bin/k6, then k6 on PATH. Returns undefined when there is none.
 */
export function findK6(root: string): string | undefined {
  const min = Number(K6_VERSION.split('.')[1]);
  const candidates = [process.env.DIALTONE_K6, localK6(root), onPath('k6')].filter((c): c is string => !!c && existsSync(c));
  return candidates.find((c) => {
    const m = SUITABLE.exec(versionOf(c) ?? '');
    return m !== null && Number(m[1]) >= min;
  });
}

/**
 * Builds the pinned k6 into .tools/bin with the Go toolchain, from tools/k6 (go.mod + go.sum), so
 * every module is checksum-verified. `go install k6@version` cannot be used here: it asks the proxy
 * for the module's version list to check deprecations, which the proxy does not serve for k6/v2.
 */
export function buildK6(root: string, log: (line: string) => void = console.log): string {
  const go = onPath('go') ?? (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
  if (!go) {
    throw new EnvironmentError(
      `k6 ${K6_VERSION} is not installed and Go is not available to build it: install k6 v2 (https://grafana.com/docs/k6/latest/set-up/install-k6/) or Go 1.25+, then run 'npm install' again`,
    );
  }
  const out = localK6(root);
  mkdirSync(join(root, '.tools', 'bin'), { recursive: true });
  log(`dialtone: building k6 ${K6_VERSION} with ${go} (first time only; about two minutes on a cold cache)`);
  const r = spawnSync(go, ['build', '-trimpath', '-o', out, 'go.k6.io/k6/v2'], {
    cwd: join(root, 'tools', 'k6'),
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, GOFLAGS: '-buildvcs=false -mod=readonly', CGO_ENABLED: '0' },
  });
  if (r.status !== 0 || !existsSync(out)) throw new EnvironmentError(`building k6 ${K6_VERSION} with Go failed (exit ${r.status}); see the Go output above`);
  return out;
}

/** A suitable k6, building the pinned one when none is found. */
export function ensureK6(root: string, log?: (line: string) => void): string {
  return findK6(root) ?? buildK6(root, log);
}
