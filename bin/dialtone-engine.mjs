#!/usr/bin/env node
// dialtone's built-in load engine: runs k6 scripts with k6's documented semantics, in Node, on permissively licensed
// libraries. Its command line is the part of k6's that dialtone uses (`run`, `version`).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/engine/cli.ts');
const code = await main(process.argv.slice(2));
process.exit(code);
