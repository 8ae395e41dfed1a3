// `--workload learned` on the command line: a traffic model (`dialtone traffic learn`) read and turned into the
// workload `load` plays and `capacity` searches with.
import { UsageError } from '../../errors.js';
import type { LearnedWorkload } from '../../load/config.js';
import { SCENARIOS } from '../../load/scenario-declarations.js';
import { readModel } from '../../traffic/model-file.js';
import { learnedWorkload } from '../../traffic/play.js';
import type { FlagSpec } from '../command.js';

/** The workload that plays a traffic model instead of a scenario's own figures. */
export const LEARNED = 'learned';
/** The scenarios whose declarations say they can play a learned workload (turns and think times). */
const learnedScenarios = (): string[] => Object.keys(SCENARIOS).filter((name) => SCENARIOS[name]?.playsLearned);
/** The traffic model `--workload learned` reads without --traffic. */
export const DEFAULT_TRAFFIC_FILE = 'traffic-model.json';

/** --compress: plays a whole day's hourly rates N times faster. */
export const COMPRESS_FLAG = {
  type: 'string',
  value: 'N',
  kind: 'integer',
  min: 1,
  max: 3600,
  help: "with --workload learned, plays the whole day's hourly rates N times faster (144: 24 h in 10 min).",
} as const satisfies FlagSpec;

/**
 * `--workload learned`: the traffic model read and turned into a workload; bad flags or a bad file are usage errors,
 * worded for `command` (load, or capacity, which searches the rate and so takes neither --compress nor --duration).
 *
 * @example
 * learnedOf('chat-turns', { traffic: 'model.json' }, 'capacity').turns.p50 // 5
 */
export function learnedOf(
  scenario: string,
  v: { traffic?: string | undefined; compress?: number | undefined; duration?: string | undefined; rate?: number | undefined },
  command: 'load' | 'capacity' = 'load',
): LearnedWorkload {
  if (!SCENARIOS[scenario]?.playsLearned) throw new UsageError(`${command}: --workload learned plays ${learnedScenarios().join(', ')} only, not ${scenario}`);
  if (v.rate !== undefined) throw new UsageError(`${command}: --workload learned takes its rate from the traffic model; leave out --rate`);
  const { compress } = v;
  if (compress !== undefined && v.duration !== undefined) throw new UsageError(`${command}: --compress plays a whole day in 24 h / N; leave out --duration`);
  const file = v.traffic ?? DEFAULT_TRAFFIC_FILE;
  return learnedWorkload(readModel(file, `${command}: --traffic`), { file, compress, duration: v.duration });
}
