import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvironmentError } from '../errors.js';

/** A Go tool the project builds at a pinned version, from tools/NAME/go.mod + go.sum (checksum-verified). */
export interface GoTool {
  readonly version: string;
  /** The main package, inside the module tools/NAME/go.mod requires. */
  readonly pkg: string;
}

/**
 * The pinned Go tools: actionlint checks .github/workflows, kubeconform the k6-operator manifests, VictoriaMetrics
 * (single-node, Apache-2.0) is the OTLP metrics store `--out opentelemetry` is read back from, go-httpbin stands in for
 * httpbin.org when k6's examples are run (scripts/k6-examples.ts).
 */
export const GO_TOOLS = {
  actionlint: { version: 'v1.7.12', pkg: 'github.com/rhysd/actionlint/cmd/actionlint' },
  kubeconform: { version: 'v0.7.0', pkg: 'github.com/yannh/kubeconform/cmd/kubeconform' },
  'go-httpbin': { version: 'v2.26.0', pkg: 'github.com/mccutchen/go-httpbin/v2/cmd/go-httpbin' },
  'victoria-metrics': { version: 'v1.151.0', pkg: 'github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics' },
} as const satisfies Record<string, GoTool>;
export type GoToolName = keyof typeof GO_TOOLS;

/** Where the project's build of a tool lives, and the stamp that records which version it is. */
export const goToolPath = (root: string, name: GoToolName) => join(root, '.tools', 'bin', name);
const stampOf = (root: string, name: GoToolName) => `${goToolPath(root, name)}.version`;

/** The Go toolchain: go on PATH, then /usr/local/go/bin/go. */
export function findGo(): string | undefined {
  const r = spawnSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' });
  const onPath = r.status === 0 ? r.stdout.trim() : '';
  return onPath || (existsSync('/usr/local/go/bin/go') ? '/usr/local/go/bin/go' : undefined);
}

/**
 * The project's build of a tool when it is there at the pinned version, else undefined.
 *
 * @example
 * const actionlint = findGoTool(root, 'actionlint'); // '/repo/.tools/bin/actionlint' or undefined
 */
export function findGoTool(root: string, name: GoToolName): string | undefined {
  const bin = goToolPath(root, name);
  const stamp = stampOf(root, name);
  return existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === GO_TOOLS[name].version ? bin : undefined;
}

/**
 * Builds a pinned tool into .tools/bin with Go, from tools/NAME (go.mod + go.sum), so every module is checksum-verified.
 *
 * @example
 * buildGoTool(root, 'kubeconform'); // '/repo/.tools/bin/kubeconform'
 */
export function buildGoTool(root: string, name: GoToolName, log: (line: string) => void = console.log): string {
  const go = findGo();
  const tool = GO_TOOLS[name];
  if (!go)
    throw new EnvironmentError(
      `${name} ${tool.version} is not built and Go is not available to build it: install Go 1.26.6 or newer, then run 'npm install' again`,
    );
  const out = goToolPath(root, name);
  mkdirSync(join(root, '.tools', 'bin'), { recursive: true });
  log(`dialtone: building ${name} ${tool.version} with ${go}`);
  const r = spawnSync(go, ['build', '-trimpath', '-o', out, tool.pkg], {
    cwd: join(root, 'tools', name),
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, GOFLAGS: '-buildvcs=false -mod=readonly', CGO_ENABLED: '0' },
  });
  if (r.status !== 0 || !existsSync(out))
    throw new EnvironmentError(`building ${name} ${tool.version} with Go failed (exit ${r.status}); see the Go output above`);
  writeFileSync(stampOf(root, name), `${tool.version}\n`);
  return out;
}

/** A tool at its pinned version, building it when it is missing. */
export function ensureGoTool(root: string, name: GoToolName, log?: (line: string) => void): string {
  return findGoTool(root, name) ?? buildGoTool(root, name, log);
}
