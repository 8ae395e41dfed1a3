import { describe, expect, it } from 'vitest';
import { iceServerProblems } from './voice.js';

describe('iceServerProblems', () => {
  it('accepts STUN without credentials and TURN with them', () => {
    expect(
      iceServerProblems([
        { urls: 'stun:stun.example.com:3478' },
        { urls: ['turn:10.0.0.1:3478?transport=udp', 'turns:turn.example.com:443?transport=tcp'], username: 'u', credential: 'c' },
        { urls: 'turn:[2001:db8::1]:3478', username: 'u', credential: 'c' },
      ]),
    ).toEqual([]);
  });

  it('refuses TURN without username or credential, as RTCPeerConnection does', () => {
    expect(iceServerProblems([{ urls: 'turns:turn.example.com:443', username: 'u' }])).toEqual([
      'turns:turn.example.com:443: TURN without username and credential',
    ]);
  });

  it('refuses a URL of another scheme and a STUN URL with a transport', () => {
    expect(iceServerProblems([{ urls: ['https://turn.example.com', 'stun:stun.example.com?transport=udp'] }])).toHaveLength(2);
  });

  it('refuses an entry with no URLs', () => {
    expect(iceServerProblems([{ urls: [] }])).toEqual(['an entry with no urls']);
  });
});
