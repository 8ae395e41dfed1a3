import { describe, expect, it } from 'vitest';
import { SCENARIO_DEFAULTS } from '../load/defaults.js';
import { answeredOf, closedWorkOf, SCENARIO_UNITS, unitOf } from './units.js';

describe("the closed model's words", () => {
  it('are in the table for every scenario with a closed model, holding what its defaults say it holds', () => {
    const closed = Object.entries(SCENARIO_DEFAULTS).filter(([, d]) => d.closedModel);
    expect(closed.length).toBeGreaterThan(0);
    for (const [name, d] of closed) expect(SCENARIO_UNITS[name]?.closedWork?.held).toBe(d.closedModel?.held);
  });

  it("call a held call's work turns taken, counted a second as its messages are", () => {
    const calls = closedWorkOf('voice-calls');
    expect(answeredOf(calls, { offered_per_s: 3, answered_per_s: 2.9 })).toBe('2.9 of the 3.0 turns/s taken');
    expect(calls.pace(1, 0.25)).toBe('every call taking 0.25 turns/s');
  });

  it("give a scenario without a closed model its own unit, never another scenario's words", () => {
    const w = closedWorkOf('chat-turns');
    expect(w.held).toBe('conversations');
    expect(`${answeredOf(w, { offered_per_s: 2, answered_per_s: 1 })} ${w.pace(1, 2)} ${w.doing} ${w.rate}`).not.toMatch(/messages|sessions|turns|sockets/);
  });
});

describe("a scenario's unit", () => {
  it('is the one its declaration gives, never a quiet "iterations" for a scenario that has none', () => {
    expect(unitOf('outbound-polling')).toMatchObject({ unit: 'calls', surface: 'calls' });
    expect(() => unitOf('no-such')).toThrow("unknown scenario 'no-such'");
  });
});
