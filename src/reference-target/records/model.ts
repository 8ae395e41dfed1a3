import type { ClientEnv } from '../../contract/common.js';

/** One exchange of a record's transcript, in the reference target's own terms (milliseconds, no nulls). */
export interface TurnData {
  readonly userInput: string;
  readonly userInputDtmf: string;
  readonly userAt: number;
  readonly bargeIn: boolean;
  readonly agentResponse: string;
  readonly agentAt: number;
  /** Milliseconds from the end of the user's input to the agent's answer. */
  readonly latencyMs: number;
  readonly intents: readonly string[];
  /** Entity name to value; a turn with any entity holds PII in its recording. */
  readonly entities: Readonly<Record<string, string>>;
  readonly isOod: boolean;
  readonly isSilence: boolean;
}

/**
 * A conversation record before rendering: either generated (seeded history) or built from a live
 * conversation at read time. Durations of a record in progress run until "now".
 */
export interface RecordData {
  readonly id: string;
  readonly variantId: string;
  readonly variantName: string;
  readonly environment: ClientEnv;
  readonly startedAt: number;
  readonly channel: string;
  readonly fromNumber: string;
  readonly toNumber: string;
  readonly inProgress: boolean;
  /** When the conversation ended; undefined while in progress. */
  readonly endedAt: number | undefined;
  /** Seconds into the conversation at which it was handed off; undefined without handoff. */
  readonly handoffAtSeconds: number | undefined;
  readonly handoff: { readonly destination: string; readonly reason: string } | undefined;
  /** Language code, kept in state and used by the concurrency language filter. */
  readonly language: string;
  readonly turns: readonly TurnData[];
  /** Conversation variables set during the call, built-in keys included. */
  readonly state: Readonly<Record<string, unknown>>;
}

/**
 * When a record stops counting as active: its end, or `now` while it is in progress.
 *
 * @example
 * activeUntil({ endedAt: undefined } as RecordData, 5_000); // 5000
 */
export function activeUntil(r: Pick<RecordData, 'endedAt'>, now: number): number {
  return r.endedAt ?? Math.max(now, 0);
}

/** Ascending order of records: started_at, then id, so keyset cursors have a strict total order. */
export function compareRecords(a: Pick<RecordData, 'startedAt' | 'id'>, b: Pick<RecordData, 'startedAt' | 'id'>): number {
  return a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
