import { fileURLToPath } from 'node:url';

/** The project root (where package.json, conformance/ and scenarios/ live), whatever the cwd. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
