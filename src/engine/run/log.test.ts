// The run's log reads the time from the clock it is given, so its seconds and its flood limit are judged here on a
// clock the test moves, not on real time.
import { describe, expect, it } from 'vitest';
import type { EngineIo } from './io.js';
import { RunLog } from './log.js';

/** An io whose clock the test sets and whose stderr it reads. */
function fakeIo(): { io: EngineIo; at: { now: number }; err: () => string } {
  const at = { now: 1_000_000 };
  let text = '';
  const io: EngineIo = {
    stdout: { write: () => {} },
    stderr: { write: (s) => (text += String(s)) },
    env: {},
    clock: { now: () => at.now },
    signals: { on: () => {}, off: () => {} },
  };
  return { io, at, err: () => text };
}

describe("the run's log", () => {
  it("writes k6's text lines with the whole seconds since the run started on its clock", () => {
    const { io, at, err } = fakeIo();
    const log = new RunLog(io, at.now, {});
    at.now += 3_900;
    log.log('warn', 'Insufficient VUs', { scenario: 'chat' });
    at.now += 10_000;
    log.write('error', 'the end');
    expect(err()).toBe('WARN[0003] Insufficient VUs  scenario=chat\nERRO[0013] the end\n');
  });

  it('cuts a flood to 20 lines a second and says how many it left out when the next second begins', () => {
    const { io, at, err } = fakeIo();
    const log = new RunLog(io, at.now, {});
    for (let i = 0; i < 25; i++) log.log('warn', `Request Failed ${i}`);
    at.now += 1_000;
    log.log('warn', 'next second');
    const lines = err().trim().split('\n');
    expect(lines).toHaveLength(22);
    expect(lines[19]).toBe('WARN[0000] Request Failed 19');
    expect(lines[20]).toBe('WARN[0001] 5 more log lines in the last second were left out');
    expect(lines[21]).toBe('WARN[0001] next second');
  });

  it('never cuts console lines, and writes console.debug only when verbose', () => {
    const { io, at, err } = fakeIo();
    const quiet = new RunLog(io, at.now, {});
    for (let i = 0; i < 25; i++) quiet.console('info', `line ${i}`);
    quiet.console('debug', 'hidden');
    new RunLog(io, at.now, { verbose: true }).console('debug', 'shown');
    const lines = err().trim().split('\n');
    expect(lines).toHaveLength(26);
    expect(lines[25]).toBe('DEBU[0000] shown  source=console');
  });
});
