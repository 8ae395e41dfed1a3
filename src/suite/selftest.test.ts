import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../root.js';
import { runSelftest } from './selftest.js';

describe('the defect self-test, defects of several surfaces in one run', () => {
  // The runner hands the targets' secret values to its workers through process.env; this worker runs other files after
  // this one (and they start CLIs that inherit it), so the values go again.
  const before = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in before)) delete process.env[k];
    Object.assign(process.env, before);
  });

  it('judges each defect by its own surface against its own target, as if it had run alone', async () => {
    // One lane: the two chat defects cannot share a run, so they land in two batches, the alerts defect beside one.
    const ids = ['chat-close-success-false', 'alerts-patch-replaces', 'chat-whatsapp-rejected'] as const;
    const verdicts = await runSelftest(ROOT, ids, undefined, { lanes: 1 });
    expect(verdicts.map((v) => [v.id, v.failed_rules, v.exact])).toEqual([
      ['chat-close-success-false', ['chat.close.success-true'], true],
      ['alerts-patch-replaces', ['alerts.rules.patch-only-changed'], true],
      ['chat-whatsapp-rejected', ['chat.create.channel-enum'], true],
    ]);
    for (const v of verdicts) expect(v.duration_ms, v.id).toBeGreaterThan(0);
  });
});
