import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundTarget, dialtone } from './run-cli.js';

// Conversation scripts end to end: the reference target in its own process, a copy of its profile that names a
// dialogues file (relative to the profile), and `dialtone load` playing them. The reference agent ends a conversation
// on its goodbye phrase and hands off when asked for a person (the profile's chat_script holds both), so the `end`
// dialogue closes with the goodbye phrase and the `handoff` one with the handoff phrase.

type Checks = Record<string, { passes: number; fails: number }>;

// The runs side by side against one target, each with a report folder of its own.
describe.concurrent('conversation scripts named by the profile', () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-dialogues-'));
  const reference = join(work, 'ref.json');
  const scripted = join(work, 'scripted.json');
  const broken = join(work, 'broken.json');
  const wrong = join(work, 'wrong.json');
  let target: Awaited<ReturnType<typeof backgroundTarget>>;

  beforeAll(async () => {
    target = await backgroundTarget(reference);
    const profile = JSON.parse(readFileSync(reference, 'utf8'));
    const { goodbye_message, handoff_message } = profile.chat_script;
    mkdirSync(join(work, 'scripts'));
    const dialogues = [
      { turns: ['Hi, I ordered a desk lamp last week.', 'It has not arrived yet.', goodbye_message], expect: 'end', weight: 2 },
      { turns: ['My parcel arrived broken.', handoff_message], expect: 'handoff' },
      { turns: ['What are your opening hours?'], expect: 'none' },
    ];
    writeFileSync(join(work, 'scripts', 'support.json'), JSON.stringify({ dialogues }));
    writeFileSync(join(work, 'scripts', 'empty.json'), JSON.stringify({ dialogues: [] }));
    // Scripts that expect what this agent does not do on those phrases: the outcome checks must fail.
    const mistaken = [
      { turns: ['Hi, I ordered a desk lamp last week.', 'It has not arrived yet.'], expect: 'end' },
      { turns: ['My parcel arrived broken.', goodbye_message], expect: 'handoff' },
    ];
    writeFileSync(join(work, 'scripts', 'mistaken.json'), JSON.stringify({ dialogues: mistaken }));
    writeFileSync(wrong, JSON.stringify({ ...profile, dialogues: 'scripts/mistaken.json' }));
    writeFileSync(scripted, JSON.stringify({ ...profile, dialogues: 'scripts/support.json' }));
    writeFileSync(broken, JSON.stringify({ ...profile, dialogues: 'scripts/empty.json' }));
  }, 60_000);

  afterAll(async () => {
    await target?.stop();
  });

  it('plays them in chat-turns and passes, each dialogue checked for the outcome it expects', async () => {
    const reports = join(work, 'reports');
    const r = await dialtone(['load', 'chat-turns', '--target', scripted, '--duration', '5s', '--report-dir', reports], { timeoutMs: 150_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const summary = JSON.parse(readFileSync(join(reports, 'load', 'chat-turns', 'summary.json'), 'utf8'));
    const checks = summary.root_group.checks as Checks;
    // The handoff check passing means the handoff phrase was said: the faker turns never ask for a person.
    for (const name of [
      'the last turn of an end dialogue flags the conversation to end',
      'the last turn of a handoff dialogue answers a handoff with a destination and a reason',
      'every turn answers 200 with a boolean end_conversation',
      'close answers success: true',
    ]) {
      expect(checks[name]?.passes, name).toBeGreaterThan(0);
      expect(checks[name]?.fails, name).toBe(0);
    }
    // Played by weight 2 : 1 : 1, round robin by iteration: twice as many end dialogues as handoff ones, within one.
    const ends = checks['the last turn of an end dialogue flags the conversation to end']?.passes ?? 0;
    const handoffs = checks['the last turn of a handoff dialogue answers a handoff with a destination and a reason']?.passes ?? 0;
    expect(Math.abs(ends - 2 * handoffs)).toBeLessThanOrEqual(2);
    // No faker conversation was played: its goodbye check never ran.
    expect(checks['goodbye flags the conversation to end']).toBeUndefined();
    const result = JSON.parse(readFileSync(join(reports, 'load', 'chat-turns', 'result.json'), 'utf8'));
    expect(result.thresholds.every((t: { passed: boolean }) => t.passed)).toBe(true);
  }, 180_000);

  it('plays their opening turns in messaging-sockets and passes', async () => {
    const reports = join(work, 'reports-messaging');
    const r = await dialtone(['load', 'messaging-sockets', '--target', scripted, '--duration', '5s', '--report-dir', reports], { timeoutMs: 150_000 });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const checks = JSON.parse(readFileSync(join(reports, 'load', 'messaging-sockets', 'summary.json'), 'utf8')).root_group.checks as Checks;
    expect(checks['every message gets a full reply']?.passes).toBeGreaterThan(0);
    expect(checks['every message gets a full reply']?.fails).toBe(0);
  }, 180_000);

  it('fails chat-turns (exit 99) when the agent does not end or hand off where the dialogues expect it', async () => {
    const reports = join(work, 'reports-wrong');
    const r = await dialtone(['load', 'chat-turns', '--target', wrong, '--duration', '3s', '--report-dir', reports], { timeoutMs: 150_000 });
    expect(r.code, r.stdout + r.stderr).toBe(99);
    const checks = JSON.parse(readFileSync(join(reports, 'load', 'chat-turns', 'summary.json'), 'utf8')).root_group.checks as Checks;
    for (const name of [
      'the last turn of an end dialogue flags the conversation to end',
      'the last turn of a handoff dialogue answers a handoff with a destination and a reason',
    ]) {
      expect(checks[name]?.passes, name).toBe(0);
      expect(checks[name]?.fails, name).toBeGreaterThan(0);
    }
  }, 180_000);

  it('refuses a profile whose dialogues file has no dialogue with one line and exit 2, before the engine runs', async () => {
    const reports = join(work, 'reports-broken');
    const r = await dialtone(['load', 'chat-turns', '--target', broken, '--duration', '5s', '--report-dir', reports], { timeoutMs: 60_000 });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(`dialtone: ${join(work, 'scripts', 'empty.json')}: dialogues: needs at least one dialogue`);
    expect(r.stdout).not.toContain('load chat-turns (smoke) on');
  }, 90_000);
});
