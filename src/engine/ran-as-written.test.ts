import { describe, expect, it } from 'vitest';
import { MetricStore } from './metrics/store.js';
import { answeredCounter, notRunAsWritten } from './ran-as-written.js';

describe('a run that did not run as written', () => {
  const sends = ['http.get at script.js:5'];

  // k6 docs, /javascript-api/k6/fail/: an exception "aborts this iteration only" and the exit status is unchanged;
  // the built-in engine goes further when no iteration at all got through.
  it('is named when every iteration failed, with the first error and where it was thrown', () => {
    expect(notRunAsWritten({ iterations: 40, sent: 1 }, { count: 40, first: { message: 'boom', where: 'script.js:9' } }, sends)).toBe(
      'every iteration failed (40 of 40); the first: boom (script.js:9)',
    );
  });

  it('is named when the script sends and the target answered nothing, with the first failed request', () => {
    expect(notRunAsWritten({ iterations: 12, sent: 0 }, { count: 0, request: 'Request Failed error="connection refused"' }, sends)).toBe(
      'the script sends (http.get at script.js:5) but the target answered nothing; the first error: Request Failed error="connection refused"',
    );
    expect(notRunAsWritten({ iterations: 0, sent: 0 }, { count: 0 }, sends)).toBe(
      'the script sends (http.get at script.js:5) but the target answered nothing: no iteration ended',
    );
  });

  // docs/engines.md: dialtone differs from k6 there on purpose, for a run that tested nothing; a browser script that
  // loads no URL on purpose (page.setContent, a request expected to fail) did what it was written to do.
  it('is not named when the script acted on purpose in a way no answered exchange counts (a page whose content it set)', () => {
    const browserSends = ['browser at script.js:3'];
    expect(notRunAsWritten({ iterations: 2, sent: 0 }, { count: 0, acted: 'page.setContent' }, browserSends)).toBeUndefined();
    expect(notRunAsWritten({ iterations: 2, sent: 0 }, { count: 0 }, browserSends)).toContain('the target answered nothing');
    // Every iteration failing still is.
    expect(notRunAsWritten({ iterations: 2, sent: 0 }, { count: 2, acted: 'page.setContent', first: { message: 'x' } }, browserSends)).toContain(
      'every iteration failed',
    );
  });

  it('is not named when some iterations got through, or when the script sends nothing', () => {
    expect(notRunAsWritten({ iterations: 40, sent: 1 }, { count: 39, first: { message: 'boom' } }, sends)).toBeUndefined();
    expect(notRunAsWritten({ iterations: 5, sent: 0 }, { count: 0 }, [])).toBeUndefined();
  });

  it('counts as answered only exchanges with a status: a refused connection is status "0"', () => {
    const store = new MetricStore();
    store.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
    store.declare({ name: 'http_req_duration', type: 'trend', contains: 'time' });
    const answered = answeredCounter(store);
    store.emit('http_reqs', 1, { status: '0' });
    store.emit('http_req_duration', 1, { status: '200' });
    expect(answered()).toBe(0);
    store.emit('http_reqs', 1, { status: '503' });
    expect(answered()).toBe(1);
  });
  // /javascript-api/k6-net-grpc/constants/: "StatusOK: OK is returned on success" (0), where HTTP's "0" is no answer;
  // 14 (Unavailable) is what grpc-js reports for a call no connection carried.
  it('counts a gRPC call with any status but Unavailable as answered, OK (status "0") included', () => {
    const store = new MetricStore();
    store.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
    store.declare({ name: 'grpc_req_duration', type: 'trend', contains: 'time' });
    const answered = answeredCounter(store);
    store.emit('http_reqs', 1, { status: '0' });
    store.emit('grpc_req_duration', 1, { status: '14' });
    expect(answered()).toBe(0);
    // The same tag set an unanswered HTTP request had is an answer to gRPC.
    store.emit('grpc_req_duration', 1, { status: '0' });
    expect(answered()).toBe(1);
    // A message received on a stream the run's end interrupted, which never had a status.
    const streamed = new MetricStore();
    streamed.declare({ name: 'grpc_streams_msgs_received', type: 'counter', contains: 'default' });
    const heard = answeredCounter(streamed);
    streamed.emit('grpc_streams_msgs_received', 1, {});
    expect(heard()).toBe(1);
  });
});
