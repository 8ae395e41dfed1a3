import { describe, expect, it } from 'vitest';
import { startProgress, wallTime } from './progress.js';

const recorder = (isTTY: boolean) => {
  const writes: string[] = [];
  return { out: { isTTY, write: (t: string) => writes.push(t) }, writes };
};

describe('progress of a long step', () => {
  it('says the wall time from the start to the end, not a sum of the parts', () => {
    let clock = 1_000;
    const { out, writes } = recorder(false);
    const p = startProgress('defect self-test', 3, out, () => clock);
    for (const _ of [1, 2, 3]) {
      clock += 20_000; // three parts of 20 s each, but side by side they could take any wall time: the clock decides
      p.tick();
    }
    expect(p.end()).toBe(60_000);
    expect(writes.at(-1)).toBe('defect self-test: 3 of 3 in 1 min 00 s\n');
  });

  it('rewrites one line in place on a terminal, and ends it with a newline', () => {
    let clock = 0;
    const { out, writes } = recorder(true);
    const p = startProgress('defect self-test', 2, out, () => clock);
    clock = 5_000;
    p.tick();
    p.end('all caught');
    expect(writes).toEqual(['\r\x1b[2Kdefect self-test: 1 of 2, 5 s', '\r\x1b[2Kdefect self-test: 1 of 2 in 5 s; all caught\n']);
  });

  it('writes no line per item in a log: one every 10 s, even when the step keeps the timer from firing', () => {
    let clock = 0;
    const { out, writes } = recorder(false);
    const p = startProgress('merge: segments read', 100, out, () => clock);
    for (let i = 0; i < 100; i++) {
      clock += 300;
      p.tick();
    }
    p.end();
    expect(writes).toEqual([
      'merge: segments read: 34 of 100, 10 s\n',
      'merge: segments read: 68 of 100, 20 s\n',
      'merge: segments read: 100 of 100 in 30 s\n',
    ]);
  });

  it('writes nothing for a step done within 2 s, so a usage error after it stays one line', () => {
    for (const isTTY of [true, false]) {
      const { out, writes } = recorder(isTTY);
      const p = startProgress('merge: segments read', 2, out, () => 0);
      p.tick();
      p.tick();
      p.end();
      expect(writes).toEqual([]);
    }
  });

  it("writes the step's own lines above the progress line on a terminal, and as they are in a log", () => {
    let clock = 0;
    const tty = recorder(true);
    const p = startProgress('capacity', 14, tty.out, () => clock);
    clock = 3_000;
    p.tick();
    p.note('step 1 (coarse) 1/s: SLOs held');
    expect(tty.writes).toEqual(['\r\x1b[2Kcapacity: 1 of 14, 3 s', '\r\x1b[2K', 'step 1 (coarse) 1/s: SLOs held\n', '\r\x1b[2Kcapacity: 1 of 14, 3 s']);
    const log = recorder(false);
    startProgress('capacity', 14, log.out, () => 0).note('step 1 (coarse) 1/s: SLOs held');
    expect(log.writes).toEqual(['step 1 (coarse) 1/s: SLOs held\n']);
  });

  it('ends once, however often it is ended', () => {
    let clock = 0;
    const { out, writes } = recorder(false);
    const p = startProgress('x', undefined, out, () => clock);
    clock = 5_000;
    p.end();
    p.end();
    expect(writes).toEqual(['x in 5 s\n']);
  });

  it('reads minutes and seconds as a person does', () => {
    expect(wallTime(47_400)).toBe('47 s');
    expect(wallTime(189_500)).toBe('3 min 10 s');
  });
});
