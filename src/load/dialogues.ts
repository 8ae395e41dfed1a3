import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { describeIssue, type LoadedProfile } from '../profile/load.js';
import { SCENARIOS } from './scenario-declarations.js';

/**
 * What the agent is expected to do after a dialogue's last turn: `end` (chat: the answer carries `end_conversation`
 * true), `handoff` (chat: the answer carries document 1's `handoff` object, a `destination` and a `reason`), or `none`
 * (nothing is expected; the scenario closes the conversation as it would anyway).
 */
export const DialogueExpect = z.enum(['end', 'handoff', 'none'], { error: 'must be end, handoff or none' });
export type DialogueExpect = z.infer<typeof DialogueExpect>;

/** The highest weight of one dialogue, and of all weights together once divided by their common factor. */
export const MAX_WEIGHT = 1000;
export const MAX_SCHEDULE = 10_000;

/** One conversation script: the user's turns in order, and what the agent does after the last one. */
export const Dialogue = z.strictObject(
  {
    turns: z
      .array(z.string({ error: 'a turn must be a string' }).min(1, 'a turn must not be empty'), { error: 'must be a list of the user turns (strings)' })
      .min(1, 'a dialogue needs at least one turn'),
    expect: DialogueExpect,
    /** How often this dialogue is played relative to the others (default 1). */
    weight: z
      .number({ error: 'must be a whole number from 1 to 1000' })
      .int('must be a whole number from 1 to 1000')
      .min(1, 'must be a whole number from 1 to 1000')
      .max(MAX_WEIGHT, 'must be a whole number from 1 to 1000')
      .default(1),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object with turns and expect' : undefined) },
);
export type Dialogue = z.infer<typeof Dialogue>;

/**
 * A dialogues file (the profile's `dialogues`, JSON).
 *
 * @example
 * { "dialogues": [
 *   { "turns": ["Where is my order A1B2C3?", "That is all, thank you. Goodbye!"], "expect": "end", "weight": 3 },
 *   { "turns": ["My parcel arrived broken.", "Can I speak to a person, please?"], "expect": "handoff" },
 *   { "turns": ["What are your opening hours?"], "expect": "none" } ] }
 */
export const DialoguesFile = z.strictObject(
  { dialogues: z.array(Dialogue, { error: 'must be a list of dialogues' }).min(1, 'needs at least one dialogue') },
  { error: (issue) => (issue.code === 'invalid_type' ? 'must be an object with a dialogues list' : undefined) },
);
export type DialoguesFile = z.infer<typeof DialoguesFile>;

/** A dialogue as the data file carries it to the scenarios (src/load/vu/dialogues.ts reads it): the weight is in the schedule. */
export interface PlayedDialogue {
  readonly turns: readonly string[];
  readonly expect: DialogueExpect;
}

/** A dialogues file read and checked, ready for the data file. */
export interface DialogueSet {
  /** The file as the profile names it (relative to the profile), for the report. */
  readonly file: string;
  /** Where it was read from. */
  readonly path: string;
  readonly dialogues: readonly PlayedDialogue[];
  /** Dialogue indices in play order: each as often as its weight (divided by the weights' common factor), interleaved. */
  readonly schedule: readonly number[];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * The play order of dialogues by weight, by smooth weighted round robin: each index appears as often as its weight
 * (after dividing every weight by their common factor), spread out rather than in blocks, the same on every run.
 *
 * @example
 * dialogueSchedule([2, 1]) // [0, 1, 0]
 * dialogueSchedule([4, 2]) // [0, 1, 0]
 */
export function dialogueSchedule(weights: readonly number[]): number[] {
  const common = weights.reduce(gcd, 0) || 1;
  const w = weights.map((x) => x / common);
  const total = w.reduce((a, b) => a + b, 0);
  const current = w.map(() => 0);
  const out: number[] = [];
  for (let k = 0; k < total; k++) {
    let best = 0;
    for (let i = 0; i < w.length; i++) {
      current[i] = (current[i] as number) + (w[i] as number);
      if ((current[i] as number) > (current[best] as number)) best = i;
    }
    current[best] = (current[best] as number) - total;
    out.push(best);
  }
  return out;
}

/**
 * Parses a dialogues file's text; throws a one-line UsageError naming `source` and the first problem.
 *
 * @example
 * parseDialogues('{"dialogues":[]}', 'scripts.json') // UsageError "scripts.json: dialogues: needs at least one dialogue"
 */
export function parseDialogues(text: string, source: string, file = source): DialogueSet {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${source}: not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const parsed = DialoguesFile.safeParse(json);
  if (!parsed.success) throw new UsageError(describeIssue(source, parsed.error));
  const weights = parsed.data.dialogues.map((d) => d.weight);
  const common = weights.reduce(gcd, 0);
  const total = weights.reduce((a, b) => a + b, 0) / common;
  if (total > MAX_SCHEDULE) {
    throw new UsageError(`${source}: dialogues: the weights add up to ${total} (divided by their common factor ${common}); at most ${MAX_SCHEDULE}`);
  }
  return {
    file,
    path: source,
    dialogues: parsed.data.dialogues.map((d) => ({ turns: d.turns, expect: d.expect })),
    schedule: dialogueSchedule(weights),
  };
}

/** Reads and checks a dialogues file; a file that cannot be read is a one-line UsageError too. */
export function readDialogues(path: string, file = path): DialogueSet {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(`${path}: cannot read the profile's dialogues file${code ? ` (${code})` : ''}`);
  }
  return parseDialogues(text, path, file);
}

/**
 * The profile's dialogues, read from its `dialogues` file (relative to the profile's folder, as `env_file` and
 * `tls.ca_file`), or undefined when it names none.
 */
export function profileDialogues(loaded: LoadedProfile): DialogueSet | undefined {
  const file = loaded.profile.dialogues;
  if (!file) return undefined;
  return readDialogues(resolve(loaded.path ? dirname(loaded.path) : '.', file), file);
}

/**
 * What a run's LoadConfig (and its report) says about the dialogues it played, to spread into it: the file as the
 * profile names it and how many, or nothing when there are none or the scenario does not play them.
 *
 * @example
 * dialoguesField(set, 'chat-turns') // { dialogues: { file: 'support-scripts.json', count: 3 } }
 * dialoguesField(set, 'outbound-polling') // {}
 */
export function dialoguesField(set: DialogueSet | undefined, scenario: string): { dialogues?: { file: string; count: number } } {
  return set && SCENARIOS[scenario]?.playsDialogues ? { dialogues: { file: set.file, count: set.dialogues.length } } : {};
}
