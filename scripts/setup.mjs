#!/usr/bin/env node
// postinstall: makes sure the pinned k6 is available, building it with the Go toolchain into
// .tools/bin when no suitable k6 is found. It never fails `npm install`: without Go or k6 it says
// in one line what to install, and `dialtone load` fails with the same line later.
import { register } from 'tsx/esm/api';

if (process.env.DIALTONE_SKIP_K6 === '1') process.exit(0);
register();
const root = new URL('..', import.meta.url).pathname;
const { ensureK6, findK6 } = await import('../src/load/k6.ts');
try {
  const had = findK6(root);
  const k6 = had ?? ensureK6(root);
  console.log(`dialtone: k6 ready (${k6})`);
} catch (e) {
  console.error(`dialtone: ${e.message}`);
}
