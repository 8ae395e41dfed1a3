/** The project root (where package.json, conformance/ and scenarios/ live), whatever the cwd (src/root.ts). */
export { ROOT } from '../root.js';
