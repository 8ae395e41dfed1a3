// What the built-in engine tells the process that started it once a dashboard period, over its IPC channel, when that
// process serves a live dashboard (src/load/dashboard/). The engine sends; dialtone's src/load reads: the one shape both
// layers share.
import type { HistogramFile } from './histogram-series.js';

/** The variable dialtone sets on the engine it starts: the dashboard's period in milliseconds. */
export const LIVE_FEED_ENV = 'DIALTONE_LIVE_FEED_MS';

/** One threshold as it stands so far. */
export interface LiveThreshold {
  readonly key: string;
  readonly source: string;
  readonly ok: boolean;
  /** What its aggregation gives so far; null before the (sub-)metric has a sample. */
  readonly value: number | null;
}

/** What a scenario's schedule asks for at the moment of the message. */
export interface LiveAsked {
  readonly scenario: string;
  readonly executor: string;
  /** Arrival-rate executors: iterations a second. */
  readonly rate_per_s?: number;
  /** The other executors: VUs at once. */
  readonly vus?: number;
}

/** One period's message. */
export interface LiveFeedMessage {
  readonly t: 'dialtone-live';
  /** Epoch ms when it was sent. */
  readonly at: number;
  /** Seconds since the scenarios started; 0 before. */
  readonly elapsed_s: number;
  /** Every sample the period added, in 1 s intervals (the same histograms `--out histograms` writes). */
  readonly period: HistogramFile;
  readonly thresholds: readonly LiveThreshold[];
  readonly asked: readonly LiveAsked[];
  readonly vus: number;
  readonly vus_max: number;
  /** The last message of the run. */
  readonly ended: boolean;
}

/**
 * Whether an IPC message is a live feed message.
 *
 * @example
 * child.on('message', (m) => { if (isLiveFeed(m)) dashboard.add(m); });
 */
export function isLiveFeed(m: unknown): m is LiveFeedMessage {
  return typeof m === 'object' && m !== null && (m as { t?: unknown }).t === 'dialtone-live';
}
