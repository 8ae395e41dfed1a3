import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DialoguesFile } from '../src/load/dialogues.js';
import { SEEDED_TRAFFIC } from '../src/reference-target/records/traffic-seed.js';
import { TrafficModel } from '../src/traffic/model.js';
import { dialtoneInProcess as dialtone } from './in-process-cli.js';
import { backgroundTarget } from './run-cli.js';

// The reference target in its own process, seeded with traffic of known distributions; dialtone learns it as a user would,
// its CLI run in this process (tests/in-process-cli.ts): what each command prints and exits with is what is checked.
const dir = mkdtempSync(join(tmpdir(), 'dialtone-traffic-'));
const profile = join(dir, 'ref.json');
let target: Awaited<ReturnType<typeof backgroundTarget>>;
let window: { since: string; until: string };

/** The seeded window, as the target printed it. */
function seededWindow(output: string): { since: string; until: string } {
  const m = /traffic: seeded from (\S+) to (\S+) \(seed/.exec(output);
  if (!m) throw new Error(`the target did not say where its traffic is: ${output}`);
  return { since: m[1] as string, until: m[2] as string };
}

/** Learns from the target with these extra flags; the model and dialogues it wrote, and the command's result. */
async function learn(name: string, extra: string[] = []) {
  const out = join(dir, `${name}.json`);
  const dialogues = join(dir, `${name}-dialogues.json`);
  const run = await dialtone(
    ['traffic', 'learn', '--target', profile, '--since', window.since, '--until', window.until, '--out', out, '--dialogues', dialogues, ...extra],
    { timeoutMs: 120_000 },
  );
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return {
    run,
    model: TrafficModel.parse(JSON.parse(readFileSync(out, 'utf8'))),
    modelText: readFileSync(out, 'utf8'),
    dialogues: readFileSync(dialogues, 'utf8'),
  };
}

const within = (actual: number, expected: number, tolerance: number) => Math.abs(actual - expected) / expected <= tolerance;
const t = SEEDED_TRAFFIC;
const busiestPerSecond = Math.max(...t.perHourOfDay) / 3600;

beforeAll(async () => {
  target = await backgroundTarget(profile, [], ['--traffic-seed', '25']);
  window = seededWindow(target.output);
}, 60_000);

afterAll(async () => {
  await target?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('dialtone traffic learn against seeded traffic', () => {
  it('recovers the seeded medians within 10 % and the busiest-hour rate within 5 %, from v3 records paged to the end', async () => {
    const { model, run } = await learn('v3');
    expect(model.source.conversations).toBe(t.days * t.perHourOfDay.reduce((a, b) => a + b, 0));
    expect(within(model.arrivals.busiest_hour.per_second, busiestPerSecond, 0.05)).toBe(true);
    expect(within(model.turns.p50, (t.turns.min + t.turns.max) / 2, 0.1)).toBe(true);
    expect(within(model.think_time_s.p50, 6, 0.1)).toBe(true);
    expect(within(model.agent_latency_s.p50, 1.2, 0.1)).toBe(true);
    expect(within(model.handoff_rate, t.handoffRate, 0.1)).toBe(true);
    expect(within(model.channels['VOICE-SIP'] ?? 0, 0.55, 0.1)).toBe(true);
    for (const [hour, n] of t.perHourOfDay.entries()) expect(within(model.arrivals.per_hour_of_day[hour] ?? 0, n, 0.05)).toBe(true);
    // Little's law over the busiest hour reproduces the concurrency the target reported for it.
    expect(model.littles_law.agrees).toBe(true);
    expect(run.stdout).toContain("Little's law in the busiest hour");
  }, 150_000);

  it('reads v1 records (nullable fields, offset pages, zoneless whole-second times) to the same medians, latency to the second', async () => {
    const { model } = await learn('v1', ['--api-version', 'v1']);
    expect(model.source.api_version).toBe('v1');
    expect(within(model.turns.p50, 5, 0.1)).toBe(true);
    expect(within(model.think_time_s.p50, 6, 0.1)).toBe(true);
    // v1 has no latency field and its times are whole seconds: a latency is known to within a second.
    expect(Math.abs(model.agent_latency_s.p50 - 1.2)).toBeLessThanOrEqual(1);
    expect(within(model.arrivals.busiest_hour.per_second, busiestPerSecond, 0.05)).toBe(true);
  }, 150_000);

  it('keeps conversation text out of the model, and masks digits, e-mail addresses and names in the dialogues it writes', async () => {
    const { modelText, dialogues } = await learn('text');
    expect(modelText).not.toMatch(/book a table|postcode/i);
    const file = DialoguesFile.parse(JSON.parse(dialogues));
    const turns = file.dialogues.flatMap((d) => d.turns);
    expect(turns.length).toBeGreaterThan(0);
    expect(turns.filter((turn) => /\d|@/.test(turn))).toEqual([]);
    expect(turns.some((turn) => turn.includes('[caller_name]'))).toBe(true);
  }, 150_000);
});

describe('dialtone target --latency with a learned model', () => {
  it('makes every agent op of a fresh target answer lognormal through the learned agent latency', async () => {
    const { model } = await learn('latency');
    const fresh = await backgroundTarget(join(dir, 'fresh.json'), [], ['--latency', join(dir, 'latency.json')]);
    try {
      const ms = (s: number) => `${Math.round(s * 1000)}ms`;
      const dist = `lognormal:p50=${ms(model.agent_latency_s.p50)},p95=${ms(model.agent_latency_s.p95)}`;
      for (const op of ['chat.respond', 'messaging.reply', 'voice.reply', 'voice.first_agent_audio']) expect(fresh.output).toContain(`${op}=${dist}`);
    } finally {
      await fresh.stop();
    }
  }, 150_000);

  it('refuses a file that is not a traffic model with one line and exit code 2', async () => {
    const notModel = join(dir, 'not-model.json');
    writeFileSync(notModel, '{"model": "something else"}');
    const run = await dialtone(['target', '--latency', notModel, '--profile-out', join(dir, 'never.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^dialtone: target: --latency: not a traffic model: .*not-model\.json: model: /)]);
  });
});

describe('dialtone load --workload learned, refused before anything runs', () => {
  it('refuses a scenario that cannot play a learned workload, a missing model and --rate, each with one line and exit code 2', async () => {
    const other = await dialtone(['load', 'messaging-sockets', '--workload', 'learned']);
    expect([other.code, other.stderr.trim()]).toEqual([2, 'dialtone: load: --workload learned plays chat-turns only, not messaging-sockets']);
    const missing = await dialtone(['load', 'chat-turns', '--workload', 'learned', '--traffic', join(dir, 'nowhere.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe(`dialtone: load: --traffic: ${join(dir, 'nowhere.json')}: no such file`);
    const rate = await dialtone(['load', 'chat-turns', '--workload', 'learned', '--rate', '5']);
    expect([rate.code, rate.stderr.trim()]).toEqual([2, 'dialtone: load: --workload learned takes its rate from the traffic model; leave out --rate']);
  });
});

describe('dialtone capacity --workload learned and target --traffic-days, refused before anything runs', () => {
  it('refuses another workload, the closed model, a scenario without conversations and a missing model, each with one line and exit code 2', async () => {
    const nowhere = join(dir, 'nowhere.json');
    // Each is refused before a target starts or a model is read: run together, they take the time of one.
    const cases: [string[], string][] = [
      [['capacity', 'chat-turns', '--workload', 'nightly'], "capacity: --workload: expected learned, got 'nightly'"],
      [
        ['capacity', 'messaging-sockets', '--workload', 'learned', '--model', 'closed'],
        'capacity: --workload learned is an open model (conversations arrive); leave out --model closed',
      ],
      [['capacity', 'messaging-sockets', '--workload', 'learned'], 'capacity: --workload learned plays chat-turns only, not messaging-sockets'],
      [['capacity', 'chat-turns', '--workload', 'learned', '--traffic', nowhere], `capacity: --traffic: ${nowhere}: no such file`],
      [['target', '--traffic-seed', '1', '--traffic-days', '0'], "target: --traffic-days: expected a whole number from 1 to 366, got '0'"],
      [
        ['target', '--traffic-seed', '1', '--traffic-days', '56'],
        'target: the traffic flags seed 94,528 conversations, above the 25,000 held in memory; lower --traffic-scale or --traffic-days',
      ],
      [['target', '--traffic-seed', '1', '--traffic-growth', '2'], "target: --traffic-growth: expected a percentage such as 2%, got '2'"],
      [['target', '--traffic-scale', '0.5'], 'target: --traffic-scale goes with --traffic-seed'],
    ];
    const runs = await Promise.all(cases.map(([args]) => dialtone(args)));
    expect(runs.map((r) => [r.code, r.stderr.trim()])).toEqual(cases.map(([, line]) => [2, `dialtone: ${line}`]));
  }, 60_000);
});

describe('dialtone traffic learn when the platform says no', () => {
  it('turns an API error into one line and exit code 3', async () => {
    const envFile = join(dir, 'ref.env');
    const bad = join(dir, 'bad.json');
    writeFileSync(join(dir, 'bad.env'), readFileSync(envFile, 'utf8').replace(/^(DIALTONE_REF_CONVERSATIONS_API_KEY)=.*$/m, '$1=wrong-key'));
    writeFileSync(bad, JSON.stringify({ ...JSON.parse(readFileSync(profile, 'utf8')), env_file: 'bad.env' }));
    const run = await dialtone(['traffic', 'learn', '--target', bad, '--out', join(dir, 'never.json')]);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^dialtone: GET \/v3\/…\/conversations answered 401: /)]);
    expect(run.stderr).not.toContain('wrong-key');
  });

  it('refuses a bad --since with one line and exit code 2', async () => {
    const run = await dialtone(['traffic', 'learn', '--target', profile, '--since', 'last week']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe("dialtone: traffic learn: --since must be like 30d, 12h or an ISO 8601 instant, got 'last week'");
  });
});
