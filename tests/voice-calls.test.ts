import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialtone } from './run-cli.js';

// The voice-calls smoke load on the built-in engine against the reference target this machine starts for it: werift
// callers in the engine, audio both ways, every figure read from the wire. Real calls for about 10 s, so it is
// timing-sensitive (tests/timing-sensitive.ts); it is judged on what happened, never on how long anything took.

interface Threshold {
  metric: string;
  passed: boolean;
}

/** A threshold on how long something took: its verdict depends on the machine's speed, and a busy runner may break it. */
const onTime = (t: Threshold): boolean => /time|latency|jitter|offer_to_answer|duration|mos/.test(t.metric.split('{')[0] ?? '');

describe('the voice-calls scenario', () => {
  it('places calls of the documented flow without a browser: each connects, hears the greeting, has every turn answered and reports its media figures', async () => {
    const reports = mkdtempSync(join(tmpdir(), 'dialtone-voice-calls-'));
    const r = await dialtone(['load', 'voice-calls', '--workload', 'smoke', '--engine', 'builtin', '--report-dir', reports], { timeoutMs: 170_000 });
    const dir = join(reports, 'load', 'voice-calls');
    const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'));
    const failed = result.thresholds.filter((t: Threshold) => !t.passed);
    expect(
      failed.filter((t: Threshold) => !onTime(t)),
      r.stdout + r.stderr,
    ).toEqual([]);
    expect(r.code, r.stdout + r.stderr).toBe(failed.length > 0 ? 99 : 0);
    const m = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')).metrics;
    expect(m.voice_calls.count).toBeGreaterThan(0);
    expect(m.voice_call_success.fails).toBe(0);
    // Two turns a call, each answered: one latency sample per turn.
    expect(m.voice_call_turns.count).toBe(2 * m.voice_calls.count);
    expect(m.voice_call_packets_received.count).toBeGreaterThan(0);
    // Each media figure was read from every call; the reference target sends RTCP receiver reports, so the round trip too.
    for (const name of ['voice_call_jitter', 'voice_call_packet_loss', 'voice_call_concealed_share', 'voice_call_mos', 'voice_call_rtt'])
      expect(m[name], name).toHaveProperty('med');
    expect(m.voice_call_mos.min).toBeGreaterThan(1);
    expect(r.stdout).toContain('load voice-calls (smoke) on dialtone built-in engine');
  }, 180_000);
});
