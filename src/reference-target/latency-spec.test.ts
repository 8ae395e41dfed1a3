import { describe, expect, it } from 'vitest';
import { agentReplyWaitFor, describeLatency, LATENCY_ENV, latencyFromEnv, parseLatency, REALISTIC } from './latency-spec.js';
import { OP_NAMES } from './ops.js';

/** The spec's ops in text form, or the error. */
function read(text: string): Record<string, string> | string {
  const r = parseLatency(text);
  return 'error' in r ? r.error : describeLatency(r.spec);
}

describe('a latency spec', () => {
  it('reads realistic as every op at the published figures: agent turns 1.5 s / 4.5 s, API calls 80 / 250 ms, chunks 60 / 200 ms', () => {
    const ops = read('realistic') as Record<string, string>;
    expect(Object.keys(ops).sort()).toEqual([...OP_NAMES].sort());
    for (const op of ['chat.respond', 'messaging.reply', 'voice.first_agent_audio', 'voice.reply']) expect(ops[op], op).toBe('lognormal:p50=1.5s,p95=4.5s');
    for (const op of [
      'chat.create',
      'chat.close',
      'messaging.access_token',
      'messaging.session',
      'conversations.list',
      'outbound.trigger',
      'outbound.status',
    ]) {
      expect(ops[op], op).toBe('lognormal:p50=80ms,p95=250ms');
    }
    expect(ops['messaging.chunk']).toBe('lognormal:p50=60ms,p95=200ms');
    expect(REALISTIC['chat.respond']).toEqual({ kind: 'lognormal', p50: 1500, p95: 4500 });
  });

  it('reads OP=DISTRIBUTION entries separated by semicolons, a wildcard for a surface, and * for every op', () => {
    expect(read('chat.respond=lognormal:p50=1.5s,p95=4.5s; outbound.status=fixed:80ms')).toEqual({
      'chat.respond': 'lognormal:p50=1.5s,p95=4.5s',
      'outbound.status': 'fixed:80ms',
    });
    expect(read('chat.*=fixed:1s')).toEqual({ 'chat.create': 'fixed:1s', 'chat.respond': 'fixed:1s', 'chat.close': 'fixed:1s' });
    expect(Object.keys(read('*=fixed:5ms'))).toHaveLength(OP_NAMES.length);
  });

  it('lets a later entry replace what an earlier one set, and none clear everything before it', () => {
    const ops = read('realistic;chat.respond=fixed:2s') as Record<string, string>;
    expect(ops['chat.respond']).toBe('fixed:2s');
    expect(ops['chat.create']).toBe('lognormal:p50=80ms,p95=250ms');
    expect(read('chat.*=fixed:1s;chat.close=fixed:5ms')).toMatchObject({ 'chat.create': 'fixed:1s', 'chat.close': 'fixed:5ms' });
    expect(read('realistic;none')).toEqual({});
    expect(read('none;voice.reply=fixed:2s')).toEqual({ 'voice.reply': 'fixed:2s' });
  });

  it('keeps the text as given (without empty entries) for the start line and the profile name', () => {
    const r = parseLatency(' realistic ; chat.respond=fixed:2s ;');
    expect('spec' in r && r.spec.text).toBe('realistic;chat.respond=fixed:2s');
  });

  it.each([
    ['', "--latency needs a preset (realistic, none) or OP=DISTRIBUTION entries, got ''"],
    ['fast', "--latency: 'fast' is neither a preset (realistic, none) nor OP=DISTRIBUTION (e.g. chat.respond=lognormal:p50=1.5s,p95=4.5s)"],
    ['chat.respond=lognormal:p50=2s,p95=1s', '--latency: chat.respond: lognormal needs p95 (1s) above p50 (2s); for a constant use fixed:'],
    ['chat.respond=fixed:1.5', "--latency: chat.respond: fixed needs one duration (e.g. fixed:1.2s), got '1.5'"],
    ['chat.respond=normal:p50=1s', "--latency: chat.respond: unknown distribution 'normal'; known: fixed:, lognormal:, uniform:"],
    [
      'realistic;chat.sing=fixed:1s',
      `--latency: unknown op 'chat.sing'; known ops: ${OP_NAMES.join(', ')} (or chat.*, messaging.*, conversations.*, outbound.*, voice.*, *)`,
    ],
    [
      'agents.*=fixed:1s',
      `--latency: unknown op 'agents.*'; known ops: ${OP_NAMES.join(', ')} (or chat.*, messaging.*, conversations.*, outbound.*, voice.*, *)`,
    ],
  ])("refuses '%s' with one line", (text, error) => {
    expect(read(text)).toBe(error);
    expect(error).not.toContain('\n');
  });

  it('comes from DIALTONE_TARGET_LATENCY when set, and names the variable when it is wrong', () => {
    expect(latencyFromEnv({})).toMatchObject({ spec: { text: 'none' } });
    expect(latencyFromEnv({ [LATENCY_ENV]: ' ' })).toMatchObject({ spec: { text: 'none' } });
    const r = latencyFromEnv({ [LATENCY_ENV]: 'chat.respond=fixed:2s' });
    expect('spec' in r && describeLatency(r.spec)).toEqual({ 'chat.respond': 'fixed:2s' });
    expect(latencyFromEnv({ [LATENCY_ENV]: 'chat.respond=fixed' })).toEqual({
      error: "DIALTONE_TARGET_LATENCY: chat.respond: fixed needs its parameters after 'fixed:'",
    });
  });
});

describe("the agent reply wait a slowed target's profile names", () => {
  const waitFor = (text: string) => {
    const parsed = parseLatency(text);
    if (!('spec' in parsed)) throw new Error(JSON.stringify(parsed));
    return agentReplyWaitFor(parsed.spec);
  };

  it("covers the slowest waited op's 99.99th percentile and 2 s, in whole seconds", () => {
    // realistic: lognormal p50 1.5 s, p95 4.5 s reaches 17.98 s one time in 10 000.
    expect(waitFor('realistic')).toBe(20_000);
    expect(waitFor('messaging.reply=uniform:min=1s,max=6s')).toBe(8000);
    expect(waitFor('messaging.reply=fixed:1.2s;voice.reply=fixed:4.5s')).toBe(7000);
  });

  it('is never under the default, and is absent when no waited op is slowed', () => {
    expect(waitFor('messaging.reply=fixed:50ms')).toBe(3000);
    expect(waitFor('chat.respond=fixed:1.2s')).toBeUndefined();
    expect(waitFor('none')).toBeUndefined();
  });
});
