import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT } from '../errors.js';
import { GUARD, startEngine } from './spawn-engine.js';

/**
 * A stand-in for the user's k6: runs until SIGINT or SIGTERM, then says which and exits 105 as k6 does. It prints its pid
 * once its handlers are in place, so a test that stops it on that line never meets Node's default (exit 130).
 */
function fakeK6(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'dialtone-fake-k6-')), 'k6.mjs');
  writeFileSync(
    file,
    `for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => { console.log('stopped by ' + s); process.exit(105); });
     console.log('pid ' + process.pid);
     setInterval(() => {}, 1000);`,
  );
  return file;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('starting the user k6', () => {
  it('stops k6 as Ctrl-C does when the IPC channel to dialtone closes, as when dialtone is killed', async () => {
    const guard = spawn(process.execPath, [GUARD, process.execPath, fakeK6()], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let out = '';
    const started = new Promise<void>((ok) =>
      guard.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('pid ')) ok();
      }),
    );
    const exited = new Promise<number | null>((ok) => guard.on('exit', (code) => ok(code)));
    await started;
    guard.disconnect();
    expect(await exited).toBe(EXIT.interrupted);
    expect(out).toContain('stopped by SIGINT');
    expect(alive(Number(/pid (\d+)/.exec(out)?.[1]))).toBe(false);
  });

  it('passes a stop on to k6 once, relays what it prints and gives its exit code', async () => {
    let out = '';
    const run = startEngine({
      engine: { kind: 'k6', version: 'fake', command: process.execPath, args: [fakeK6()] },
      args: [],
      env: process.env,
      output: (c) => {
        out += c.toString();
      },
    });
    while (!out.includes('pid ')) await new Promise((r) => setTimeout(r, 50));
    run.stop();
    expect(await run.exited).toBe(EXIT.interrupted);
    expect(out).toContain('stopped by SIGINT');
    expect(run.interrupted()).toBeUndefined();
  });
});
