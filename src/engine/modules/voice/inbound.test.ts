import { describe, expect, it } from 'vitest';
import { type FrameDecoder, InboundAudio, levelDbfs } from './inbound.js';

/** A decoder that answers a loud frame for a payload of 2 bytes or more and records the concealments it was asked for. */
function fakeDecoder() {
  const loud = new Int16Array(1920).fill(8000);
  const quiet = new Int16Array(1920);
  const d = {
    concealed: 0,
    decoded: 0,
    decode(p: Uint8Array) {
      if (p.length === 1) d.concealed++;
      else d.decoded++;
      const pcm = p.length >= 2 ? loud : quiet;
      return new Uint8Array(pcm.buffer);
    },
  } satisfies FrameDecoder & { concealed: number; decoded: number };
  return d;
}

const pkt = (sequenceNumber: number, timestamp: number) => ({ sequenceNumber, timestamp, payload: new Uint8Array([0xfc, 1, 2, 3, 4, 5, 6, 7, 8]) });

describe('the inbound audio of a call', () => {
  it('counts no loss, no concealment and no jitter for packets in order on their clock', () => {
    const levels: number[] = [];
    const a = new InboundAudio(fakeDecoder(), 48, (db) => levels.push(db));
    for (let i = 0; i < 50; i++) a.receive(pkt(100 + i, 960 * i), 20 * i);
    expect(a.figures()).toMatchObject({ packetsReceived: 50, packetsExpected: 50, packetsLost: 0, concealedFrames: 0, decodedFrames: 50 });
    expect(a.figures().jitterMs).toBe(0);
    expect(levels).toHaveLength(50);
    expect(levels[0]).toBeCloseTo(levelDbfs(new Int16Array(4).fill(8000)), 5);
  });

  it('counts a gap in the sequence numbers as lost and has the decoder conceal each missing frame', () => {
    const dec = fakeDecoder();
    const a = new InboundAudio(dec, 48, () => {});
    for (const i of [0, 1, 2, 5, 6]) a.receive(pkt(i, 960 * i), 20 * i);
    expect(a.figures()).toMatchObject({ packetsReceived: 5, packetsExpected: 7, packetsLost: 2, concealedFrames: 2 });
    expect(dec.concealed).toBe(2);
  });

  it('follows the sequence number across its wrap at 65535 without counting loss', () => {
    const a = new InboundAudio(fakeDecoder(), 48, () => {});
    for (let i = 0; i < 10; i++) a.receive(pkt((65530 + i) & 0xffff, 960 * i), 20 * i);
    expect(a.figures()).toMatchObject({ packetsExpected: 10, packetsLost: 0, concealedFrames: 0 });
  });

  it('plays no late packet: its turn was concealed already', () => {
    const a = new InboundAudio(fakeDecoder(), 48, () => {});
    for (const i of [0, 2, 1, 3]) a.receive(pkt(i, 960 * i), 20 * i);
    expect(a.figures()).toMatchObject({ packetsReceived: 4, packetsLost: 0, concealedFrames: 1, decodedFrames: 3 });
  });

  it('reads jitter as RFC 3550 does: packets 10 ms off their clock, alternately, converge towards 10 ms', () => {
    const a = new InboundAudio(fakeDecoder(), 48, () => {});
    for (let i = 0; i < 400; i++) a.receive(pkt(i, 960 * i), 20 * i + (i % 2) * 10);
    expect(a.figures().jitterMs).toBeGreaterThan(9);
    expect(a.figures().jitterMs).toBeLessThanOrEqual(10);
  });

  it("plays a packet of a few bytes (an encoder's silence) as silence without decoding it", () => {
    const dec = fakeDecoder();
    const levels: number[] = [];
    const a = new InboundAudio(dec, 48, (db) => levels.push(db));
    a.receive({ sequenceNumber: 1, timestamp: 0, payload: new Uint8Array([0xfc, 0xff, 0xfe]) }, 0);
    a.receive(pkt(2, 960), 20);
    expect(dec.decoded).toBe(1);
    expect(levels[0]).toBe(Number.NEGATIVE_INFINITY);
    expect(levels[1]).toBeGreaterThan(-20);
    expect(a.figures()).toMatchObject({ decodedFrames: 2, concealedFrames: 0 });
  });
});
