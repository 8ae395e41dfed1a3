import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.js';
import { ROOT } from '../root.js';
import type { Engine } from './engine.js';
import { drivesChromium, moduleMetricsOf, ownModulesOf, refuseOnK6, scenarioImports } from './scenario-modules.js';

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

describe("a scenario's modules, from its bundle", () => {
  it('finds k6/websockets in messaging-sockets, which imports it through src/load/vu, never in its own source', () => {
    expect(readFileSync(join(ROOT, 'scenarios', 'messaging-sockets.ts'), 'utf8')).not.toMatch(/from 'k6\/websockets'/);
    expect(scenarioImports(ROOT, 'messaging-sockets')).toContain('k6/websockets');
    expect(moduleMetricsOf(ROOT, 'messaging-sockets').map((m) => m.name)).toEqual(expect.arrayContaining(['http_reqs', 'ws_sessions', 'ws_ping']));
    expect(moduleMetricsOf(ROOT, 'chat-turns').map((m) => m.name)).not.toContain('ws_sessions');
  });

  it('says that voice-browser drives Chromium and that chat-turns and voice-calls do not', () => {
    expect(drivesChromium(ROOT, 'voice-browser')).toBe(true);
    expect(drivesChromium(ROOT, 'chat-turns')).toBe(false);
    expect(drivesChromium(ROOT, 'voice-calls')).toBe(false);
  });
});
