import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../../errors.js';
import { loadProfile } from '../../profile/load.js';
import { parse } from '../args.js';

export const usage = `dialtone traffic learn --target PROFILE [--since 30d|ISO] [--until ISO] [--out FILE] [--dialogues FILE] [--client-env ENV] [--api-version v3|v2|v1]
  Learns a traffic model from the platform's own conversation records (paged to the end, include_latency) and its
  concurrency series: arrivals per hour of day and the busiest hour, turns, think time, agent latency, duration,
  channel mix, handoff and end rates, with the number of conversations each rests on, and Little's law checked against
  the reported 5-minute peaks. Writes it as readable JSON (default traffic-model.json) to commit and edit.
  --since     how far back (30d, 12h) or an ISO 8601 instant. Default 30d.   --until  ISO 8601 instant. Default now.
  --dialogues also writes the user turns as a conversation-script file (the profile's 'dialogues' format), with
              digits, e-mail addresses and names masked. Without it no conversation text is read into any file.
  --client-env  live (default), sandbox or pre-release.  --api-version  v3 (default); v1 reads the legacy shapes.
  Exit 0 written, 2 bad flags or no records in the window, 3 the platform answered an error or could not be reached.`;

const AGO = /^(\d+(?:\.\d+)?)([dh])$/;
const UNIT_MS = { d: 86_400_000, h: 3_600_000 } as const;

/** An instant from `30d`/`12h` (before `now`) or ISO 8601; a bad one is a usage error naming the flag. */
function instantOf(flag: string, text: string, now: number): number {
  const ago = AGO.exec(text);
  if (ago) return now - Number(ago[1]) * UNIT_MS[ago[2] as 'd' | 'h'];
  const t = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(t)) throw new UsageError(`traffic learn: ${flag} must be like 30d, 12h or an ISO 8601 instant, got '${text}'`);
  return t;
}

/** Writes a JSON file, its folder made first. */
function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** `dialtone traffic learn`. */
async function learn(argv: string[]): Promise<number> {
  const { values } = parse('traffic learn', argv, {
    target: { type: 'string' },
    since: { type: 'string' },
    until: { type: 'string' },
    out: { type: 'string' },
    dialogues: { type: 'string' },
    'client-env': { type: 'string' },
    'api-version': { type: 'string' },
  });
  if (!values.target) throw new UsageError('traffic learn: --target PROFILE names the platform to learn from');
  const now = Date.now();
  const toMs = values.until === undefined ? now : instantOf('--until', values.until, now);
  const fromMs = instantOf('--since', values.since ?? '30d', toMs);
  if (fromMs >= toMs) throw new UsageError('traffic learn: --since must come before --until');
  const clientEnv = values['client-env'] ?? 'live';
  if (!['live', 'sandbox', 'pre-release'].includes(clientEnv))
    throw new UsageError(`traffic learn: --client-env must be live, sandbox or pre-release, got '${clientEnv}'`);
  const version = values['api-version'] ?? 'v3';
  if (!['v1', 'v2', 'v3'].includes(version)) throw new UsageError(`traffic learn: --api-version must be v3, v2 or v1, got '${version}'`);
  const loaded = loadProfile(values.target);
  const { learnFromTarget, describeModel } = await import('../../traffic/run.js');
  const learned = await learnFromTarget(loaded, { fromMs, toMs, clientEnv, version, dialogues: values.dialogues !== undefined });
  if (learned.model.source.conversations === 0) {
    throw new UsageError(
      `traffic learn: no ${clientEnv} conversation records from ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()}; widen --since`,
    );
  }
  const out = resolve(values.out ?? 'traffic-model.json');
  writeJson(out, learned.model);
  for (const line of describeModel(learned.model)) console.log(line);
  if (learned.skipped) console.log(`${learned.skipped} records without a readable started_at were left out`);
  console.log(`model: ${out}`);
  if (values.dialogues !== undefined) {
    if (!learned.dialogues) console.log('dialogues: none written, no record had a user turn (transcripts off?)');
    else {
      const file = resolve(values.dialogues);
      writeJson(file, learned.dialogues);
      console.log(`dialogues: ${file} (${learned.dialogues.dialogues.length}, masked)`);
    }
  }
  return 0;
}

/** Subcommands of `dialtone traffic`, by name. */
const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = { learn };

/** `dialtone traffic SUBCOMMAND`. */
export async function traffic(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const run = name === undefined ? undefined : SUBCOMMANDS[name];
  if (!run) throw new UsageError(`traffic: name a subcommand: ${Object.keys(SUBCOMMANDS).join(', ')}`);
  return run(rest);
}
