import type { InstalledTree } from './tree.js';
import type { PackageVerdict } from './verdict.js';

/** A tree and its verdicts: what every format below prints. */
export interface LicenceReport {
  readonly tree: InstalledTree;
  readonly verdicts: readonly PackageVerdict[];
  /** Whether the root's devDependencies were walked (each package then says whether only development needs it). */
  readonly dev: boolean;
}

/**
 * How many packages state each licence, most first (ties by name).
 *
 * @example
 * licenceCounts(report); // [['MIT', 300], ['ISC', 40], …]
 */
export function licenceCounts(report: LicenceReport): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const p of report.tree.packages) counts.set(p.license, (counts.get(p.license) ?? 0) + 1);
  return [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
}

/**
 * The terminal listing: the root's name, version and licence first, one aligned line per package, then the count by
 * licence and each unknown licence with why.
 *
 * @example
 * textLines(report); // ['dialtone 0.1.0  Apache-2.0', '', '  @esbuild/linux-x64  0.28.2  MIT', …]
 */
export function textLines(report: LicenceReport): string[] {
  const { root, packages } = report.tree;
  const w = (f: (p: (typeof packages)[number]) => string) => Math.max(0, ...packages.map((p) => f(p).length));
  const nameW = w((p) => p.name);
  const versionW = w((p) => p.version);
  const licenceW = w((p) => p.license);
  const lines = [`${root.name} ${root.version}  ${root.license}`, ''];
  for (const p of packages) {
    const line = `  ${p.name.padEnd(nameW)}  ${p.version.padEnd(versionW)}  ${report.dev && p.dev ? `${p.license.padEnd(licenceW)}  (dev)` : p.license}`;
    lines.push(line);
  }
  const devCount = packages.filter((p) => p.dev).length;
  const scope = report.dev ? ` (${packages.length - devCount} runtime, ${devCount} development only)` : ' (runtime)';
  lines.push(
    '',
    `${packages.length} packages${scope}: ${licenceCounts(report)
      .map(([l, n]) => `${l} ${n}`)
      .join(', ')}`,
  );
  for (const v of report.verdicts) if (v.verdict === 'unknown') lines.push(`unknown: ${v.pkg.name}@${v.pkg.version}: ${v.why}`);
  return lines;
}

/** A table cell: pipes would end the cell, newlines the row. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/**
 * A THIRD_PARTY.md: the root's licence, a table of every package it installs with its licence, and the count by licence.
 *
 * @example
 * writeFileSync('THIRD_PARTY.md', markdown(report));
 */
export function markdown(report: LicenceReport): string {
  const { root, packages } = report.tree;
  const head = report.dev ? '| package | version | licence | needed for |\n| --- | --- | --- | --- |' : '| package | version | licence |\n| --- | --- | --- |';
  const rows = packages.map(
    (p) => `| ${cell(p.name)} | ${cell(p.version)} | ${cell(p.license)} |${report.dev ? ` ${p.dev ? 'development' : 'runtime'} |` : ''}`,
  );
  const counts = licenceCounts(report).map(([l, n]) => `| ${cell(l)} | ${n} |`);
  const devCount = packages.filter((p) => p.dev).length;
  const what = report.dev
    ? `Its repository installs the ${packages.length} packages below (${packages.length - devCount} at run time, ${devCount} for its own development only)`
    : `It installs the ${packages.length} packages below`;
  return [
    '# Third-party licences',
    '',
    `${root.name} ${root.version} is licensed under ${root.license}. ${what}, each under its own licence as its package.json`,
    'states it (or, where that names none, `UNKNOWN (see FILE)` with the licence file it ships).',
    '',
    head,
    ...rows,
    '',
    '## By licence',
    '',
    '| licence | packages |',
    '| --- | --- |',
    ...counts,
    '',
  ].join('\n');
}

/**
 * One JSON value for scripts: the root, every package with its verdict, and what is missing.
 *
 * @example
 * JSON.parse(JSON.stringify(json(report))).packages[0]; // { name, version, license, path, dev, verdict, … }
 */
export function json(report: LicenceReport) {
  const { root, missing } = report.tree;
  return {
    name: root.name,
    version: root.version,
    license: root.license,
    dev: report.dev,
    packages: report.verdicts.map((v) => ({
      name: v.pkg.name,
      version: v.pkg.version,
      license: v.pkg.license,
      path: v.pkg.path,
      dev: v.pkg.dev,
      verdict: v.verdict,
      ...(v.verdict === 'allowed' ? {} : { why: v.why }),
      ...(v.verdict === 'forbidden' ? { kind: v.kind } : {}),
    })),
    licences: Object.fromEntries(licenceCounts(report)),
    missing,
  };
}
