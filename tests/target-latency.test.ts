import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatClient } from '../src/clients/chat.js';
import { loadProfile } from '../src/profile/load.js';
import { dialtoneInProcess } from './in-process-cli.js';
import { backgroundTarget } from './run-cli.js';

// `dialtone target --latency` in a process of its own, as a load run or a person at a terminal meets it. Its refusals
// come before anything starts, so they run through dialtone's main in this process.

describe('dialtone target --latency', () => {
  const work = mkdtempSync(join(tmpdir(), 'dialtone-latency-'));
  const profile = join(work, 'ref.json');
  let target: Awaited<ReturnType<typeof backgroundTarget>>;

  beforeAll(async () => {
    target = await backgroundTarget(profile, [], ['--latency', 'realistic', '--latency', 'chat.respond=fixed:600ms', '--seed', '3']);
  }, 60_000);

  afterAll(async () => {
    await target?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('names its latency spec and seed when it starts, and in the profile it writes', () => {
    expect(target.output).toContain('latency: realistic;chat.respond=fixed:600ms (seed 3)');
    expect(JSON.parse(readFileSync(profile, 'utf8')).name).toBe('reference (latency: realistic;chat.respond=fixed:600ms)');
  });

  it('takes at least the drawn time to answer a chat respond', async () => {
    const chat = new ChatClient(loadProfile(profile));
    const created = await chat.create({ channel: 'webchat' });
    expect(created.status).toBe(200);
    const t0 = performance.now();
    const turn = await chat.respond({ conversation_id: created.json?.conversation_id, message: 'What are your opening hours?' });
    expect(turn.status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(595);
  });

  it('refuses a bad spec with one line and exit 2 before it starts, from the flag or from DIALTONE_TARGET_LATENCY', async () => {
    const out = join(work, 'never.json');
    const flag = await dialtoneInProcess(['target', '--profile-out', out, '--latency', 'chat.respond=lognormal:p50=2s,p95=1s']);
    expect([flag.code, flag.stderr]).toEqual([
      2,
      'dialtone: target: --latency: chat.respond: lognormal needs p95 (1s) above p50 (2s); for a constant use fixed:\n',
    ]);
    const env = await dialtoneInProcess(['target', '--profile-out', out], { env: { DIALTONE_TARGET_LATENCY: 'chat.respond=fixed:soon' } });
    expect([env.code, env.stderr]).toEqual([
      2,
      "dialtone: target: DIALTONE_TARGET_LATENCY: chat.respond: fixed needs one duration (e.g. fixed:1.2s), got 'soon'\n",
    ]);
    expect(() => readFileSync(out)).toThrow();
  });
});
