import { describe, expect, it } from 'vitest';
import { sharedResource } from './exclusive.js';

describe('what cases share on a target', () => {
  it('is the account for alerts and webhooks cases on a target without a control surface, where they cannot mint their own', () => {
    expect(sharedResource('alerts', new Set())).toBe('account');
    expect(sharedResource('webhooks', new Set(['slow']))).toBe('account');
  });

  it('is nothing where every case mints an account of its own, or for a surface whose cases own what they make', () => {
    expect(sharedResource('alerts', new Set(['control']))).toBeUndefined();
    expect(sharedResource('messaging', new Set())).toBeUndefined();
  });
});
