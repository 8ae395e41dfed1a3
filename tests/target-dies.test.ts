import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ControlClient } from '../src/clients/control-client.js';
import { spawnTarget } from '../src/fuzz/target-process.js';
import { loadProfile } from '../src/profile/load.js';
import { processesMarked } from './processes.js';
import { dialtone } from './run-cli.js';

/**
 * The marked processes still there after a short grace: a helper process (tsx's esbuild service) ends when its parent's
 * pipe closes, a moment after the parent's own exit; one that outlives the grace was left behind.
 */
async function leftBehind(mark: string, graceMs = 5_000): Promise<number[]> {
  const deadline = Date.now() + graceMs;
  while (processesMarked(mark).length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  return processesMarked(mark);
}

/** Whether anything accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

// Each case with a target, a mark and a folder of its own, so they run side by side.
describe.concurrent('dialtone conformance when the target dies mid-run', () => {
  it('finishes, says the connection was refused, exits 3, and leaves no process or port behind', async () => {
    const work = mkdtempSync(join(tmpdir(), 'dialtone-dies-'));
    const target = await spawnTarget(join(work, 'ref.json'));
    const profile = JSON.parse(readFileSync(target.profilePath, 'utf8')) as { hosts: Record<string, string>; control: { url: string } };
    const ports = [...Object.values(profile.hosts), profile.control.url].map((u) => Number(new URL(u).port));
    const mark = `DIALTONE_TEST_MARK_${randomUUID()}`;
    // Killed once the suite is under way: 300 ms after the first conversation it creates.
    const control = new ControlClient(loadProfile(target.profilePath, {}));
    const state = () => control.call<{ conversations: number }>('GET', '/state');
    const initial = (await state()).conversations;
    let killed = false;
    const watch = (async () => {
      while (target.alive() && (await state()).conversations === initial) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 300));
      killed = target.alive();
      process.kill(target.pid, 'SIGKILL');
    })().catch(() => {});
    const run = await dialtone(
      ['conformance', '--target', target.profilePath, '--only', 'chat.*,messaging.*,conversations.*', '--report-dir', join(work, 'reports')],
      {
        env: { [mark]: '1' },
        timeoutMs: 180_000,
      },
    );
    await watch;
    await target.stop();
    expect(killed).toBe(true);

    // The target really died mid-run: some cases ran against it before.
    const results = JSON.parse(readFileSync(join(work, 'reports', 'conformance', 'results.json'), 'utf8')) as {
      cases: { outcome: string; detail: string }[];
    };
    expect(results.cases.some((c) => c.outcome === 'pass')).toBe(true);
    expect(results.cases.some((c) => c.outcome === 'fail' && c.detail.includes('ECONNREFUSED'))).toBe(true);
    expect(run.stdout).toContain('target unreachable during the run');
    expect(run.code, run.stdout + run.stderr).toBe(3);
    expect(await leftBehind(mark)).toEqual([]);
    for (const port of ports) expect(await listening(port), `port ${port}`).toBe(false);
    rmSync(work, { recursive: true, force: true });
  });

  it('ends a load run on time with the failed requests counted, and leaves no engine process behind', async () => {
    const work = mkdtempSync(join(tmpdir(), 'dialtone-dies-load-'));
    const target = await spawnTarget(join(work, 'ref.json'));
    const mark = `DIALTONE_TEST_MARK_${randomUUID()}`;
    const control = new ControlClient(loadProfile(target.profilePath, {}));
    const state = () => control.call<{ conversations: number }>('GET', '/state');
    const initial = (await state()).conversations;
    // Killed 3 s into the load: chat-turns' smoke run asks 5 conversations a second, here for 8 s of its 15 (graceful
    // stop 5 s): 3 s against the live target, 5 s against a dead one. The watch gives up after 60 s, so a load that never
    // starts fails the test instead of hanging it.
    const watch = (async () => {
      const deadline = Date.now() + 60_000;
      while (target.alive() && Date.now() < deadline && (await state()).conversations === initial) await new Promise((r) => setTimeout(r, 100));
      await new Promise((r) => setTimeout(r, 3000));
      process.kill(target.pid, 'SIGKILL');
    })().catch(() => {});
    let run: Awaited<ReturnType<typeof dialtone>>;
    try {
      run = await dialtone(
        ['load', 'chat-turns', '--target', target.profilePath, '--workload', 'smoke', '--duration', '8s', '--report-dir', join(work, 'reports')],
        {
          env: { [mark]: '1' },
          timeoutMs: 180_000,
        },
      );
      await watch;
    } finally {
      await target.stop();
    }

    const result = JSON.parse(readFileSync(join(work, 'reports', 'load', 'chat-turns', 'result.json'), 'utf8')) as {
      duration_ms: number;
      k6_exit_code: number;
      figures: Record<string, number>;
    };
    // The load ran against the live target first, then every request after the kill failed and was counted.
    expect(result.figures.error_rate).toBeGreaterThan(0.05);
    expect(result.figures.error_rate).toBeLessThan(1);
    // A threshold broke, so k6's code (the built-in engine's too), with nothing left running.
    expect(result.k6_exit_code).toBe(99);
    expect(run.code, run.stdout + run.stderr).toBe(99);
    // Not a hang: the run ended within its 8 s and its graceful stop (and the engine's start), not at a request timeout.
    expect(result.duration_ms).toBeLessThan(40_000);
    expect(await leftBehind(mark)).toEqual([]);
    rmSync(work, { recursive: true, force: true });
  }, 200_000);
});
