// Shared by the minimal scripts: the target profile (a file written by `dialtone target --profile-out`), its credentials
// from the environment, and an arrival-rate shape from BENCH_RATE, BENCH_VUS and BENCH_DURATION.
export const profile = JSON.parse(open(__ENV.BENCH_PROFILE));
export const secret = (name) => __ENV[profile.credentials[name].env];

const rate = Number(__ENV.BENCH_RATE);
const vus = Number(__ENV.BENCH_VUS);

/** The same executor the dialtone run gets from --rate, --max-vus and --duration (src/load/vu/config.ts), with the scenario's graceful stop. */
export const shape = (gracefulStop) => ({
  executor: 'constant-arrival-rate',
  rate,
  timeUnit: '1s',
  duration: __ENV.BENCH_DURATION,
  preAllocatedVUs: Math.min(Math.max(5, Math.ceil(rate / 2)), 100, vus),
  maxVUs: vus,
  gracefulStop,
});
