// Runs inside k6 VUs: k6 globals and modules only, no Node APIs.
//
// The profile's conversation scripts as the data file carries them (src/load/data.ts writes them, src/load/dialogues.ts
// checks them; src/load/dialogues.test.ts keeps these types the same as those).

/** What the agent is expected to do after a dialogue's last turn. */
export type DialogueExpect = 'end' | 'handoff' | 'none';

/** One dialogue: the user's turns in order, and what the agent does after the last one. */
export interface PlayedDialogue {
  readonly turns: readonly string[];
  readonly expect: DialogueExpect;
}

/** The data file's dialogue part; both absent when the profile names no dialogues file. */
export interface DialogueData {
  readonly dialogues?: readonly PlayedDialogue[];
  /** Indices into `dialogues`, each as often as its weight, interleaved. */
  readonly dialogue_schedule?: readonly number[];
}

/**
 * The dialogue of play number `n`: the schedule round robin, so every dialogue is played in the proportion of its
 * weight even in a short run, and the same iteration plays the same dialogue on every run (night-to-night figures
 * compare the same mix). Undefined when there are no dialogues.
 *
 * @example
 * dialogueAt(dialogues, schedule, exec.scenario.iterationInTest)
 */
export function dialogueAt(dialogues: ArrayLike<PlayedDialogue>, schedule: ArrayLike<number>, n: number): PlayedDialogue | undefined {
  if (dialogues.length === 0 || schedule.length === 0) return undefined;
  return dialogues[schedule[n % schedule.length] as number];
}

/**
 * The turns of a dialogue that leave the agent talking: all of them for `none`, all but the last for `end` and
 * `handoff` (the last one ends the conversation or hands it to a person). messaging-sockets plays these, since
 * each of its messages must get the virtual agent's full reply.
 *
 * @example
 * openingTurns({ turns: ['Where is my parcel?', 'Goodbye'], expect: 'end' }) // ['Where is my parcel?']
 */
export function openingTurns(d: PlayedDialogue): readonly string[] {
  return d.expect === 'none' ? d.turns : d.turns.slice(0, -1);
}
