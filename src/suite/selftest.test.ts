import { afterEach, describe, expect, it } from 'vitest';
import type { CaseResult } from '../report/results.js';
import { ROOT } from '../root.js';
import { confirmAlone, runSelftest, verdictOf } from './selftest.js';

describe('the defect self-test, defects of several surfaces in one run', () => {
  // The runner hands the targets' secret values to its workers through process.env; this worker runs other files after
  // this one (and they start CLIs that inherit it), so the values go again.
  const before = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in before)) delete process.env[k];
    Object.assign(process.env, before);
  });

  it('judges each defect by its own surface against its own target, as if it had run alone, with a second lane joining once it started', async () => {
    // The two chat defects cannot share a run, so they land in two batches, the alerts defect beside one; one lane, and
    // one more that joins at once and takes the second batch when it comes before the first lane is free again.
    const ids = ['chat-close-success-false', 'alerts-patch-replaces', 'chat-whatsapp-rejected'] as const;
    const verdicts = await runSelftest(ROOT, ids, undefined, { lanes: 1, oneMoreLaneAfter: Promise.resolve() });
    expect(verdicts.map((v) => [v.id, v.failed_rules, v.exact])).toEqual([
      ['chat-close-success-false', ['chat.close.success-true'], true],
      ['alerts-patch-replaces', ['alerts.rules.patch-only-changed'], true],
      ['chat-whatsapp-rejected', ['chat.create.channel-enum'], true],
    ]);
    for (const v of verdicts) expect(v.duration_ms, v.id).toBeGreaterThan(0);
  });

  it('never waits for a lane to join when what it waits for does not end', async () => {
    const verdicts = await runSelftest(ROOT, ['chat-close-success-false'], undefined, { lanes: 1, oneMoreLaneAfter: new Promise(() => {}) });
    expect(verdicts.map((v) => [v.id, v.failed_rules, v.exact])).toEqual([['chat-close-success-false', ['chat.close.success-true'], true]]);
  });
});

describe('a defect verdict', () => {
  const result = (rule: string, outcome: CaseResult['outcome'], detail = ''): CaseResult => ({ rule, title: rule, outcome, detail, file: 'f', duration_ms: 1 });

  it('keeps the detail of each failure the defect does not explain, and ignores other surfaces', () => {
    const v = verdictOf('chat-close-success-false', [
      result('chat.close.success-true', 'fail', 'Received: false / Documented: true'),
      result('chat.create.channel-enum', 'fail', 'Received: 500 / Documented: 201'),
      result('alerts.rules.patch-only-changed', 'fail', 'another defect’s run'),
      result('chat.path.version-segment', 'pass'),
    ]);
    expect([v.caught, v.exact, v.unexpected]).toEqual([true, false, [{ rule: 'chat.create.channel-enum', detail: 'Received: 500 / Documented: 201' }]]);
  });
});

describe('a defect caught with other rules failing beside it', () => {
  const result = (rule: string, outcome: CaseResult['outcome'], detail = ''): CaseResult => ({ rule, title: rule, outcome, detail, file: 'f', duration_ms: 1 });
  const id = 'chat-close-success-false';
  const busy = verdictOf(id, [result('chat.close.success-true', 'fail'), result('chat.create.channel-enum', 'fail', 'not connected within 5000 ms')]);

  it('takes the verdict of its run by itself, and keeps what failed the first time with its detail', async () => {
    const asked: string[] = [];
    const [v] = await confirmAlone([busy], async (again) => {
      asked.push(again);
      return [result('chat.close.success-true', 'fail'), result('chat.create.channel-enum', 'pass')];
    });
    expect(asked).toEqual([id]);
    expect([v?.exact, v?.beside_others]).toEqual([true, [{ rule: 'chat.create.channel-enum', detail: 'not connected within 5000 ms' }]]);
  });

  it('stays not exact when the other rule fails again by itself', async () => {
    const [v] = await confirmAlone([busy], async () => [result('chat.close.success-true', 'fail'), result('chat.create.channel-enum', 'fail', 'again')]);
    expect([v?.caught, v?.exact, v?.unexpected?.[0]?.detail, v?.beside_others]).toEqual([true, false, 'again', []]);
  });

  it('is not caught when its run by itself no longer catches it', async () => {
    const [v] = await confirmAlone([busy], async () => [result('chat.close.success-true', 'pass'), result('chat.create.channel-enum', 'pass')]);
    expect([v?.caught, v?.exact]).toEqual([false, false]);
  });

  it('keeps a failure standing when its rule was not checked in the run by itself: skipped or absent is not held', async () => {
    for (const rerun of [
      [result('chat.close.success-true', 'fail'), result('chat.create.channel-enum', 'skip')],
      [result('chat.close.success-true', 'fail')],
    ]) {
      const [v] = await confirmAlone([busy], async () => rerun);
      expect([v?.caught, v?.exact, v?.failed_rules, v?.beside_others]).toEqual([true, false, ['chat.close.success-true', 'chat.create.channel-enum'], []]);
      expect(v?.unexpected).toEqual([{ rule: 'chat.create.channel-enum', detail: 'not connected within 5000 ms (not checked again by itself)' }]);
    }
  });

  it('never gives a defect that was not caught a second try', async () => {
    const missed = verdictOf(id, [result('chat.close.success-true', 'pass')]);
    await expect(confirmAlone([missed], async () => [])).rejects.toThrow('only a verdict caught with other rules failing is run again');
  });
});
