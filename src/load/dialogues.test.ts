import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ROOT } from '../cli/root.js';
import { UsageError } from '../errors.js';
import { type LoadedProfile, parseProfile } from '../profile/load.js';
import { type ChatData, writeChatData } from './data.js';
import { type DialogueSet, dialogueSchedule, dialoguesField, type PlayedDialogue, parseDialogues, profileDialogues, readDialogues } from './dialogues.js';
import type { Engine } from './engine.js';
import { EXAMPLE_PROFILE } from './example-profile.js';
import { jobManifests } from './k8s-job.js';
import { operatorManifests } from './operator.js';
import { planLoad } from './plan.js';
import { loadConfigOf, prepareRunKit } from './run-kit.js';
import type { DialogueData, PlayedDialogue as VuDialogue } from './vu/dialogues.js';
import { dialogueAt, openingTurns } from './vu/dialogues.js';

const GOOD = {
  dialogues: [
    { turns: ['Where is my order A1B2C3?', 'It was due on Monday.', 'That is all, thank you. Goodbye!'], expect: 'end', weight: 2 },
    { turns: ['My parcel arrived broken.', 'Can I speak to a person, please?'], expect: 'handoff' },
    { turns: ['What are your opening hours?'], expect: 'none' },
  ],
};

/** The one-line message a dialogues text is refused with. */
function refusal(text: string): string {
  try {
    parseDialogues(text, 'scripts.json');
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    const message = (e as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('accepted');
}

/** A profile file in its own folder naming `dialogues`, loaded as a command would load it. */
function profileIn(dir: string, dialogues: string | undefined): LoadedProfile {
  const path = join(dir, 'staging-us.json');
  const value = { ...EXAMPLE_PROFILE, ...(dialogues ? { dialogues } : {}) };
  writeFileSync(path, JSON.stringify(value));
  return { profile: parseProfile(value, path), path, secrets: {} };
}

describe('the dialogues file', () => {
  it('parses a good file into its dialogues and a play order by weight', () => {
    const set = parseDialogues(JSON.stringify(GOOD), '/p/scripts.json', 'scripts.json');
    expect(set.file).toBe('scripts.json');
    expect(set.path).toBe('/p/scripts.json');
    expect(set.dialogues).toEqual([
      { turns: ['Where is my order A1B2C3?', 'It was due on Monday.', 'That is all, thank you. Goodbye!'], expect: 'end' },
      { turns: ['My parcel arrived broken.', 'Can I speak to a person, please?'], expect: 'handoff' },
      { turns: ['What are your opening hours?'], expect: 'none' },
    ]);
    expect(set.schedule).toEqual([0, 1, 2, 0]);
  });

  it('refuses each bad file with one line that names the file and the first problem', () => {
    expect(refusal('{"dialogues": [')).toMatch(/^scripts\.json: not valid JSON \(.+\)$/);
    expect(refusal('[]')).toBe('scripts.json: (root): must be an object with a dialogues list');
    expect(refusal('{}')).toBe('scripts.json: dialogues: must be a list of dialogues');
    expect(refusal('{"dialogues": []}')).toBe('scripts.json: dialogues: needs at least one dialogue');
    expect(refusal('{"dialogues": [{"turns": [], "expect": "end"}]}')).toBe('scripts.json: dialogues.0.turns: a dialogue needs at least one turn');
    expect(refusal('{"dialogues": [{"expect": "end"}]}')).toBe('scripts.json: dialogues.0.turns: must be a list of the user turns (strings)');
    expect(refusal('{"dialogues": [{"turns": ["hi", ""], "expect": "end"}]}')).toBe('scripts.json: dialogues.0.turns.1: a turn must not be empty');
    expect(refusal('{"dialogues": [{"turns": ["hi", 3], "expect": "end"}]}')).toBe('scripts.json: dialogues.0.turns.1: a turn must be a string');
    expect(refusal('{"dialogues": [{"turns": ["hi"]}]}')).toBe('scripts.json: dialogues.0.expect: must be end, handoff or none');
    expect(refusal('{"dialogues": [{"turns": ["hi"], "expect": "hangup"}]}')).toBe('scripts.json: dialogues.0.expect: must be end, handoff or none');
    expect(refusal('{"dialogues": ["hi"]}')).toBe('scripts.json: dialogues.0: must be an object with turns and expect');
    expect(refusal('{"dialogues": [{"turns": ["hi"], "expect": "none", "weight": 0}]}')).toBe(
      'scripts.json: dialogues.0.weight: must be a whole number from 1 to 1000',
    );
    expect(refusal('{"dialogues": [{"turns": ["hi"], "expect": "none", "weight": 1.5}]}')).toBe(
      'scripts.json: dialogues.0.weight: must be a whole number from 1 to 1000',
    );
    expect(refusal('{"dialogues": [{"turns": ["hi"], "expect": "none", "name": "x"}]}')).toMatch(/^scripts\.json: dialogues\.0: Unrecognized key: "name"$/);
    const heavy = { dialogues: Array.from({ length: 11 }, (_, i) => ({ turns: ['hi'], expect: 'none', weight: i === 0 ? 1 : 1000 })) };
    expect(refusal(JSON.stringify(heavy))).toBe('scripts.json: dialogues: the weights add up to 10001 (divided by their common factor 1); at most 10000');
  });

  it('refuses a file that cannot be read, naming it', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'dialtone-dialogues-')), 'missing.json');
    expect(() => readDialogues(path)).toThrow(new UsageError(`${path}: cannot read the profile's dialogues file (ENOENT)`));
  });

  it('reads the file the profile names, relative to the profile folder, and nothing when it names none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-dialogues-'));
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts', 'support.json'), JSON.stringify(GOOD));
    const set = profileDialogues(profileIn(dir, 'scripts/support.json')) as DialogueSet;
    expect(set.file).toBe('scripts/support.json');
    expect(set.path).toBe(join(dir, 'scripts', 'support.json'));
    expect(set.dialogues).toHaveLength(3);
    expect(profileDialogues(profileIn(dir, undefined))).toBeUndefined();
  });

  it('refuses a profile whose dialogues field is empty', () => {
    expect(() => parseProfile({ ...EXAMPLE_PROFILE, dialogues: '' }, 'staging-us.json')).toThrow(
      new UsageError("staging-us.json: dialogues: expected a non-empty string, found ''"),
    );
  });
});

describe('the play order', () => {
  it('plays each dialogue as often as its weight, interleaved, the same every time', () => {
    expect(dialogueSchedule([1])).toEqual([0]);
    expect(dialogueSchedule([1, 1, 1])).toEqual([0, 1, 2]);
    expect(dialogueSchedule([5, 1, 1])).toEqual([0, 0, 1, 0, 2, 0, 0]);
    // Divided by the common factor first: 400 and 200 play like 2 and 1.
    expect(dialogueSchedule([400, 200])).toEqual([0, 1, 0]);
    const order = dialogueSchedule([3, 7, 10]);
    expect(order).toHaveLength(20);
    expect([0, 1, 2].map((i) => order.filter((x) => x === i).length)).toEqual([3, 7, 10]);
  });

  it('gives iteration n the dialogue of schedule entry n mod its length, and none without dialogues', () => {
    const set = parseDialogues(JSON.stringify(GOOD), 'scripts.json');
    const expects = Array.from({ length: 8 }, (_, n) => dialogueAt(set.dialogues, set.schedule, n)?.expect);
    expect(expects).toEqual(['end', 'handoff', 'none', 'end', 'end', 'handoff', 'none', 'end']);
    expect(dialogueAt([], [], 3)).toBeUndefined();
  });

  it('leaves the closing turn of an end or handoff dialogue out of the turns that keep the agent talking', () => {
    const [end, handoff, none] = parseDialogues(JSON.stringify(GOOD), 'scripts.json').dialogues as PlayedDialogue[];
    expect(openingTurns(end as PlayedDialogue)).toEqual(['Where is my order A1B2C3?', 'It was due on Monday.']);
    expect(openingTurns(handoff as PlayedDialogue)).toEqual(['My parcel arrived broken.']);
    expect(openingTurns(none as PlayedDialogue)).toEqual(['What are your opening hours?']);
  });

  it('has the same dialogue types on the Node side that writes them and in the scenarios that read them', () => {
    expectTypeOf<PlayedDialogue>().toEqualTypeOf<VuDialogue>();
    expectTypeOf<ChatData['dialogues']>().toEqualTypeOf<DialogueData['dialogues']>();
    expectTypeOf<ChatData['dialogue_schedule']>().toEqualTypeOf<DialogueData['dialogue_schedule']>();
  });
});

describe('the data file and the run config', () => {
  it('carry the dialogues and their play order beside the same faker texts, and only when the profile names a file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-dialogues-'));
    const set = parseDialogues(JSON.stringify(GOOD), join(dir, 'scripts.json'), 'scripts.json');
    writeChatData(join(dir, 'with.json'), 42, 10, set);
    writeChatData(join(dir, 'without.json'), 42, 10);
    const withDialogues = JSON.parse(readFileSync(join(dir, 'with.json'), 'utf8'));
    const without = JSON.parse(readFileSync(join(dir, 'without.json'), 'utf8'));
    expect(withDialogues.dialogues).toEqual(set.dialogues);
    expect(withDialogues.dialogue_schedule).toEqual([0, 1, 2, 0]);
    expect(withDialogues.messages).toEqual(without.messages);
    expect(withDialogues.phone_numbers).toEqual(without.phone_numbers);
    expect(Object.keys(without).sort()).toEqual(['messages', 'phone_numbers']);
  });

  it('names the file and counts its dialogues in the config of a scenario that plays them, and not in the others', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-dialogues-'));
    writeFileSync(join(dir, 'scripts.json'), JSON.stringify(GOOD));
    const loaded = profileIn(dir, 'scripts.json');
    const dialogues = profileDialogues(loaded);
    const config = (scenario: string) => loadConfigOf({ scenario, workload: 'smoke', loaded, dataFile: '/test/data.json', dialogues });
    expect(config('chat-turns').dialogues).toEqual({ file: 'scripts.json', count: 3 });
    expect(config('messaging-sockets').dialogues).toEqual({ file: 'scripts.json', count: 3 });
    expect('dialogues' in config('outbound-polling')).toBe(false);
    expect(dialoguesField(undefined, 'chat-turns')).toEqual({});
  });

  it('are written by the run kit, and a bad dialogues file is refused by the load plan before anything is built', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-dialogues-'));
    writeFileSync(join(dir, 'scripts.json'), JSON.stringify(GOOD));
    const engine = { kind: 'builtin', command: process.execPath, args: [] } as unknown as Engine;
    const planOf = (file: string) => planLoad({ command: 'load', root: ROOT, engine, scenario: 'chat-turns', workload: 'smoke', target: profileIn(dir, file) });
    const plan = planOf('scripts.json');
    const kit = await prepareRunKit(plan, join(dir, 'work'));
    expect(kit.config.dialogues).toEqual({ file: 'scripts.json', count: 3 });
    expect(JSON.parse(readFileSync(kit.config.dataFile, 'utf8')).dialogue_schedule).toEqual([0, 1, 2, 0]);

    writeFileSync(join(dir, 'bad.json'), '{"dialogues": [{"turns": [], "expect": "end"}]}');
    const work = join(dir, 'bad-work');
    // The plan reads the dialogues before any kit is made: nothing is built.
    expect(() => planOf('bad.json')).toThrow(new UsageError(`${join(dir, 'bad.json')}: dialogues.0.turns: a dialogue needs at least one turn`));
    expect(() => readFileSync(join(work, 'script.js'))).toThrow();
  }, 60_000);
});

describe('distributed runs', () => {
  it('put the dialogues in the k6-operator ConfigMap data file and name them in its config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-dialogues-'));
    writeFileSync(join(dir, 'scripts.json'), JSON.stringify(GOOD));
    const { files } = await operatorManifests({
      root: ROOT,
      scenario: 'chat-turns',
      workload: 'nightly',
      loaded: profileIn(dir, 'scripts.json'),
      parallelism: 2,
      secretName: 'dialtone-credentials',
    });
    const data = (files['configmap.yaml'] as { data: Record<string, string> }).data;
    expect(JSON.parse(data['data.json'] as string).dialogues).toHaveLength(3);
    expect(JSON.parse(data['config.json'] as string).dialogues).toEqual({ file: 'scripts.json', count: 3 });
  }, 60_000);

  it('carry the dialogues file in the k8s-job ConfigMap as dialogues.json beside the profile, and refuse a bad one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-dialogues-'));
    mkdirSync(join(dir, 'scripts'));
    writeFileSync(join(dir, 'scripts', 'support.json'), JSON.stringify(GOOD));
    const options = { root: ROOT, scenario: 'chat-turns', workload: 'nightly', parallelism: 2, secretName: 'dialtone-credentials' } as const;
    const path = join(dir, 'staging.json');
    const { files } = jobManifests({ ...options, profile: { json: { ...EXAMPLE_PROFILE, dialogues: 'scripts/support.json' }, path } });
    const data = (files['configmap.yaml'] as { data: Record<string, string> }).data;
    expect(Object.keys(data).sort()).toEqual(['dialogues.json', 'profile.json']);
    expect(JSON.parse(data['dialogues.json'] as string)).toEqual(GOOD);
    expect(JSON.parse(data['profile.json'] as string).dialogues).toBe('dialogues.json');
    expect(() => jobManifests({ ...options, profile: { json: { ...EXAMPLE_PROFILE, dialogues: 'scripts/none.json' }, path } })).toThrow(
      new UsageError(`${join(dir, 'scripts', 'none.json')}: cannot read the profile's dialogues file (ENOENT)`),
    );
  });
});
