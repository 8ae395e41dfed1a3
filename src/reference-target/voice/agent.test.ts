import { describe, expect, it } from 'vitest';
import { SPEECH_DBFS, VoiceAgent } from './agent.js';
import type { VoiceClips } from './opus.js';

const clip = (name: string, n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`${name}${i}`));
const clips: VoiceClips = { greeting: clip('g', 3), reply: clip('r', 2), silence: Buffer.from('.') };
const said = (agent: VoiceAgent, ticks: number, hear?: number) =>
  Array.from({ length: ticks }, () => {
    if (hear !== undefined) agent.hear(hear);
    return agent.nextFrame().toString();
  });

describe('VoiceAgent', () => {
  it('says its greeting, then silence', () => {
    const agent = new VoiceAgent({ clips, replyDelayTicks: 1 });
    agent.greet();
    expect(said(agent, 5)).toEqual(['g0', 'g1', 'g2', '.', '.']);
  });

  it('replies after the caller speaks and then pauses for 400 ms', () => {
    const turns: number[] = [];
    const agent = new VoiceAgent({ clips, replyDelayTicks: 1, onTurn: (ms) => turns.push(ms) });
    said(agent, 10, SPEECH_DBFS + 20);
    const after = said(agent, 25);
    expect(turns).toEqual([200]);
    expect(after.filter((f) => f.startsWith('r'))).toEqual(['r0', 'r1']);
    expect(after.indexOf('r0')).toBeGreaterThanOrEqual(19);
  });

  it('does not take a click or background noise for a turn', () => {
    const agent = new VoiceAgent({ clips, replyDelayTicks: 1 });
    said(agent, 2, SPEECH_DBFS + 20);
    said(agent, 10, SPEECH_DBFS - 10);
    expect(said(agent, 40).every((f) => f === '.')).toBe(true);
  });

  it('starts its greeting after the ticks a latency spec drew for the first agent audio', () => {
    const agent = new VoiceAgent({ clips, replyDelayTicks: 1 });
    agent.greet(3);
    expect(said(agent, 6)).toEqual(['.', '.', 'g0', 'g1', 'g2', '.']);
  });

  it("waits the drawn reply delay of each turn, counted from the caller's last speech, instead of its mode's own", () => {
    const delays = [30, 2];
    const agent = new VoiceAgent({ clips, replyDelayTicks: 1, drawReplyTicks: () => delays.shift() ?? 1 });
    said(agent, 10, SPEECH_DBFS + 20);
    const first = said(agent, 60);
    // The last speech frame was the tick before `first` began: the reply starts 30 ticks after it.
    expect(first.indexOf('r0')).toBe(30 - 1);
    said(agent, 10, SPEECH_DBFS + 20);
    // A draw shorter than the pause that ends the turn (on the 19th quiet frame, index 18) replies right after it.
    expect(said(agent, 30).indexOf('r0')).toBe(18 + 1);
  });
});
