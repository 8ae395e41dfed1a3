import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CapacityResult } from '../src/capacity/run.js';
import { dialtone } from './run-cli.js';

// The closed model against the reference target at a known messaging capacity: the surface serves N pieces of work a
// second (src/reference-target/capacity.ts), each client frame one of them. A held session sends 10 sockets × 1 message
// a second, so N = 15 serves 1.5 sessions: 1 held keeps up (at two thirds of the capacity, so it holds on a machine busy
// with other tests), 2 fall behind. The search counts whole sessions, so what it states is the boundary between the
// most it held and the fewest it could not.
const KNOWN = { perSecond: 15, messageRate: 1, sockets: 10 };
const SESSIONS = KNOWN.perSecond / (KNOWN.sockets * KNOWN.messageRate);

describe('dialtone capacity messaging-sockets --model closed', () => {
  it('finds the sessions a known messaging capacity holds at a message rate: the boundary it states holds the known figure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-capacity-closed-'));
    const run = await dialtone(
      [
        'capacity',
        'messaging-sockets',
        '--model',
        'closed',
        '--message-rate',
        String(KNOWN.messageRate),
        '--capacity',
        `messaging=${KNOWN.perSecond}`,
        // From 1 session: 1 holds, 2 fall behind: two steps bracket 1.5.
        '--start-rate',
        '1',
        '--step',
        '10s',
        '--warmup',
        '4s',
        '--max-steps',
        '6',
        '--report-dir',
        dir,
      ],
      { timeoutMs: 230_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(readFileSync(join(dir, 'capacity', 'messaging-sockets', 'capacity.json'), 'utf8')) as CapacityResult;
    expect(result.model).toEqual({ kind: 'closed', sockets: KNOWN.sockets, message_rate_per_socket: KNOWN.messageRate });
    expect(result.unit).toBe('sessions');
    expect(result.analysis.limited_by).toBe('target');
    // Whole sessions: the most held below the known figure, the fewest that fell behind above it.
    const interval = result.analysis.interval;
    expect(interval).toBeDefined();
    expect([interval?.low, interval?.high]).toEqual([Math.floor(SESSIONS), Math.ceil(SESSIONS)]);
    expect(result.analysis.max_sustainable_rate).toBe(Math.floor(SESSIONS));
    // Every step held its sessions, one VU each, and sent at the rate asked for.
    for (const s of result.steps) {
      expect(Number.isInteger(s.offered_rate)).toBe(true);
      expect(s.vus_cap).toBe(s.offered_rate);
      expect(s.messages?.offered_per_s).toBe(s.offered_rate * KNOWN.sockets * KNOWN.messageRate);
    }
    // The report says what was held and at what message rate.
    expect(run.stdout).toContain(`Sustains ${Math.floor(SESSIONS)} sessions held with every SLO held`);
    expect(run.stdout).toContain(
      `Closed model: sessions held for a whole step each, ${KNOWN.sockets} sockets to one, every socket sending ${KNOWN.messageRate.toFixed(2)} messages/s`,
    );
    const csv = readFileSync(join(dir, 'capacity', 'messaging-sockets', 'steps.csv'), 'utf8')
      .trim()
      .split('\n');
    // Every step says what its sockets sent and had answered (the columns other workloads add stay empty here).
    const header = (csv[0] ?? '').split(',');
    const sent = header.indexOf('messages_sent_per_s');
    const answered = header.indexOf('messages_answered_per_s');
    expect(sent).toBeGreaterThan(0);
    expect(answered).toBeGreaterThan(0);
    // Read from the row's end: only failed_thresholds, before these columns, may hold a comma (inside its quotes).
    const cell = (row: string, i: number) => row.split(',').at(i - header.length) ?? '';
    for (const row of csv.slice(1)) {
      expect(Number(cell(row, sent))).toBeGreaterThan(0);
      expect(cell(row, answered)).toMatch(/^\d+(\.\d+)?$/);
    }
    const page = readFileSync(join(dir, 'capacity', 'messaging-sockets', 'index.html'), 'utf8');
    expect(page).toContain('sessions held');
  }, 240_000);
});
