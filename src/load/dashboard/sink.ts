// The one open live dashboard of this process, as the engine's spawn site sees it: kept apart from the server so
// starting an engine loads no plot code. src/load/spawn-engine.ts gives every built-in engine it starts the feed's
// variable and hands its IPC messages here, so load, each capacity step and the load under the gate all feed it.
import type { ChildProcess } from 'node:child_process';

/** What the spawn site needs of a dashboard. */
export interface LiveSink {
  /** The variables the engine gets: the feed's period. */
  readonly env: Readonly<Record<string, string>>;
  /** Listens to the engine's messages until it ends. */
  attach(child: ChildProcess): void;
  /** Names the capacity step being tried. */
  step(label: string): void;
}

let current: LiveSink | undefined;

/**
 * Makes `sink` the one that engines started from now on feed; undefined stops it.
 *
 * @example
 * setLiveSink(dashboard); … ; setLiveSink(undefined);
 */
export function setLiveSink(sink: LiveSink | undefined): void {
  current = sink;
}

/** The dashboard engines feed now, if one is open. */
export function liveSink(): LiveSink | undefined {
  return current;
}
