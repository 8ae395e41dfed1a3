import { describe, expect, it } from 'vitest';
import type { StepResult } from '../../capacity/step.js';
import { UsageError } from '../../errors.js';
import { commandHelp } from '../help.js';
import { spec as capacitySpec, confirmLargeRate, LARGE_MAX_RATE, offeredLine } from './capacity.js';
import { spec as loadSpec } from './load.js';

const step = (o: Partial<StepResult>): StepResult => ({ offered_rate: 20, throughput: 19.5, ...o }) as StepResult;

describe("a capacity step's line", () => {
  const messages = { offered_per_s: 5, answered_per_s: 4.8 };

  it('counts a held messaging session as a session sending messages, as it always read', () => {
    expect(offeredLine('messaging-sockets', true)(step({ messages }))).toBe('held 20 sessions (sending 5.0/s, 4.8/s answered)');
  });

  it('says a held voice call is a call taking turns, never a session sending messages', () => {
    const line = offeredLine('voice-calls', true)(step({ messages }));
    expect(line).toBe('held 20 calls (taking turns at 5.0/s, 4.8/s answered)');
    expect(line).not.toMatch(/session|sending|message/);
  });

  it("gives an arrival rate in the scenario's own unit", () => {
    expect(offeredLine('voice-browser', false)(step({ offered_rate: 0.04, throughput: 0.04 }))).toBe('offered 0.04 browsers/s: throughput 0.04/s');
    expect(offeredLine('chat-turns', false)(step({}))).toBe('offered 20.00 conversations/s: throughput 19.50/s');
  });
});

describe('capacity --help for a platform engineer planning from it', () => {
  it("shows an example command with what it printed, each scenario's unit, and the caution for a shared environment", () => {
    const help = commandHelp(capacitySpec);
    expect(help).toMatch(/\nexample:\n {2}\$ npx dialtone capacity chat-turns .*\n {2}step 0 \(coarse\) offered 1\.00 conversations\/s/);
    expect(help).toContain('Sustains 2.50 conversations/s with every SLO');
    // The scenarios in the folder's order, each in its declared unit.
    expect(help).toMatch(/chat-turns\sconversations\/s,\sconversations-paging\swalks\/s,\smessaging-sockets\ssessions\/s,\soutbound-polling\scalls\/s/);
    expect(help).toMatch(/Against a shared environment \(staging\)/);
    expect(help).not.toMatch(/src\/capacity\/units\.ts/);
  });
});

describe('a large --max-rate against a target that is not the reference target', () => {
  it("needs --yes off a terminal, saying the most it may offer in the scenario's words; a small one or --yes goes on", async () => {
    const refused = confirmLargeRate('chat-turns', 1000, 'staging', false, false);
    await expect(refused).rejects.toThrow(UsageError);
    await expect(refused).rejects.toThrow(
      "capacity: the search may offer up to 1000 conversations/s (about 7,000 requests/s) to 'staging', which is not the reference target: " +
        `pass --yes to go on, or a --max-rate of ${LARGE_MAX_RATE} or less`,
    );
    await expect(confirmLargeRate('chat-turns', 1000, 'staging', true, false)).resolves.toBeUndefined();
    await expect(confirmLargeRate('chat-turns', LARGE_MAX_RATE, 'staging', false, false)).resolves.toBeUndefined();
  });
});

describe("capacity --help's --model and --message-rate", () => {
  it('name every scenario with a closed model, what it holds and the work it does, in the words of its report', () => {
    const help = commandHelp(capacitySpec).replace(/\s+/g, ' ');
    expect(help).not.toContain('messaging-sockets only');
    expect(help).toContain('messaging-sockets holds sessions, 10 sockets to one, every socket sending 1.00 messages/s (10.0 messages/s a session) by default');
    expect(help).toContain('voice-calls holds calls, every call taking 0.25 turns/s by default');
    expect(help).toContain('user messages a second per socket for messaging-sockets, turns a second per call for voice-calls.');
  });
});

describe("load --help's --rate", () => {
  it("says what the rate counts from each scenario's own workload: iterations a second, or VUs at once", () => {
    const help = commandHelp(loadSpec).replace(/\s+/g, ' ');
    expect(help).toMatch(/iterations a second where it is an arrival rate \([^)]*\bconversations for chat-turns,/);
    expect(help).toContain('VUs at once where it runs a number of VUs (browsers for voice-browser or calls for voice-calls)');
  });
});
