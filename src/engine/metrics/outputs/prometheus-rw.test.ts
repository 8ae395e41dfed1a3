// `--out experimental-prometheus-rw` against a real Prometheus (Debian's package, its remote-write receiver on), started
// here and queried back through its HTTP API: the request count and the p95 it holds after a run are the run's own.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPrometheus, findVictoriaMetrics, type MetricsStore, startPrometheus, startVictoriaMetrics } from '../../../../tests/metrics-stores.js';
import { n } from '../../engine-process.js';
import { runInProcess } from '../../run/in-process.js';
import { NATIVE_SCHEMA } from './native-histogram.js';
import { prometheusRwConfig, statSuffix } from './prometheus-rw.js';

const bin = findPrometheus();

describe('the Prometheus remote write configuration', () => {
  // "K6_PROMETHEUS_RW_TREND_STATS … count, sum, min, max, avg, med, p(x). The default is p(99)."
  it('reads the trend stats, defaulting to p(99), and refuses a stat k6 does not know', () => {
    expect(prometheusRwConfig('', {}).trendStats).toEqual(['p(99)']);
    expect(prometheusRwConfig('', { K6_PROMETHEUS_RW_TREND_STATS: 'p(95),p(99.9),min,max,count,sum' }).trendStats).toHaveLength(6);
    expect(() => prometheusRwConfig('', { K6_PROMETHEUS_RW_TREND_STATS: 'p95' })).toThrow("'p95' is not one of count, sum, min, max, avg, med, p(x)");
  });

  // "p(90),p(95),max transforms each trend metric into three Prometheus metrics as follows: k6_*_p90, k6_*_p95, k6_*_max"
  it('names a stat as k6 does', () => {
    expect(['p(90)', 'p(95)', 'max', 'p(99.9)'].map(statSuffix)).toEqual(['p90', 'p95', 'max', 'p999']);
  });

  // "K6_PROMETHEUS_RW_HEADERS_<header-key>", "K6_PROMETHEUS_RW_HTTP_HEADERS=key1:value1,key2:value2", the server URL's default.
  it('reads headers both ways and the default endpoint', () => {
    const c = prometheusRwConfig('', {
      K6_PROMETHEUS_RW_HEADERS_X_Team: 'voice',
      K6_PROMETHEUS_RW_HTTP_HEADERS: 'a:1,b:2',
      K6_PROMETHEUS_RW_LABELS: 'env=ci,empty=',
    });
    expect(c.headers).toEqual({ X_Team: 'voice', a: '1', b: '2' });
    expect(c.labels).toEqual({ env: 'ci' });
    expect(c.url).toBe('http://localhost:9090/api/v1/write');
  });

  // "K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM | boolean | If true, maps all the defined trend metrics as Native
  // Histograms. Default is false."
  it('reads native histograms off by default and on when asked, and refuses a value that is not a boolean', () => {
    expect(prometheusRwConfig('', {}).nativeHistograms).toBe(false);
    expect(prometheusRwConfig('', { K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'true' }).nativeHistograms).toBe(true);
    expect(() => prometheusRwConfig('', { K6_PROMETHEUS_RW_STALE_MARKERS: 'yes' })).toThrow('K6_PROMETHEUS_RW_STALE_MARKERS=yes: give true or false');
  });
});

/** A target that answers after a few milliseconds, so the durations spread and a p95 means something. */
async function target(): Promise<{ server: Server; url: string }> {
  let n = 0;
  const server = createServer((_q, s) => {
    n++;
    setTimeout(() => s.end('ok'), n % 7);
  }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/x` };
}

/** 80 requests, 2 VUs sharing them: counts that do not depend on how busy the machine is. */
const script = (url: string) => `import http from 'k6/http';
  export const options = { scenarios: { s: { executor: 'shared-iterations', vus: 2, iterations: 80 } } };
  export default function () { http.get('${url}'); }`;

describe.skipIf(!bin)('--out experimental-prometheus-rw against a real Prometheus', () => {
  let prom: MetricsStore;
  let t: Awaited<ReturnType<typeof target>>;
  beforeAll(async () => {
    [prom, t] = await Promise.all([startPrometheus(bin as string, { nativeHistograms: true }), target()]);
  }, 60_000);
  afterAll(async () => {
    await prom?.stop();
    t?.server.close();
  });
  const env = (over: Record<string, string> = {}) => ({
    K6_PROMETHEUS_RW_SERVER_URL: `${prom.url}/api/v1/write`,
    K6_PROMETHEUS_RW_TREND_STATS: 'p(95),p(99),min,max,count,sum',
    K6_PROMETHEUS_RW_PUSH_INTERVAL: '1s',
    ...over,
  });

  it('holds the run’s request count and its p95 (in seconds) once the run has ended', async () => {
    const r = await runInProcess(script(t.url), ['--out', 'experimental-prometheus-rw', '--tag', 'testid=counts'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/dropped/);
    const sel = '{testid="counts"}';
    const [count] = await prom.query(`sum(k6_http_reqs_total${sel})`);
    expect(count?.value).toBe(n(r, 'http_reqs', 'count'));
    // One series holds every request here (one URL, one status), so its p95 is the run's, within the 1 % its bounded
    // histogram keeps; min and max are exact.
    const p95 = await prom.query(`k6_http_req_duration_p95${sel}`);
    expect(p95).toHaveLength(1);
    const own = n(r, 'http_req_duration', 'p(95)') as number;
    expect(Math.abs((p95[0]?.value as number) * 1000 - own) / own).toBeLessThan(0.01);
    const [max] = await prom.query(`k6_http_req_duration_max${sel}`);
    expect((max?.value as number) * 1000).toBeCloseTo(n(r, 'http_req_duration', 'max') as number, 6);
    const [trendCount] = await prom.query(`k6_http_req_duration_count${sel}`);
    expect(trendCount?.value).toBe(80);
    // "Rate | Gauge | k6_*_rate"; a gauge under its own name.
    const [failed] = await prom.query(`k6_http_req_failed_rate${sel}`);
    expect(failed?.value).toBe(0);
    // vus_max carries no test-wide tag; this is the first run this Prometheus has seen.
    const [vusMax] = await prom.query('k6_vus_max');
    expect(vusMax?.value).toBe(2);
  }, 60_000);

  // "If true, the output at the end of the test marks all the seen time series as stale."
  it('marks every series stale at the end when K6_PROMETHEUS_RW_STALE_MARKERS is true, so an instant query finds none', async () => {
    const r = await runInProcess(script(t.url), ['--out', 'experimental-prometheus-rw', '--tag', 'testid=stale'], {
      env: env({ K6_PROMETHEUS_RW_STALE_MARKERS: 'true' }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await prom.query('k6_http_reqs_total{testid="stale"}')).toEqual([]);
    const [last] = await prom.query('last_over_time(k6_http_reqs_total{testid="stale"}[10m])');
    expect(last?.value).toBe(80);
  }, 60_000);

  // k6 logs a failed push and goes on; the run's end says what was dropped, and the exit code is the run's own.
  it('finishes a run whose endpoint refuses every push, saying how many samples were dropped', async () => {
    const r = await runInProcess(script(t.url), ['--out', 'experimental-prometheus-rw'], {
      env: env({ K6_PROMETHEUS_RW_SERVER_URL: `${prom.url}/no/such/endpoint` }),
    });
    expect(r.code).toBe(0);
    expect(n(r, 'http_reqs', 'count')).toBe(80);
    const line =
      /output experimental-prometheus-rw \(http:\/\/127\.0\.0\.1:\d+\/no\/such\/endpoint\) dropped (\d+) of (\d+) samples; last error: HTTP 404/.exec(r.stderr);
    expect(line, r.stderr).not.toBeNull();
    expect(line?.[1]).toBe(line?.[2]);
  }, 60_000);

  // "With this option, each k6 trend metric maps to its corresponding Prometheus histogram metric: k6_*. You can then
  // query them using Prometheus histogram functions, such as histogram_quantile()."
  it('sends each trend as a native histogram that histogram_quantile reads back: the count exact, the p95 within its bucket', async () => {
    const r = await runInProcess(script(t.url), ['--out', 'experimental-prometheus-rw', '--out', 'json=samples.json', '--tag', 'testid=native'], {
      env: env({ K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'true' }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/dropped/);
    const sel = '{testid="native"}';
    const [count] = await prom.query(`histogram_count(k6_http_req_duration_seconds${sel})`);
    expect(count?.value).toBe(n(r, 'http_reqs', 'count'));
    expect(count?.value).toBe(80);
    // The trend is a histogram only: no stats series beside it.
    expect(await prom.query(`k6_http_req_duration_p95${sel}`)).toEqual([]);
    const [sum] = await prom.query(`histogram_sum(k6_http_req_duration_seconds${sel})`);
    const ownSum = ((n(r, 'http_req_duration', 'avg') as number) * 80) / 1000;
    expect(Math.abs((sum?.value as number) - ownSum) / ownSum).toBeLessThan(1e-9);
    // Prometheus reads the 0.95 quantile inside the bucket holding the observation of rank 0.95 × 80 = 76, so within a
    // bucket's factor 2^(2^-schema) (schema 7: 1.0054) of it; the run's own p(95) lies between the 76th and 77th values.
    const [p95] = await prom.query(`histogram_quantile(0.95, k6_http_req_duration_seconds${sel})`);
    const seconds = readFileSync(join(r.dir, 'samples.json'), 'utf8')
      .split('\n')
      .filter((l) => l.includes('"Point"') && l.includes('"metric":"http_req_duration"'))
      .map((l) => (JSON.parse(l) as { data: { value: number } }).data.value / 1000)
      .sort((a, b) => a - b);
    expect(seconds).toHaveLength(80);
    const [x76, x77] = [seconds[75] as number, seconds[76] as number];
    const factor = 2 ** (2 ** -NATIVE_SCHEMA);
    expect(p95?.value).toBeGreaterThanOrEqual(x76 / factor);
    expect(p95?.value).toBeLessThanOrEqual(x76 * factor);
    const own = (n(r, 'http_req_duration', 'p(95)') as number) / 1000;
    expect(own).toBeGreaterThanOrEqual(x76);
    expect(own).toBeLessThanOrEqual(x77);
  }, 60_000);

  // "If true, the output at the end of the test marks all the seen time series as stale": a native histogram too.
  it('marks a native histogram stale at the end when K6_PROMETHEUS_RW_STALE_MARKERS is true', async () => {
    const r = await runInProcess(script(t.url), ['--out', 'experimental-prometheus-rw', '--tag', 'testid=native-stale'], {
      env: env({ K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'true', K6_PROMETHEUS_RW_STALE_MARKERS: 'true' }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/dropped/);
    expect(await prom.query('histogram_count(k6_http_req_duration_seconds{testid="native-stale"})')).toEqual([]);
    // The pushes were stored (a range leaves stale markers out); Prometheus 2.42's last_over_time reads no histograms.
    const [pushes] = await prom.query('count_over_time(k6_http_req_duration_seconds{testid="native-stale"}[10m])');
    expect(pushes?.value).toBeGreaterThan(0);
    expect(await prom.query('k6_http_reqs_total{testid="native-stale"}')).toEqual([]);
  }, 60_000);
});

const vmBin = findVictoriaMetrics();

// VictoriaMetrics takes remote write too, and wants Basic auth when started with it: the credentials' two ways in.
describe.skipIf(!vmBin)('--out experimental-prometheus-rw to an endpoint that wants credentials', () => {
  let vm: MetricsStore;
  let t: Awaited<ReturnType<typeof target>>;
  beforeAll(async () => {
    [vm, t] = await Promise.all([startVictoriaMetrics(vmBin as string, 'k6:rw-secret'), target()]);
  }, 60_000);
  afterAll(async () => {
    await vm?.stop();
    t?.server.close();
  });

  // "K6_PROMETHEUS_RW_USERNAME … Username for the HTTP Basic authentication"; "K6_PROMETHEUS_RW_HEADERS_<header-key>".
  it('sends K6_PROMETHEUS_RW_USERNAME and _PASSWORD as Basic auth, and a header of K6_PROMETHEUS_RW_HEADERS_*', async () => {
    const url = `${vm.url}/api/v1/write`;
    const basic = `Basic ${Buffer.from('k6:rw-secret').toString('base64')}`;
    for (const [testid, env] of [
      ['user', { K6_PROMETHEUS_RW_USERNAME: 'k6', K6_PROMETHEUS_RW_PASSWORD: 'rw-secret' }],
      ['header', { K6_PROMETHEUS_RW_HEADERS_Authorization: basic }],
      ['none', {}],
    ] as const) {
      const r = await runInProcess(script(t.url), ['--out', 'experimental-prometheus-rw', '--tag', `testid=${testid}`], {
        env: { K6_PROMETHEUS_RW_SERVER_URL: url, ...env },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toContain('rw-secret');
      if (testid === 'none') expect(r.stderr).toMatch(/output experimental-prometheus-rw \(.*\) dropped \d+ of \d+ samples; last error: HTTP 401/);
      else expect(await vm.settled(`sum(k6_http_reqs_total{testid="${testid}"})`, (v) => v === 80)).toBe(80);
    }
  }, 90_000);
});

describe.skipIf(bin)('--out experimental-prometheus-rw against a real Prometheus (skipped)', () => {
  it.skip("needs Debian's prometheus package: `apt-get install prometheus` (npm install does it as root)", () => {});
});
