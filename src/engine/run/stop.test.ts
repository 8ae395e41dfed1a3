// A run is asked to stop through the signal source it is given: here an EventEmitter the test fires, in place of the
// process's signals and IPC channel that the CLI gives.
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { onStopRequest } from './stop.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('a stop request', () => {
  it('stops the run once at the first signal and ends everything at once with the code at the second', () => {
    const signals = new EventEmitter();
    const stops: string[] = [];
    const exits: number[] = [];
    onStopRequest({ signals, exitNow: (code) => exits.push(code) }, (why) => stops.push(why), 105);
    signals.emit('SIGTERM');
    expect(stops).toEqual(['received SIGTERM']);
    expect(exits).toEqual([]);
    signals.emit('SIGINT');
    expect(stops).toEqual(['received SIGTERM']);
    expect(exits).toEqual([105]);
  });

  it('stops the run when the starting process is gone, and ends everything once the run has had its time', () => {
    vi.useFakeTimers();
    const signals = new EventEmitter();
    const stops: string[] = [];
    const exits: number[] = [];
    onStopRequest({ signals, exitNow: (code) => exits.push(code) }, (why) => stops.push(why), 105);
    signals.emit('disconnect');
    expect(stops).toEqual(['the process that started the engine exited']);
    vi.advanceTimersByTime(9_999);
    expect(exits).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(exits).toEqual([105]);
  });

  it('leaves the source with no listener once removed, and without exitNow a second signal only goes on stopping', () => {
    const signals = new EventEmitter();
    const stops: string[] = [];
    const remove = onStopRequest({ signals }, (why) => stops.push(why), 105);
    expect(signals.listenerCount('SIGINT')).toBe(1);
    signals.emit('SIGHUP');
    signals.emit('SIGHUP');
    expect(stops).toEqual(['received SIGHUP']);
    remove();
    for (const e of ['SIGINT', 'SIGTERM', 'SIGHUP', 'disconnect']) expect(signals.listenerCount(e)).toBe(0);
  });
});
