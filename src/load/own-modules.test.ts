import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { ROOT } from '../root.js';
import type { Engine } from './engine.js';
import { ownModulesOf, refuseOnK6 } from './own-modules.js';

const k6: Engine = { kind: 'k6', version: 'k6 v2.2.0', command: 'k6', args: [] };
const builtin: Engine = { kind: 'builtin', version: 'dialtone', command: 'node', args: [] };

describe("scenarios on dialtone's own modules", () => {
  it('finds that voice-calls imports the voice module and that no other scenario imports one', () => {
    expect(ownModulesOf(ROOT, 'voice-calls')).toEqual(['k6/x/dialtone-voice']);
    for (const s of ['chat-turns', 'voice-browser', 'messaging-sockets']) expect(ownModulesOf(ROOT, s), s).toEqual([]);
  });

  it("refuses voice-calls on the user's k6 with one line saying why, and lets the built-in engine run it", () => {
    expect(() => refuseOnK6(k6, ROOT, 'voice-calls')).toThrow(UsageError);
    expect(() => refuseOnK6(k6, ROOT, 'voice-calls')).toThrow(
      /^voice-calls imports k6\/x\/dialtone-voice, which only the built-in engine provides \(k6 has no WebRTC module\): run it with --engine builtin$/,
    );
    expect(() => refuseOnK6(builtin, ROOT, 'voice-calls')).not.toThrow();
    expect(() => refuseOnK6(k6, ROOT, 'chat-turns')).not.toThrow();
  });

  it('says what to do instead where the caller knows better (the k6-operator runs k6)', () => {
    expect(() => refuseOnK6(k6, ROOT, 'voice-calls', 'the k6-operator runs k6')).toThrow(/\(k6 has no WebRTC module\): the k6-operator runs k6$/);
  });
});
