#!/usr/bin/env node
// npm test: typecheck and lint first, then unit and integration tests, the conformance gate with the defect self-test
// against the reference target beside the gate and the smoke loads on the other supported Node lines, and the real load
// runs (on the user's k6 when installed, else the built-in engine).
// Prints one closing line "N passed, N failed" counting every test, case and defect. With --quick it is `npm run
// test:quick`: dist/, typecheck and lint, then the unit tests that start nothing heavy.
//
// Steps run in phases; the steps of a phase run side by side, each a process of its own, and a phase starts when the
// one before it has passed. The timing-sensitive files run last, with nothing else of the suite beside them: their
// lanes side by side, then the files that need the whole machine alone (tests/timing-sensitive.ts). The gate keeps a
// phase of its own: the unit project alone keeps both cores busy, so beside it the gate would only wait its turn and
// the two would take longer side by side than one after the other.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_LINES } from './node-lines.mjs';
import { relayWholeLines } from './whole-lines.mjs';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => `${root}node_modules/.bin/${name}`;
// On CI the log is read as text: vitest paints it despite FORCE_COLOR=0 (its colours obey NO_COLOR).
const plain = process.env.CI ? { FORCE_COLOR: '0', NO_COLOR: '1' } : {};
// One scratch folder for every phase, as tests/scratch-tmpdir.ts makes one for a vitest run: a later phase finds what an
// earlier one left there (the package the unit phase installed, tests/installed-package.ts), and it goes when npm test ends.
const scratch = mkdtempSync(join(tmpdir(), 'dialtone-tests-'));
const env = { ...process.env, K6_NO_USAGE_REPORT: 'true', ...plain, TMPDIR: scratch, DIALTONE_TESTS_SCRATCH: scratch };
const removeScratch = () => rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
])
  process.once(signal, () => {
    removeScratch();
    process.exit(code);
  });

// TypeScript 7, the native compiler, for its speed. TypeScript 5.9 stays installed as `typescript` for dependency-cruiser
// (npm run layers), which reads TypeScript sources through its API.
const TSC = `${root}node_modules/typescript-7/bin/tsc`;
/** An incremental typecheck: what it learned is kept in node_modules/.cache/tsc, and the next run checks only what changed. */
const incremental = (name) => ['--incremental', '--tsBuildInfoFile', `${root}node_modules/.cache/tsc/${name}.tsbuildinfo`];

/** One vitest project, its results in `reports/unit/NAME.json`. */
const vitest = (project) => [
  `tests: ${project}`,
  bin('vitest'),
  ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=reports/unit/${project}.json`],
];

/**
 * Steps side by side, then `next` once every one of them has ended: a lane of steps within a phase. The timing phase's
 * waiting lanes are followed this way by the waiting files that must not run beside a waiting one (tests/timing-sensitive.ts).
 */
const then = (beside, next) => ({ beside, next });

/** The phases by name, in order; `npm test -- --phase timing` runs only the one named (the timing lanes, say). */
// Typecheck and lint keep a phase of their own: beside the unit tests they cost more than they save, the unit phase
// slowing by more than their own time.
const PHASES = {
  // dist/, the transpiled sources every process of the suite starts from (scripts/build.mjs), when a source is newer.
  build: [['build dist/', process.execPath, ['scripts/build.mjs']]],
  static: [
    ['typecheck', process.execPath, [TSC, '-p', 'tsconfig.json', ...incremental('main')]],
    ['typecheck scenarios', process.execPath, [TSC, '-p', 'scenarios/tsconfig.json', ...incremental('scenarios')]],
    ['lint and format', bin('biome'), ['check', '.']],
  ],
  unit: [vitest('unit')],
  // The gate with its defect self-test, and beside it the gate and the smoke loads again on each supported Node line
  // besides this one (scripts/node-lines.mjs), the lines side by side with one gate at a time. Alone, the gate with its
  // self-test leaves a third of the machine idle (waiting on its targets and timeouts), and so does a line's gate: side
  // by side the two steps took 72 s, one after the other about 120. The self-test stays on this line: no Node line changes whether a
  // case can fail.
  gate: [
    ['conformance gate with defect self-test', process.execPath, ['bin/dialtone.mjs', 'conformance', '--selftest']],
    [`gate and smoke loads on Node ${Object.keys(NODE_LINES).join(' and ')}`, process.execPath, ['scripts/node-lines.mjs']],
  ],
  timing: [vitest('timing'), then([vitest('timing-wait'), vitest('timing-wait-2'), vitest('timing-wait-3')], vitest('timing-after-waits'))],
  'timing-alone': [vitest('timing-alone')],
};
/**
 * `npm run test:quick` (`--quick`), the inner loop: dist/, the static checks side by side, then vitest.quick.config.ts,
 * the unit tests that start nothing heavy.
 */
const quickTests = ['run', '--config', 'vitest.quick.config.ts', '--reporter=default', '--reporter=json', '--outputFile.json=reports/unit/quick.json'];
const QUICK = [PHASES.build, PHASES.static, [['tests: quick', bin('vitest'), quickTests]]];
const only = process.argv.indexOf('--phase') > 0 ? process.argv[process.argv.indexOf('--phase') + 1] : undefined;
if (only !== undefined && !(only in PHASES)) {
  console.error(`npm test: --phase must be one of ${Object.keys(PHASES).join(', ')}, got '${only}'`);
  removeScratch();
  process.exit(2);
}
const phases = process.argv.includes('--quick') ? QUICK : only === undefined ? Object.values(PHASES) : [PHASES[only]];
/** The vitest projects a step or lane runs, read off the steps' names (`tests: NAME`). */
const projectsOf = (step) =>
  Array.isArray(step) ? (step[0].startsWith('tests: ') ? [step[0].slice('tests: '.length)] : []) : [...step.beside, step.next].flatMap(projectsOf);
const vitestResults = [...Object.values(PHASES), QUICK.at(-1)]
  .flat()
  .flatMap(projectsOf)
  .map((p) => `reports/unit/${p}.json`);

/** The gate's results: the machine's Node line's, then each other line's (scripts/node-lines.mjs, in the gate phase). */
const gateResults = ['reports/conformance/results.json', ...Object.keys(NODE_LINES).map((line) => `reports/node-lines/${line}/conformance/results.json`)];

// Results of an earlier run must never be counted as this run's.
for (const stale of [...vitestResults, 'reports/unit/results.json', ...gateResults]) rmSync(`${root}${stale}`, { force: true });

/**
 * Runs one step and resolves with its exit code and seconds. Beside other steps its output goes out a whole line at a
 * time, so lines of two steps never splice; alone it is inherited as it is.
 */
function runStep([name, cmd, args], alone) {
  const t0 = Date.now();
  if (alone) console.log(`\n== ${name}`);
  else console.log(`== ${name} (beside the other steps of its phase)`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env, stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'] });
    if (!alone) relayWholeLines(child);
    child.on('close', (code, signal) => resolve({ name, code: code ?? signal, seconds: (Date.now() - t0) / 1000 }));
  });
}

/** Runs a step, or a lane of them (`then`), and resolves with the result of each step it ran. */
async function runLane(step, alone) {
  if (Array.isArray(step)) return [await runStep(step, alone)];
  const first = await Promise.all(step.beside.map((s) => runStep(s, false)));
  return [...first, await runStep(step.next, false)];
}

/** The phase's line of timings: steps side by side joined by "beside", a lane's next step by "then". */
function timingLine(phase, done) {
  const seconds = (name) => `${name} ${done.find((d) => d.name === name)?.seconds.toFixed(1)} s`;
  const of = (step) => (Array.isArray(step) ? seconds(step[0]) : `(${step.beside.map(of).join(' beside ')} then ${of(step.next)})`);
  return phase.map(of).join(' beside ');
}

/**
 * The machine's CPU time so far, busy and in all, in /proc/stat's ticks of 1/100 s (Linux; undefined elsewhere): a
 * phase's share of it says whether the phase waits on time or on the machine, and the busy seconds of the whole run say
 * how long it must take on this many cores however its phases are arranged.
 */
function cpuTimes() {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = ticks.reduce((a, b) => a + b, 0);
    return { busy: total - ticks[3] - ticks[4], total };
  } catch {
    return undefined;
  }
}
/** The machine's busy CPU seconds between two readings (USER_HZ is 100 on Linux), or undefined. */
const busySeconds = (from, to) => (from && to && to.total > from.total ? (to.busy - from.busy) / 100 : undefined);
/** "machine 96 % busy, 190 CPU-s" between two readings, or nothing where they cannot be made. */
const busyShare = (from, to) =>
  busySeconds(from, to) === undefined
    ? ''
    : ` (machine ${Math.round((100 * (to.busy - from.busy)) / (to.total - from.total))} % busy, ${busySeconds(from, to).toFixed(0)} CPU-s)`;
/**
 * What the run's busy seconds allow: on N cores no order of phases takes less than busy / N. The machine's figure, so
 * anything else running at the time counts too.
 */
function floorLine(from, to) {
  const busy = busySeconds(from, to);
  const cores = availableParallelism();
  return busy === undefined
    ? ''
    : `the machine was busy ${busy.toFixed(0)} CPU-s: on ${cores} cores no order of phases takes less than ${(busy / cores).toFixed(0)} s`;
}

let stepFailed = false;
const timings = [];
const t0 = Date.now();
const cpuAtStart = cpuTimes();
for (const phase of phases) {
  const alone = phase.length === 1 && Array.isArray(phase[0]);
  const cpuBefore = cpuTimes();
  const done = (await Promise.all(phase.map((step) => runLane(step, alone)))).flat();
  timings.push(timingLine(phase, done) + busyShare(cpuBefore, cpuTimes()));
  for (const d of done.filter((d) => d.code !== 0)) {
    console.log(`\n${d.name} failed (exit ${d.code})`);
    stepFailed = true;
  }
  if (stepFailed) break;
}

// Count what ran: vitest tests, conformance cases and defects.
let passed = 0;
let failed = 0;
const read = (p) => (existsSync(`${root}${p}`) ? JSON.parse(readFileSync(`${root}${p}`, 'utf8')) : undefined);
for (const file of vitestResults) {
  const unit = read(file);
  if (!unit) continue;
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
}
for (const conf of gateResults.map(read)) {
  if (!conf) continue;
  passed += conf.totals.pass + conf.totals.observed;
  failed += conf.totals.fail;
  for (const d of conf.selftest?.defects ?? []) d.exact ? passed++ : failed++;
  // Each registered mutation that ran counts: it proved its rule able to fail, or it did not.
  for (const r of conf.proof?.rules ?? []) if (r.mutation && !r.skipped) r.proven ? passed++ : failed++;
}
// A failed step whose own tests were not counted (typecheck, lint) still counts as one failure.
if (stepFailed && failed === 0) failed = 1;
console.log(`\n${timings.join(' · ')} · in all ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const floor = floorLine(cpuAtStart, cpuTimes());
if (floor) console.log(floor);
console.log(`${passed} passed, ${failed} failed`);
removeScratch();
process.exit(failed === 0 && !stepFailed ? 0 : 1);
