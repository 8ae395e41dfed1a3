import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EXIT, UsageError } from '../../errors.js';
import { loadProfile } from '../../profile/load.js';
import { defineCommand, parseCommand } from '../command.js';

const CLIENT_ENVS = ['live', 'sandbox', 'pre-release'];
const API_VERSIONS = ['v3', 'v2', 'v1'];

export const spec = defineCommand({
  name: 'traffic learn',
  summary: "learns a traffic model from the platform's own conversation records",
  description: `Learns a traffic model from the platform's own conversation records (paged to the end, include_latency) and its
  concurrency series: arrivals per hour of day and the busiest hour, turns, think time, agent latency, duration,
  channel mix, handoff and end rates, with the number of conversations each rests on, and Little's law checked against
  the reported 5-minute peaks. Writes it as readable JSON to commit and edit.`,
  flags: {
    target: { type: 'string', value: 'PROFILE', help: 'the profile of the platform to learn from (required).' },
    since: { type: 'string', value: '30d|ISO', help: 'how far back (30d, 12h) or an ISO 8601 instant.', default: '30d' },
    until: { type: 'string', value: 'ISO', help: 'an ISO 8601 instant.', defaultText: 'now' },
    out: { type: 'string', value: 'FILE', help: 'where the model goes.', default: 'traffic-model.json' },
    dialogues: {
      type: 'string',
      value: 'FILE',
      help:
        "also writes the user turns as a conversation-script file (the profile's 'dialogues' format), with digits, e-mail addresses and names masked. " +
        'Without it no conversation text is read into any file.',
    },
    'client-env': { type: 'string', choices: CLIENT_ENVS, help: 'the client environment whose records are read.', default: 'live' },
    'api-version': { type: 'string', choices: API_VERSIONS, help: 'the records API version; v1 reads the legacy shapes.', default: 'v3' },
  },
  exits: {
    [EXIT.ok]: 'written',
    [EXIT.usage]: 'bad flags or no records in the window',
    [EXIT.environment]: 'the platform answered an error or could not be reached',
  },
});

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
  const { values } = parseCommand(spec, argv);
  if (!values.target) throw new UsageError('traffic learn: --target PROFILE names the platform to learn from');
  const now = Date.now();
  const toMs = values.until === undefined ? now : instantOf('--until', values.until, now);
  const fromMs = instantOf('--since', values.since, toMs);
  if (fromMs >= toMs) throw new UsageError('traffic learn: --since must come before --until');
  const clientEnv = values['client-env'];
  const version = values['api-version'];
  const loaded = loadProfile(values.target);
  const { learnFromTarget, describeModel } = await import('../../traffic/run.js');
  const learned = await learnFromTarget(loaded, { fromMs, toMs, clientEnv, version, dialogues: values.dialogues !== undefined });
  if (learned.model.source.conversations === 0) {
    throw new UsageError(
      `traffic learn: no ${clientEnv} conversation records from ${new Date(fromMs).toISOString()} to ${new Date(toMs).toISOString()}; widen --since`,
    );
  }
  const out = resolve(values.out);
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
