import { describe, expect, it } from 'vitest';
import type { StepResult } from '../../capacity/step.js';
import { commandHelp } from '../help.js';
import { offeredLine } from './capacity.js';
import { spec as loadSpec } from './load.js';

const step = (o: Partial<StepResult>): StepResult => ({ offered_rate: 20, throughput: 19.5, ...o }) as StepResult;

describe("a capacity step's line", () => {
  it('counts a held voice call as a call and a held messaging session as a session', () => {
    const messages = { offered_per_s: 5, answered_per_s: 4.8 };
    expect(offeredLine('voice-calls', true)(step({ messages }))).toBe('held 20 calls (sending 5.0/s, 4.8/s answered)');
    expect(offeredLine('messaging-sockets', true)(step({ messages }))).toBe('held 20 sessions (sending 5.0/s, 4.8/s answered)');
  });

  it("gives an arrival rate in the scenario's own unit", () => {
    expect(offeredLine('voice-browser', false)(step({ offered_rate: 0.04, throughput: 0.04 }))).toBe('offered 0.04 browsers/s: throughput 0.04/s');
    expect(offeredLine('chat-turns', false)(step({}))).toBe('offered 20.00 conversations/s: throughput 19.50/s');
  });
});

describe("load --help's --rate", () => {
  it("says what the rate counts from each scenario's own workload: iterations a second, or VUs at once", () => {
    const help = commandHelp(loadSpec).replace(/\s+/g, ' ');
    expect(help).toContain('iterations a second where it is an arrival rate (conversations for chat-turns,');
    expect(help).toContain('VUs at once where it runs a number of VUs (browsers for voice-browser or calls for voice-calls)');
  });
});
