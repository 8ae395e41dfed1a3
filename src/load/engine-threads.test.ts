import { describe, expect, it } from 'vitest';
import type { Profile } from '../profile/schema.js';
import type { Engine } from './engine.js';
import { engineThreadsEnv, targetIsLocal } from './engine-threads.js';

const builtin: Engine = { kind: 'builtin', version: 'v0', command: 'node', args: [] };
const k6: Engine = { kind: 'k6', version: 'k6 v2.2.0', command: 'k6', args: [] };
const profileOn = (...urls: string[]) =>
  ({ hosts: Object.fromEntries(urls.map((u, i) => [['base_url', 'messaging_url', 'webrtc_url', 'agents_url'][i], u])) }) as unknown as Profile;

describe('the built-in engine’s worker threads', () => {
  it('leaves the target a core when every host is on loopback', () => {
    const local = profileOn('http://127.0.0.1:4000', 'ws://localhost:4001', 'https://[::1]:4002');
    expect(targetIsLocal(local)).toBe(true);
    expect(engineThreadsEnv(builtin, local, {}, 2)).toEqual({ DIALTONE_ENGINE_WORKERS: '1' });
    expect(engineThreadsEnv(builtin, local, {}, 8)).toEqual({ DIALTONE_ENGINE_WORKERS: '7' });
    expect(engineThreadsEnv(builtin, local, {}, 1)).toEqual({ DIALTONE_ENGINE_WORKERS: '1' });
  });

  it('gives a remote target every core, as it does when one host of several is remote', () => {
    expect(engineThreadsEnv(builtin, profileOn('https://runtime.us-1.example.com'), {}, 2)).toEqual({});
    expect(engineThreadsEnv(builtin, profileOn('http://127.0.0.1:4000', 'wss://messaging.example.com'), {}, 2)).toEqual({});
  });

  it('keeps the user’s DIALTONE_ENGINE_WORKERS, and sets nothing for k6', () => {
    const local = profileOn('http://127.0.0.1:4000');
    expect(engineThreadsEnv(builtin, local, { DIALTONE_ENGINE_WORKERS: '2' }, 2)).toEqual({});
    expect(engineThreadsEnv(k6, local, {}, 2)).toEqual({});
  });
});
