import { describe, expect, it } from 'vitest';
import { Seats } from './seats.js';

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('the agent seats of a known voice capacity', () => {
  it('seats N calls at once and holds the next until a seated call ends, first come first served', async () => {
    const seats = new Seats(2);
    expect(await settled(seats.take('a'))).toBe(true);
    expect(await settled(seats.take('b'))).toBe(true);
    const c = seats.take('c');
    const d = seats.take('d');
    expect(await settled(c)).toBe(false);
    expect(seats.counts).toEqual({ seated: 2, waiting: 2 });
    seats.release('a');
    expect(await settled(c)).toBe(true);
    expect(await settled(d)).toBe(false);
    seats.release('b');
    expect(await settled(d)).toBe(true);
  });

  it('drops a waiting call that ended before it was seated, and ignores an id it never saw', async () => {
    const seats = new Seats(1);
    await seats.take('a');
    void seats.take('b');
    const c = seats.take('c');
    seats.release('b');
    seats.release('nobody');
    expect(seats.counts).toEqual({ seated: 1, waiting: 1 });
    seats.release('a');
    expect(await settled(c)).toBe(true);
  });
});
