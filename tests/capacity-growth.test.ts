import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyse } from '../src/capacity/analysis.js';
import { growthSection } from '../src/capacity/growth-page.js';
import { headroomOf } from '../src/capacity/headroom.js';
import { capacityPage } from '../src/capacity/report.js';
import type { CapacityResult } from '../src/capacity/result.js';
import { DEFAULT_SEARCH, searchCapacity } from '../src/capacity/search.js';
import { simulatedSurface } from '../src/capacity/simulated-surface.js';
import { observedPeak } from '../src/cli/commands/capacity.js';
import { seeded } from '../src/nightly/noise.js';
import { learnModel, type TrafficRecord, trafficRecordOf } from '../src/traffic/learn.js';

// From the platform's records to the date on the capacity page, with no load: conversation records as the records API
// gives them (v3), four weeks of them whose busiest hour grows 2 % a day, learned into a traffic model file as
// `dialtone traffic learn` writes it, read back as `capacity --traffic FILE` reads it, set beside a search of a
// simulated surface of known capacity.
const dir = mkdtempSync(join(tmpdir(), 'dialtone-capacity-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const START = Date.parse('2026-10-01T00:00:00.000Z');
const DAYS = 28;
/** Conversations in the busiest hour (12:00 UTC) of day 0, growing 2 % a day; every other hour has 8. */
const BUSIEST = 60;
const GROWTH = 0.02;

/** The records: each hour's conversations spread over it, the busiest hour's count moved by a seeded ±5 %. */
function records(): unknown[] {
  const r = seeded(59);
  const out: unknown[] = [];
  for (let d = 0; d < DAYS; d++) {
    for (let h = 0; h < 24; h++) {
      const n = h === 12 ? Math.round(BUSIEST * (1 + GROWTH) ** d * (1 + 0.1 * (r() - 0.5))) : 8;
      for (let i = 0; i < n; i++) {
        const at = START + d * DAY_MS + h * HOUR_MS + Math.floor((i / n) * HOUR_MS);
        out.push({ started_at: new Date(at).toISOString(), channel: 'CHAT', num_turns: 2, total_duration: 60, in_progress: false, handoff: false, turns: [] });
      }
    }
  }
  return out;
}

describe('when traffic reaches the capacity found', () => {
  it("puts the date and its range on the capacity page, from a model learned from the platform's records, naming where each figure came from", async () => {
    // The window starts and ends at 06:00, so its first and last days are partial and are left out of the growth.
    const since = START + 6 * HOUR_MS;
    const until = START + (DAYS - 1) * DAY_MS + 6 * HOUR_MS;
    const read = records()
      .map(trafficRecordOf)
      .filter((x): x is TrafficRecord => x !== undefined && x.startedAt >= since && x.startedAt < until);
    const model = learnModel(read, [], { baseUrl: 'https://records.example', clientEnv: 'live', apiVersion: 'v3', fromMs: since, toMs: until });
    const file = join(dir, 'traffic-model.json');
    writeFileSync(file, JSON.stringify(model, null, 2));
    const observed = observedPeak('chat-turns', file);

    const search = { ...DEFAULT_SEARCH, startRate: 0.01, stepSeconds: 10, warmupSeconds: 2 };
    const surface = simulatedSurface({ capacity: 0.06, seed: 4 });
    const outcome = await searchCapacity(surface.runStep, search, undefined, surface.now);
    const analysis = analyse(outcome.steps, search, 'chat-turns');
    const cap = analysis.max_sustainable_rate as number;
    const headroom = headroomOf(observed, analysis);
    const result: CapacityResult = {
      tool_version: '0.1.0',
      scenario: 'chat-turns',
      unit: 'conversations',
      target: 'reference',
      engine: { kind: 'builtin', version: 'v0.1.0' },
      started_at: '2026-11-28T21:00:00.000Z',
      search,
      stopped: outcome.stopped,
      wall_s: outcome.wall_s,
      analysis,
      steps: outcome.steps,
      ...(headroom ? { headroom } : {}),
    };

    const g = headroom?.growth;
    expect(g).toMatchObject({ status: 'reaches', days: DAYS - 2, left_out: ['2026-10-01', '2026-10-28'], capacity: cap });
    // The busiest hour's true level, 60 × 1.02^d an hour, meets the capacity found on this day.
    const truthDay = Math.log((cap * 3600) / BUSIEST) / Math.log(1 + GROWTH);
    const truth = new Date(START + Math.ceil(truthDay) * DAY_MS).toISOString().slice(0, 10);
    expect([g?.reaches_from, truth, g?.reaches_to].sort()).toEqual([g?.reaches_from, truth, g?.reaches_to]);
    const html = await capacityPage(result);
    expect(html).toContain('<h2>When traffic reaches it</h2>');
    // The days, the fit carried on to the date and the capacity, drawn under the sentence.
    expect(html).toContain(`daily peaks (${file}) and their growth against what holds the SLOs`);
    expect(html).toContain(
      `<p class="growth"><b>Traffic growth (daily peaks from ${file}, against this search&#39;s ${cap.toPrecision(3)} conversations/s): ` +
        `over 26 days, 2026-10-02 to 2026-10-27, the daily peak moved +`,
    );
    expect(html).toContain(
      `it reaches the capacity about ${g?.reaches}, between ${g?.reaches_from} and ${g?.reaches_to} (a day&#39;s peak, 95 % prediction interval)`,
    );
    // Where each figure came from: the model file and the records it was learned from, and this search.
    expect(html).toContain(`arrivals.daily_peaks (each UTC day&#39;s busiest hour) of ${file}; left out 2026-10-01, 2026-10-28`);
    expect(html).toContain(
      `the conversation records of https://records.example, ${new Date(since).toISOString()} to ` +
        `${new Date(until).toISOString()} (${read.length} conversations)`,
    );
    expect(html).toContain(
      `${cap.toPrecision(3)} conversations/s: this search&#39;s maximum sustainable rate (started 2026-11-28T21:00:00.000Z against reference`,
    );
  });

  it("says in the page's section that a model of too few days cannot tell a growth", async () => {
    const since = START;
    const until = START + 10 * DAY_MS;
    const read = records()
      .map(trafficRecordOf)
      .filter((x): x is TrafficRecord => x !== undefined && x.startedAt < until);
    const model = learnModel(read, [], { baseUrl: 'https://records.example', clientEnv: 'live', apiVersion: 'v3', fromMs: since, toMs: until });
    const file = join(dir, 'short.json');
    writeFileSync(file, JSON.stringify(model));
    const analysis = { max_sustainable_rate: 0.06, limited_by: 'target', interval: null } as unknown as CapacityResult['analysis'];
    const headroom = headroomOf(observedPeak('chat-turns', file), analysis);
    const html = await growthSection({
      tool_version: '0.1.0',
      scenario: 'chat-turns',
      unit: 'conversations',
      target: 'reference',
      engine: { kind: 'builtin', version: 'v0.1.0' },
      started_at: '2026-11-28T21:00:00.000Z',
      search: DEFAULT_SEARCH,
      stopped: 'refined',
      wall_s: 1,
      analysis,
      steps: [],
      ...(headroom ? { headroom } : {}),
    });
    expect(html).toContain('10 whole days are too few to tell a growth (14 needed)');
  });
});
