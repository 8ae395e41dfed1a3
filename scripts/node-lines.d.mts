// Types of node-lines.mjs (plain JavaScript: npm test's runner, scripts/test.mjs, imports it before anything is built).
export declare const NODE_LINES: Readonly<Record<string, string>>;
/** Groups of command lines: each group's runs side by side, the groups one after the other. */
export declare const RUNS: readonly (readonly (readonly string[])[])[];
export declare function nodeBinary(version: string): string;
/** Runs `fn` once every gate asked for before it has ended: the lines run side by side, their gates one at a time. */
export declare function afterOtherGates<T>(fn: () => Promise<T>): Promise<T>;
