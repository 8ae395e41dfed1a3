#!/usr/bin/env node
// Runs the user's k6 for dialtone: `engine-guard.mjs COMMAND ARGS...`. k6 cannot tell that the process that started it
// died (dialtone killed with SIGKILL), but this process's IPC channel to dialtone closes then, and it stops k6 as
// Ctrl-C does. Signals it gets go to k6 (a hang-up as SIGTERM, which k6 handles); it exits with k6's code.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** How long k6 may take to write its summary once told to stop, with nobody left to wait for it. */
const ORPHAN_GRACE_MS = 10_000;

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: engine-guard.mjs COMMAND [ARGS...]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => child.kill(s === 'SIGHUP' ? 'SIGTERM' : s));
const orphaned = () => {
  child.kill('SIGINT');
  setTimeout(() => child.kill('SIGKILL'), ORPHAN_GRACE_MS).unref();
};
if (process.channel) {
  process.on('disconnect', orphaned);
  process.channel.unref();
  if (!process.connected) orphaned();
}
child.on('error', (e) => {
  process.stderr.write(`dialtone: could not start ${command}: ${e.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 1)));
