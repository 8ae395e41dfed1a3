import { existsSync, statSync } from 'node:fs';
import { engineName } from '../../core/engine-version.js';
import { EXIT, UsageError } from '../../errors.js';
import type { LoadResult } from '../../load/page.js';
import { readHistory } from '../../nightly/history.js';
import { judgeRun } from '../../nightly/judge-run.js';
import { verdictLines } from '../../nightly/verdict.js';
import { defineCommand, parseCommand } from '../command.js';
import { FAIL_ON_REGRESSION_FLAG } from '../flags.js';
import { exitWithVerdict } from './load-extras.js';

export const spec = defineCommand({
  name: 'verdict',
  summary: 'judges the latest run of a history file again, as load judged it',
  positionals: '',
  description: `Judges the latest run in a history file (the latest of workload W, as the history names workloads: 'smoke',
  'nightly at 50/s', 'smoke in 2 segments'; default the latest run's workload) against the runs recorded before it, as
  'dialtone load' judged it: the band around the last 14 runs of the workload on the same kind of engine, the drift
  over the whole history, and each pinned baseline (--baseline-tag). Prints the verdict lines.`,
  flags: {
    history: { type: 'string', value: 'FILE', help: 'the history file (required), e.g. reports/load/chat-turns/history.jsonl.' },
    workload: { type: 'string', value: 'W', help: 'the workload to judge, as the history names it.', defaultText: "the latest run's" },
    'fail-on-regression': FAIL_ON_REGRESSION_FLAG,
    json: { type: 'boolean', help: 'prints the verdict as JSON.' },
  },
  exits: {
    [EXIT.ok]: 'judged',
    [EXIT.usage]: 'no history file, one without runs, an unknown workload, or another usage error',
    [EXIT.regressed]: 'a regression, under --fail-on-regression',
  },
});

/** The runs of a history file, or a one-line usage error saying why there are none to judge. */
function runsIn(file: string): LoadResult[] {
  if (!existsSync(file)) throw new UsageError(`verdict: no history file at ${file}`);
  if (!statSync(file).isFile()) throw new UsageError(`verdict: ${file} is not a file`);
  let runs: LoadResult[];
  try {
    runs = readHistory(file);
  } catch (e) {
    throw new UsageError(`verdict: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message.split('\n')[0]})`);
  }
  if (!runs.length) throw new UsageError(`verdict: ${file} holds no runs`);
  return runs;
}

/** Judges the latest run of a history again, as `dialtone load` judged it. */
export async function verdict(argv: string[]): Promise<number> {
  const { values, positionals } = parseCommand(spec, argv);
  if (positionals.length) throw new UsageError(`verdict: unexpected argument '${positionals[0]}'`);
  if (!values.history) throw new UsageError('verdict: name the history file, e.g. dialtone verdict --history reports/load/chat-turns/history.jsonl');
  const file = values.history;
  const runs = runsIn(file);
  const workload = values.workload ?? runs.at(-1)?.workload;
  if (workload === undefined)
    throw new UsageError(`verdict: the latest run in ${file} names no workload (recorded before dialtone judged runs); give --workload`);
  const at = runs.findLastIndex((r) => r.workload === workload);
  if (at < 0) {
    const known = [...new Set(runs.flatMap((r) => (r.workload === undefined ? [] : [`'${r.workload}'`])))];
    throw new UsageError(`verdict: no run of workload '${workload}' in ${file}; its workloads: ${known.join(', ') || 'none'}`);
  }
  const tonight = runs[at] as LoadResult;
  if (!tonight.metrics) throw new UsageError(`verdict: the latest run of '${workload}' in ${file} recorded no metrics to judge`);
  const v = judgeRun(runs.slice(0, at), tonight);
  const engine = tonight.engine ?? { kind: 'k6' as const, version: 'k6 (version not recorded)' };
  if (values.json) {
    const run = { scenario: tonight.scenario, workload, engine, started_at: tonight.started_at, baseline_tag: tonight.baseline_tag };
    console.log(JSON.stringify({ history: file, run, verdict: v }, null, 2));
  } else {
    const tag = tonight.baseline_tag ? `, pinned as ${tonight.baseline_tag}` : '';
    console.log(`${tonight.scenario} (${workload}) on ${engineName(engine)}, the run of ${tonight.started_at}${tag} (${file})`);
    for (const line of verdictLines(v)) console.log(line);
  }
  return exitWithVerdict(0, v, values['fail-on-regression'] ?? false);
}
