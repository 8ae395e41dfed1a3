#!/usr/bin/env node
// npm test: typecheck and lint first, then unit and integration tests (real load runs included, on the user's k6 when
// installed, else the built-in engine), then the conformance gate with the defect self-test against the reference target.
// Prints one closing line "N passed, N failed" counting every test, case and defect.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => `${root}node_modules/.bin/${name}`;
const env = { ...process.env, K6_NO_USAGE_REPORT: 'true', FORCE_COLOR: process.env.CI ? '0' : process.env.FORCE_COLOR };

const steps = [
  ['typecheck', bin('tsc'), ['-p', 'tsconfig.json']],
  ['typecheck scenarios', bin('tsc'), ['-p', 'scenarios/tsconfig.json']],
  ['lint and format', bin('biome'), ['check', '.']],
  ['unit and integration tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile.json=reports/unit/results.json']],
  ['conformance gate with defect self-test', process.execPath, ['bin/dialtone.mjs', 'conformance', '--selftest']],
];

// Results of an earlier run must never be counted as this run's.
for (const stale of ['reports/unit/results.json', 'reports/conformance/results.json']) rmSync(`${root}${stale}`, { force: true });

let passed = 0;
let failed = 0;
let stepFailed = false;
const timings = [];
for (const [name, cmd, args] of steps) {
  console.log(`\n== ${name}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  timings.push(`${name} ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (r.status !== 0) {
    console.log(`\n${name} failed (exit ${r.status ?? r.signal})`);
    stepFailed = true;
    break;
  }
}

// Count what ran: vitest tests, conformance cases and defects.
const read = (p) => (existsSync(`${root}${p}`) ? JSON.parse(readFileSync(`${root}${p}`, 'utf8')) : undefined);
const unit = read('reports/unit/results.json');
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
}
const conf = failed === 0 ? read('reports/conformance/results.json') : undefined;
if (conf) {
  passed += conf.totals.pass + conf.totals.observed;
  failed += conf.totals.fail;
  for (const d of conf.selftest?.defects ?? []) d.exact ? passed++ : failed++;
  // Each registered mutation that ran counts: it proved its rule able to fail, or it did not.
  for (const r of conf.proof?.rules ?? []) if (r.mutation && !r.skipped) r.proven ? passed++ : failed++;
}
// A failed step whose own tests were not counted (typecheck, lint) still counts as one failure.
if (stepFailed && failed === 0) failed = 1;
console.log(`\n${timings.join(' · ')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 && !stepFailed ? 0 : 1);
