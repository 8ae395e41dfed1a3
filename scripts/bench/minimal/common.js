// Shared by the minimal scripts: the target profile (a file written by `dialtone target --profile-out`), its credentials
// from the environment, and an arrival-rate shape from BENCH_RATE, BENCH_VUS and BENCH_DURATION.
export const profile = JSON.parse(open(__ENV.BENCH_PROFILE));
export const secret = (name) => __ENV[profile.credentials[name].env];

/** The same executor the dialtone run gets from --rate, --max-vus and --duration, with the scenario's graceful stop. */
export const shape = (gracefulStop) => ({
  executor: 'constant-arrival-rate',
  rate: Number(__ENV.BENCH_RATE),
  timeUnit: '1s',
  duration: __ENV.BENCH_DURATION,
  preAllocatedVUs: Number(__ENV.BENCH_VUS),
  maxVUs: Number(__ENV.BENCH_VUS),
  gracefulStop,
});
