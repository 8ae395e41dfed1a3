// Types of node-lines.mjs (plain JavaScript: npm test's runner, scripts/test.mjs, imports it before anything is built).
export declare const NODE_LINES: Readonly<Record<string, string>>;
export declare const RUNS: readonly (readonly string[])[];
export declare function nodeBinary(version: string): string;
