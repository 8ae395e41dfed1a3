import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Quantiles, TrafficModel } from '../src/traffic/model.js';
import { backgroundTarget, dialtone } from './run-cli.js';

// The traffic model's round trip: learn a model from seeded traffic, play it against a fresh reference target that answers
// with the learned agent latency, learn again from the records that run left: what dialtone plays is what it learned.
const dir = mkdtempSync(join(tmpdir(), 'dialtone-roundtrip-'));
const stops: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const stop of stops) await stop();
  rmSync(dir, { recursive: true, force: true });
});

const read = (file: string) => TrafficModel.parse(JSON.parse(readFileSync(file, 'utf8')));
const scaled = (q: Quantiles, k: number): Quantiles =>
  Object.fromEntries(Object.entries(q).map(([key, v]) => [key, key === 'n' ? v : Math.round(v * k * 1000) / 1000])) as Quantiles;
const within = (actual: number, expected: number, tolerance: number) => Math.abs(actual - expected) / expected <= tolerance;

describe('the round trip: learn, play, learn again', () => {
  it('learns again the medians it played within 10 % (the mean for the whole-number turn count), and the conversations it started within 5 %', async () => {
    const seeded = join(dir, 'seeded.json');
    const seededTarget = await backgroundTarget(seeded, [], ['--traffic-seed', '11']);
    const learned = join(dir, 'learned.json');
    try {
      const first = await dialtone(['traffic', 'learn', '--target', seeded, '--since', '8d', '--out', learned]);
      expect(first.code).toBe(0);
    } finally {
      await seededTarget.stop();
    }

    // The model as a user edits it to play in seconds: a conversation ten times as brisk, arriving ten a second.
    const model = read(learned);
    const played: TrafficModel = {
      ...model,
      arrivals: { ...model.arrivals, busiest_hour: { ...model.arrivals.busiest_hour, conversations: 36_000, per_second: 10 } },
      think_time_s: scaled(model.think_time_s, 0.2),
      agent_latency_s: scaled(model.agent_latency_s, 0.1),
      duration_s: scaled(model.duration_s, 0.15),
    };
    const playedFile = join(dir, 'played.json');
    writeFileSync(playedFile, JSON.stringify(played, null, 2));

    const fresh = join(dir, 'fresh.json');
    const freshTarget = await backgroundTarget(fresh, [], ['--latency', playedFile]);
    stops.push(freshTarget.stop);
    const since = new Date().toISOString();
    const run = await dialtone(
      [
        'load',
        'chat-turns',
        '--target',
        fresh,
        '--workload',
        'learned',
        '--traffic',
        playedFile,
        '--duration',
        '30s',
        '--engine',
        'builtin',
        '--report-dir',
        join(dir, 'reports'),
      ],
      { timeoutMs: 240_000 },
    );
    // The SLOs may break on a busy runner; the load itself must have been delivered (not 5) and the run must have ended.
    expect([0, 99]).toContain(run.code);
    const until = new Date(Date.now() + 1000).toISOString();
    const again = join(dir, 'again.json');
    const second = await dialtone(['traffic', 'learn', '--target', fresh, '--client-env', 'sandbox', '--since', since, '--until', until, '--out', again]);
    expect(second.code).toBe(0);
    const relearned = read(again);
    console.log(
      `round trip: ${relearned.source.conversations} conversations; turns mean ${played.turns.mean} / ${relearned.turns.mean}; think p50 ${played.think_time_s.p50} / ${relearned.think_time_s.p50} s (${relearned.think_time_s.n}); agent latency p50 ${played.agent_latency_s.p50} / ${relearned.agent_latency_s.p50} s (${relearned.agent_latency_s.n})`,
    );

    expect(within(relearned.source.conversations, 300, 0.05)).toBe(true);
    expect(within(relearned.turns.mean, played.turns.mean, 0.1)).toBe(true);
    expect(within(relearned.think_time_s.p50, played.think_time_s.p50, 0.1)).toBe(true);
    expect(within(relearned.agent_latency_s.p50, played.agent_latency_s.p50, 0.1)).toBe(true);
  }, 360_000);
});
