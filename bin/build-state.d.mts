// Types of build-state.mjs (plain JavaScript: the bin scripts read it before anything is transpiled).
export declare const ROOT: string;
export declare const STAMP: string;
export declare function stampOf(root: string): string;
export declare function sources(root?: string): string[];
export declare function isFresh(root?: string): boolean;
export declare function importSource(name: string): Promise<Record<string, unknown>>;
