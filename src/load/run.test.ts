import { describe, expect, it } from 'vitest';
import { runLimitSeconds } from './run.js';

describe('the wall-time bound of a load run', () => {
  it('is the workload bound unless a --duration needs longer, and then the duration with room to start and stop', () => {
    expect(runLimitSeconds('nightly', undefined)).toBe(900);
    expect(runLimitSeconds('nightly', '5m')).toBe(900);
    // The soak: 30 minutes at nightly rates must not be cut at the nightly 15.
    expect(runLimitSeconds('nightly', '30m')).toBe(2100);
    expect(runLimitSeconds('smoke', '1h')).toBe(3900);
    expect(runLimitSeconds('smoke', '10s')).toBe(310);
  });
});
