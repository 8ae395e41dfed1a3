// k6's secret sources (/using-k6/secret-source/): "Configure secret sources using the --secret-source CLI flag. You can
// configure multiple secret sources simultaneously." The built-in kinds the engine gives are `file` ("Reads secrets
// from a key=value file") and `mock` ("Reads secrets from CLI arguments"); a source is named with `name=` and made the
// default with `default` (/using-k6/secret-source/mock/: `--secret-source=mock=default,cool="cool secret"
// --secret-source=mock=name=another,cool="not cool secret"`), a file's path given alone or as `filename=`.
//
// Redaction: "values from secret sources are automatically redacted from k6 logs"; "All secrets are redacted from
// logs." Every value of every configured source is replaced by ***SECRET_REDACTED*** in everything the run writes to
// its stdout, its stderr and its console file, read or not, from the first line on: each worker thread would otherwise
// have to tell the others which values its VUs read before any of their lines could be written.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const REDACTED = '***SECRET_REDACTED***';

/** The secret sources of a run: plain data, handed to every worker thread. */
export interface SecretSources {
  /** Secrets by source name, then by key. */
  readonly sources: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The source `secrets.get` reads: the one marked `default`, or the only one. */
  readonly default: string | undefined;
}

export const NO_SECRETS: SecretSources = { sources: {}, default: undefined };

/** `k=v,k2="v 2"` split at commas outside quotes, each part's quotes taken off its value. */
function parts(config: string): { key: string; value: string | undefined }[] {
  const out: { key: string; value: string | undefined }[] = [];
  for (const raw of config.match(/(?:[^,"]|"[^"]*")+/g) ?? []) {
    const eq = raw.indexOf('=');
    const key = eq < 0 ? raw : raw.slice(0, eq);
    const value = eq < 0 ? undefined : raw.slice(eq + 1).replace(/^"(.*)"$/s, '$1');
    out.push({ key, value });
  }
  return out;
}

/** A `key=value` file's secrets; a line without `=` is an error naming its line. Blank lines are skipped. */
function fileSecrets(path: string, cwd: string | undefined): Record<string, string> {
  const full = resolve(cwd ?? process.cwd(), path);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (e) {
    throw new Error(`file secret source: cannot read '${path}': ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    const eq = line.indexOf('=');
    if (eq <= 0) throw new Error(`file secret source: ${path}:${i + 1} is not key=value`);
    out[line.slice(0, eq)] = line.slice(eq + 1);
  });
  return out;
}

/**
 * The sources of `--secret-source` specs (`KIND=CONFIG`), a file's path named from `cwd`. Throws one line for a bad
 * spec: an unknown kind, a file it cannot read, two sources of one name, two defaults.
 *
 * @example
 * loadSecretSources(['mock=default,cool=some', 'mock=name=other,cool=thing']).sources.other.cool; // 'thing'
 */
export function loadSecretSources(specs: readonly string[], cwd?: string): SecretSources {
  const sources: Record<string, Record<string, string>> = {};
  let dflt: string | undefined;
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const kind = eq < 0 ? spec : spec.slice(0, eq);
    const config = eq < 0 ? '' : spec.slice(eq + 1);
    let name: string | undefined;
    let isDefault = false;
    let secrets: Record<string, string>;
    if (kind === 'mock') {
      secrets = {};
      for (const { key, value } of parts(config)) {
        if (key === 'default' && value === undefined) isDefault = true;
        else if (key === 'name' && value !== undefined) name = value;
        else if (value !== undefined && key !== '') secrets[key] = value;
        else throw new Error(`--secret-source ${kind}: '${key}' is not name=VALUE, default or SECRET=VALUE`);
      }
    } else if (kind === 'file') {
      const ps = parts(config);
      const keyed = ps.some((p) => p.key === 'filename' || p.key === 'name' || (p.key === 'default' && p.value === undefined));
      let filename: string | undefined = keyed ? undefined : config;
      if (keyed)
        for (const { key, value } of ps) {
          if (key === 'default' && value === undefined) isDefault = true;
          else if (key === 'name' && value !== undefined) name = value;
          else if (key === 'filename' && value !== undefined) filename = value;
          else throw new Error(`--secret-source file: '${key}' is not name=NAME, filename=PATH or default`);
        }
      if (!filename) throw new Error('--secret-source file needs a file: file=PATH or file=name=NAME,filename=PATH');
      secrets = fileSecrets(filename, cwd);
    } else throw new Error(`--secret-source: unknown kind '${kind}' (the built-in engine has file and mock)`);
    const key = name ?? 'default';
    if (sources[key]) throw new Error(`--secret-source: two sources named '${key}'`);
    sources[key] = secrets;
    if (isDefault || key === 'default') {
      if (dflt !== undefined && dflt !== key) throw new Error(`--secret-source: two default sources ('${dflt}' and '${key}')`);
      dflt = key;
    }
  }
  const names = Object.keys(sources);
  if (dflt === undefined && names.length === 1) dflt = names[0];
  return { sources, default: dflt };
}

/** Every secret value of `s`, longest first (a value inside another is redacted as part of the longer one). */
export function secretValues(s: SecretSources): string[] {
  const all = new Set<string>();
  for (const source of Object.values(s.sources)) for (const v of Object.values(source)) if (v !== '') all.add(v);
  return [...all].sort((a, b) => b.length - a.length);
}

/**
 * A function that replaces every secret value of `s` in a text by ***SECRET_REDACTED***; the identity when there is none.
 *
 * @example
 * redactor(loadSecretSources(['mock=cool=some']))('it is some value'); // 'it is ***SECRET_REDACTED*** value'
 */
export function redactor(s: SecretSources): (text: string) => string {
  const values = secretValues(s);
  if (values.length === 0) return (t) => t;
  const re = new RegExp(values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return (t) => t.replace(re, REDACTED);
}
