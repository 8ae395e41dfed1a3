#!/usr/bin/env node
// Entry point: loads the CLI from dist/ when it is fresh, else from the TypeScript sources through tsx (build-state.mjs).
import { importSource } from './build-state.mjs';

// A reader that stops early (`| head`) is not dialtone's error: what it did not take is dropped, quietly.
for (const s of [process.stdout, process.stderr])
  s.on('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
  });
const { main } = await importSource('cli/main');
const code = await main(process.argv.slice(2));
// vitest and fastify may leave handles open; the exit code is decided, so leave now.
// process.exit drops what a pipe has not taken yet (`dialtone rules --markdown | less` lost all past 64 KiB): an empty
// write's callback runs once everything written before it is flushed. A reader that never reads does not hold the exit
// for more than two seconds.
const drained = Promise.all([process.stdout, process.stderr].map((s) => new Promise((done) => s.write('', done))));
await Promise.race([drained, new Promise((done) => setTimeout(done, 2_000))]);
process.exit(code);
