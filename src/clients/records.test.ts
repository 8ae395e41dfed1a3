import { describe, expect, it } from 'vitest';
import { queryString } from './records.js';

describe('the records query string', () => {
  it('sends spaces as %20 and repeats array values', () => {
    expect(queryString({ variant_name: 'North branch', channel: ['CHAT', 'SMS'], limit: 5 })).toBe(
      '?variant_name=North%20branch&channel=CHAT&channel=SMS&limit=5',
    );
  });

  it('leaves undefined values out and gives nothing for an empty query', () => {
    expect(queryString({ cursor: undefined, in_progress: false })).toBe('?in_progress=false');
    expect(queryString({})).toBe('');
  });
});
