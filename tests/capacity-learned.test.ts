import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HORIZON_DAYS } from '../src/capacity/growth.js';
import type { CapacityResult } from '../src/capacity/run.js';
import { SEEDED_TRAFFIC, seededHourCount } from '../src/reference-target/records/traffic-seed.js';
import { type Quantiles, TrafficModel } from '../src/traffic/model.js';
import { backgroundTarget, dialtone } from './run-cli.js';

// The headroom, like with like: the reference target in its own process seeds 8 weeks of known traffic (a
// twentieth of the usual volume, every hour growing 2 % of its first day's a day), answers chat at a known rate with the
// seeded agent latency made ten times brisker, and dialtone learns the model, then searches capacity playing it
// (conversations arriving, drawn turns, think times after each answer). The model is edited as a user edits it to play
// in seconds: think times and durations a twentieth of the learned ones.
const KNOWN_REQUESTS_PER_S = 28;
const SHAPE = { days: 56, scale: 0.05, growth: 0.02 };
const agent = SEEDED_TRAFFIC.agentLatency as { p50: number; p95: number };
const BRISK_AGENT = `chat.respond=lognormal:p50=${agent.p50 / 10}ms,p95=${agent.p95 / 10}ms`;
const dir = mkdtempSync(join(tmpdir(), 'dialtone-capacity-learned-'));
let target: Awaited<ReturnType<typeof backgroundTarget>> | undefined;

afterAll(async () => {
  await target?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const scaled = (q: Quantiles, k: number): Quantiles =>
  Object.fromEntries(Object.entries(q).map(([key, v]) => [key, key === 'n' ? v : Math.round(v * k * 1000) / 1000])) as Quantiles;

describe('dialtone capacity --workload learned', () => {
  it("searches with the learned conversations and sets the model's busiest hour beside what holds the SLOs, on the page and in capacity.json", async () => {
    const profile = join(dir, 'ref.json');
    target = await backgroundTarget(
      profile,
      [],
      [
        ...['--traffic-seed', '29', '--traffic-days', `${SHAPE.days}`, '--traffic-scale', `${SHAPE.scale}`, '--traffic-growth', `${SHAPE.growth * 100}%`],
        ...['--latency', BRISK_AGENT, '--capacity', `chat=${KNOWN_REQUESTS_PER_S}`],
      ],
    );
    const [, since, until] = /traffic: seeded from (\S+) to (\S+) \(seed/.exec(target.output) ?? [];
    const learnedFile = join(dir, 'learned.json');
    const learn = await dialtone(['traffic', 'learn', '--target', profile, '--since', `${since}`, '--until', `${until}`, '--out', learnedFile]);
    expect(learn.code, learn.stderr).toBe(0);
    const learned = TrafficModel.parse(JSON.parse(readFileSync(learnedFile, 'utf8')));
    const model: TrafficModel = { ...learned, think_time_s: scaled(learned.think_time_s, 0.05), duration_s: scaled(learned.duration_s, 0.05) };
    const file = join(dir, 'model.json');
    writeFileSync(file, JSON.stringify(model, null, 2));

    // About 7 requests a conversation: 28 a second hold about 4 conversations a second. Two steps bracket it. The
    // warm-up outlasts most conversations (about 2.5 s), so the steady part counts completions as a long step would.
    const search = ['--start-rate', '3', '--precision', '1', '--step', '9s', '--warmup', '4s', '--graceful-stop', '1s', '--max-steps', '5'];
    const reports = join(dir, 'reports');
    const playedSince = new Date().toISOString();
    const run = await dialtone(
      ['capacity', 'chat-turns', '--target', profile, '--workload', 'learned', '--traffic', file, '--engine', 'builtin', '--report-dir', reports, ...search],
      { timeoutMs: 180_000 },
    );
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^step 0 \(coarse\) asked 3\.00 conversations\/s: started [\d.]+\/s, completed [\d.]+\/s/m);
    expect(run.stdout).toContain(`The busiest hour (${model.arrivals.busiest_hour.start}`);

    const out = join(reports, 'capacity', 'chat-turns');
    const result = JSON.parse(readFileSync(join(out, 'capacity.json'), 'utf8')) as CapacityResult;
    expect(result.workload).toMatchObject({ kind: 'learned', file, turns_p50: model.turns.p50 });
    expect(result.analysis.limited_by).toBe('target');
    const cap = result.analysis.max_sustainable_rate as number;
    expect(result.headroom?.share).toBeCloseTo(model.arrivals.busiest_hour.per_second / cap, 9);
    // Every step played learned conversations: its throughput is the ones completed, and those started are beside it.
    for (const s of result.steps) expect([s.throughput, typeof s.conversations?.started_per_s]).toEqual([s.conversations?.completed_per_s, 'number']);
    const page = readFileSync(join(out, 'index.html'), 'utf8');
    expect(page).toContain(`Workload learned from ${file}: conversations arrive at the rate searched (an open model)`);
    expect(page).toMatch(/<p class="headroom"><b>The busiest hour \(.+\) uses [\d.]+ % of what holds the SLOs/);
    expect(page).toContain(`the observed day (${file}) under what holds the SLOs`);
    console.log(run.stdout);

    // Eight weeks of daily peaks, each as seeded; their growth recovers the seeded straight line, and since that line
    // reaches the capacity found only centuries on, the growth says it does not within its horizon (no date from it).
    const hours: readonly number[] = SEEDED_TRAFFIC.perHourOfDay;
    const busiestHour = hours.indexOf(Math.max(...hours));
    expect(model.arrivals.daily_peaks.map((p) => p.per_second)).toEqual(
      Array.from({ length: SHAPE.days }, (_, d) => Number((seededHourCount(SHAPE, d, busiestHour) / 3600).toFixed(6))),
    );
    const firstPeak = ((hours[busiestHour] as number) * SHAPE.scale) / 3600;
    const growth = result.headroom?.growth;
    expect(growth).toMatchObject({ days: SHAPE.days, shape: 'linear', status: 'beyond', capacity: cap });
    expect(Math.abs((growth?.per_day ?? 0) / (firstPeak * SHAPE.growth) - 1)).toBeLessThanOrEqual(0.05);
    const reachDays = (cap / firstPeak - 1) / SHAPE.growth;
    expect(reachDays - (SHAPE.days - 1)).toBeGreaterThan(HORIZON_DAYS);
    expect(page).toContain('<h2>When traffic reaches it</h2>');
    expect(page).toMatch(
      /over 56 days, [\d-]+ to [\d-]+, the daily peak moved \+[\d.e-]+ conversations\/s a day .*: at that pace it does not reach the capacity within 365 days/,
    );
    expect(run.stdout).toMatch(/^Traffic growth \(daily peaks from .*: at that pace it does not reach the capacity within 365 days/m);

    // What the steps played was the model's conversations, not chat-turns' own five turns: learned again from the
    // records the search left, the turn counts spread as the model's do.
    const againFile = join(dir, 'again.json');
    const playedUntil = new Date(Date.now() + 1000).toISOString();
    const again = await dialtone([
      'traffic',
      'learn',
      '--target',
      profile,
      '--client-env',
      'sandbox',
      '--since',
      playedSince,
      '--until',
      playedUntil,
      '--out',
      againFile,
    ]);
    expect(again.code, again.stderr).toBe(0);
    const played = TrafficModel.parse(JSON.parse(readFileSync(againFile, 'utf8')));
    expect(played.turns.p10).toBeLessThan(played.turns.p90);

    // With two VUs the engine cannot start the conversations asked, while those it starts hold the SLOs: the load
    // generator is the limit, so there is no headroom, and a learned search is no success (exit 5, load not delivered).
    // A steady part of 6 s: a shorter one can be outlasted by both VUs' first conversations on a busy machine (none
    // started or completed, the SLOs "broken" on no samples, exit 4), and a step that measured nothing judges nothing.
    const starved = await dialtone(
      [
        ...['capacity', 'chat-turns', '--target', profile, '--workload', 'learned', '--traffic', file, '--engine', 'builtin'],
        ...[
          '--report-dir',
          join(dir, 'starved'),
          '--start-rate',
          '3',
          '--step',
          '7s',
          '--warmup',
          '1s',
          '--graceful-stop',
          '1s',
          '--max-steps',
          '1',
          '--max-vus',
          '2',
        ],
      ],
      { timeoutMs: 120_000 },
    );
    expect(starved.code, starved.stdout + starved.stderr).toBe(5);
    expect(starved.stdout).toContain("headroom: none, the load generator was the limit: the target's capacity is not known");
    expect(starved.stderr).toMatch(/^dialtone: capacity: the load generator was the limit, so the learned workload was not delivered: /);
  }, 240_000);
});
