#!/usr/bin/env node
// dialtone's built-in load engine: runs k6 scripts with k6's documented semantics, in Node, on permissively licensed
// libraries. Its command line is the part of k6's that dialtone uses (`run`, `version`).
import { importSource } from './build-state.mjs';

// A reader that stops early (`| head`) is not dialtone's error: what it did not take is dropped, quietly.
for (const s of [process.stdout, process.stderr])
  s.on('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
  });
// K6_WEB_DASHBOARD=true asks for k6's web dashboard: the entry that serves it imports dialtone's report plots, which
// the engine alone never loads (src/cli/engine-dashboard.ts); it hands every other start to the engine's own.
const { main } = await importSource(process.env.K6_WEB_DASHBOARD === 'true' ? 'cli/engine-dashboard' : 'engine/cli');
const code = await main(process.argv.slice(2));
// process.exit drops what a pipe has not taken yet (`dialtone rules --markdown | less` lost all past 64 KiB): an empty
// write's callback runs once everything written before it is flushed. A reader that never reads does not hold the exit
// for more than two seconds.
const drained = Promise.all([process.stdout, process.stderr].map((s) => new Promise((done) => s.write('', done))));
await Promise.race([drained, new Promise((done) => setTimeout(done, 2_000))]);
process.exit(code);
