// `--out experimental-prometheus-rw` against a real Prometheus (Debian's package, its remote-write receiver on), started
// here and queried back through its HTTP API: the request count and the p95 it holds after a run are the run's own.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findPrometheus, findVictoriaMetrics, type MetricsStore, startPrometheus, startVictoriaMetrics } from '../../../../tests/metrics-stores.js';
import { n } from '../../engine-process.js';
import { runInProcess } from '../../run/in-process.js';
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

  it('refuses native histograms in one line, naming what it sends instead', () => {
    expect(() => prometheusRwConfig('', { K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'true' })).toThrow(
      /sends trends as stats only \(K6_PROMETHEUS_RW_TREND_STATS\)/,
    );
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
    [prom, t] = await Promise.all([startPrometheus(bin as string), target()]);
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

  it('refuses native histograms before the run, with k6’s exit code for a bad configuration', async () => {
    const r = await runInProcess(script(t.url), ['--out', 'experimental-prometheus-rw'], { env: env({ K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM: 'true' }) });
    expect(r.code).toBe(104);
    expect(r.stderr).toMatch(/K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM=true: the built-in engine sends trends as stats only/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
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
