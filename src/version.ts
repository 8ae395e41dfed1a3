import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './root.js';

/**
 * dialtone's version: the one in package.json, read once. `--version` prints it, every report carries it as
 * `tool_version`, and the built-in engine reports it as its own, so the three never disagree.
 *
 * @example
 * `dialtone ${DIALTONE_VERSION}`; // 'dialtone 0.1.0'
 */
export const DIALTONE_VERSION: string = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
