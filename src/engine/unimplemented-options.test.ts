import { describe, expect, it } from 'vitest';
import { unimplementedOptions } from './unimplemented-options.js';

describe('unimplementedOptions', () => {
  it('names each option the script sets that the built-in engine does not carry out, with what k6 does with it', () => {
    const notCarriedOut = 'is not implemented by the built-in engine and has no effect; k6 itself carries it out (--engine k6)';
    expect(unimplementedOptions({ vus: 5, rps: 10, dns: { ttl: '1m' } })).toEqual([
      `options.rps (the maximum number of requests to make per second) ${notCarriedOut}`,
      `options.dns (DNS resolution behavior) ${notCarriedOut}`,
    ]);
  });

  it('says nothing of an option left at what asks for nothing: unset, false, or empty', () => {
    expect(unimplementedOptions({ noConnectionReuse: false, dns: {}, blacklistIPs: [], systemTags: undefined })).toEqual([]);
  });

  it('says nothing of the options the engine carries out', () => {
    const implemented = {
      vus: 1,
      duration: '1s',
      thresholds: {},
      userAgent: 'x',
      discardResponseBodies: true,
      minIterationDuration: '1s',
      noCookiesReset: true,
      hosts: { 'api.example.com': '10.0.0.5' },
    };
    expect(unimplementedOptions(implemented)).toEqual([]);
  });
});
