import { RecordsClient } from '../clients/records.js';
import type { DialoguesFile } from '../load/dialogues.js';
import type { LoadedProfile } from '../profile/load.js';
import { learnDialogues } from './dialogues.js';
import { learnModel, type TrafficRecord, trafficRecordOf } from './learn.js';
import type { TrafficModel } from './model.js';
import { readConcurrency, readRecords } from './read.js';

/** What `dialtone traffic learn` reads: the window, the client environment and the conversations API version. */
export interface LearnRequest {
  readonly fromMs: number;
  readonly toMs: number;
  readonly clientEnv: string;
  readonly version: string;
  /** Also make a conversation-script file from the user turns, masked. */
  readonly dialogues: boolean;
  readonly progress?: (message: string) => void;
}

/** A learned model, and the masked dialogues when asked for (undefined when no record had a user turn). */
export interface Learned {
  readonly model: TrafficModel;
  readonly dialogues: DialoguesFile | undefined;
  /** Records read that had no readable started_at and were left out. */
  readonly skipped: number;
}

/**
 * Reads a target's records and concurrency series for the window and learns the traffic model from them.
 *
 * @example
 * const { model } = await learnFromTarget(loaded, { fromMs, toMs, clientEnv: 'live', version: 'v3', dialogues: false });
 */
export async function learnFromTarget(loaded: LoadedProfile, req: LearnRequest): Promise<Learned> {
  const client = new RecordsClient(loaded);
  const w = { fromMs: req.fromMs, toMs: req.toMs, clientEnv: req.clientEnv };
  const raw = await readRecords(client, req.version, w, (n) => req.progress?.(`${n} records read`));
  const windows = await readConcurrency(client, w);
  const records = raw.map(trafficRecordOf).filter((r): r is TrafficRecord => r !== undefined);
  const model = learnModel(records, windows, {
    baseUrl: client.baseUrl,
    clientEnv: req.clientEnv,
    apiVersion: req.version,
    fromMs: req.fromMs,
    toMs: req.toMs,
  });
  return { model, dialogues: req.dialogues ? learnDialogues(raw) : undefined, skipped: raw.length - records.length };
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

/**
 * The model in a few lines for the terminal: what it rests on, the medians, the busiest hour and Little's law beside
 * the reported concurrency (saying so when they disagree by more than 20 %).
 */
export function describeModel(m: TrafficModel): string[] {
  const l = m.littles_law;
  const lines = [
    `${m.source.conversations} conversations from ${m.source.since} to ${m.source.until} (${m.source.client_env}, ${m.source.api_version}; ` +
      `${m.source.without_turns} without turns)`,
    `busiest hour ${m.arrivals.busiest_hour.start}: ${m.arrivals.busiest_hour.conversations} conversations, ${m.arrivals.busiest_hour.per_second}/s`,
    `medians: ${m.turns.p50} turns, think time ${m.think_time_s.p50} s, agent latency ${m.agent_latency_s.p50} s, duration ${m.duration_s.p50} s`,
    `handoff ${pct(m.handoff_rate)}, ended ${pct(m.end_rate)}; channels ${Object.entries(m.channels)
      .map(([c, s]) => `${c} ${pct(s)}`)
      .join(', ')}`,
  ];
  const law =
    `Little's law in the busiest hour: ${l.arrival_per_second}/s × ${l.mean_duration_s} s = ${l.mean_concurrency} open on average, a ` +
    `5-minute peak of ${l.predicted_peak}`;
  if (l.reported_peak === null) lines.push(`${law}; the platform reported no concurrency for that hour`);
  else
    lines.push(
      `${law}; the platform reported ${l.reported_peak} (${pct(l.disagreement ?? 0)} ` +
        `apart${l.agrees ? '' : ': they disagree by more than 20 %, so the records or the concurrency series miss something'})`,
    );
  return lines;
}
