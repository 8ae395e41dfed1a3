import type { NightMetric } from './metrics.js';

/** A seeded uniform [0, 1) generator (mulberry32): the same seed gives the same nights. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
const poisson = (r: () => number, mean: number) => {
  let k = 0;
  for (let p = Math.exp(-mean), s = r(); s > p; s *= r()) k++;
  return k;
};

/**
 * Synthetic nights of one workload with nothing changing but noise: latencies log-normal around a
 * level with a spread of 3 % to 30 % (p99 of short runs is that noisy), error and check rates from
 * Poisson counts over 2000 requests, throughput within 2 %, and a lost-events count that stays 0.
 * Used by the verdict's tests and by the false-alarm measurement.
 *
 * @example
 * const nights = noisyNights(seeded(1), 15); // 15 records of metric name → value
 */
export function noisyNights(r: () => number, runs: number): Record<string, NightMetric>[] {
  const latencies = Array.from({ length: 8 }, (_, i) => ({ name: `op${i} p${i % 2 ? 99 : 95}`, level: 2 + r() * 300, spread: 0.03 + r() * 0.27 }));
  const errorMean = r() * 4;
  const rate = 5 + r() * 40;
  return Array.from({ length: runs }, () => {
    const night: Record<string, NightMetric> = {};
    for (const l of latencies) night[l.name] = { value: l.level * Math.exp(l.spread * gauss(r)), unit: 'ms', better: 'lower' };
    night['http_req_failed rate'] = { value: poisson(r, errorMean) / 2000, unit: 'ratio', better: 'lower' };
    night['checks rate'] = { value: 1 - poisson(r, errorMean) / 2000, unit: 'ratio', better: 'higher' };
    night['iterations per_s'] = { value: rate * (1 + 0.02 * gauss(r)), unit: 'per_s', better: 'higher' };
    night['events_lost count'] = { value: 0, unit: 'count', better: 'lower' };
    return night;
  });
}
