// `--out influxdb=URL` against a real server that takes InfluxDB v1's line protocol at /write: VictoriaMetrics (the pinned
// Go tool), started here with Basic auth on and queried back through its HTTP API.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findVictoriaMetrics, type MetricsStore, startVictoriaMetrics } from '../../../../tests/metrics-stores.js';
import { n } from '../../engine-process.js';
import { runInProcess } from '../../run/in-process.js';
import { influxConfig, LineChunks, msDigits, tagPart, timestamp } from './influxdb.js';

const bin = findVictoriaMetrics();

describe('the line chunks', () => {
  it('writes each line whole across chunk boundaries, its tags in UTF-8, and counts the lines of each body once', () => {
    const lines = new LineChunks();
    const head = Buffer.from('http_req_duration,name=caf\u00e9\\ \u2615 value=');
    const tail = Buffer.from(',url="https://t/\u00e9" ');
    // 20,000 lines of about 60 bytes: more than one 1 MiB chunk.
    for (let i = 0; i < 20_000; i++) lines.add(head, String(i + 0.25), tail, `17000000000${String(i).padStart(8, '0')}`);
    const first = lines.take();
    expect(first.chunks.length).toBeGreaterThan(1);
    const text = Buffer.concat(first.chunks).toString('utf8').split('\n');
    expect(first.samples).toBe(20_000);
    expect(text).toHaveLength(20_001);
    expect(text[0]).toBe('http_req_duration,name=caf\u00e9\\ \u2615 value=0.25,url="https://t/\u00e9" 1700000000000000000');
    expect(text[19_999]).toBe('http_req_duration,name=caf\u00e9\\ \u2615 value=19999.25,url="https://t/\u00e9" 1700000000000019999');
    expect(text[20_000]).toBe('');
    // The next body holds only what came after.
    lines.add(head, '1', tail, '2');
    const second = lines.take();
    expect([Buffer.concat(second.chunks).toString('utf8'), second.samples]).toEqual([`${head}1${tail}2\n`, 1]);
    expect(lines.take().samples).toBe(0);
  });

  it('writes over chunks given back once sent, and never over a chunk still out', () => {
    const lines = new LineChunks();
    const head = Buffer.from('m value=');
    const tail = Buffer.from(' ');
    const fill = (n: number, v: string) => {
      for (let i = 0; i < n; i++) lines.add(head, v, tail, '17');
    };
    fill(100_000, '1');
    const out = lines.take();
    const sent = Buffer.concat(out.chunks).toString();
    fill(100_000, '2');
    // Lines written while a body is out leave it as it was.
    expect(Buffer.concat(out.chunks).toString()).toBe(sent);
    const next = lines.take();
    lines.release(out.chunks);
    fill(100_000, '3');
    const third = lines.take();
    // The chunks given back hold the third body now; the second was never written over.
    expect(third.chunks.some((c) => out.chunks.some((o) => o.buffer === c.buffer))).toBe(true);
    expect(Buffer.concat(next.chunks).toString()).toBe('m value=2 17\n'.repeat(100_000));
    expect(Buffer.concat(third.chunks).toString()).toBe('m value=3 17\n'.repeat(100_000));
  });
});

describe('the InfluxDB output configuration', () => {
  // "k6 uses the final URL path segment as the database name and preserves the preceding path as the address prefix."
  it('takes the database from the URL’s last segment and the address prefix from the rest', () => {
    const c = influxConfig('https://influxdb.example.com/influxdb/myk6db', {});
    expect([c.addr, c.db]).toEqual(['https://influxdb.example.com/influxdb', 'myk6db']);
    // "A trailing slash means that the entire path is the prefix … or the default k6 database."
    const d = influxConfig('https://influxdb.example.com/influxdb/', {});
    expect([d.addr, d.db]).toEqual(['https://influxdb.example.com/influxdb', 'k6']);
    expect(influxConfig('http://u:p%40ss@db:8086/k6', {}).password).toBe('p@ss');
  });

  // "K6_INFLUXDB_TAGS_AS_FIELDS … vu:int,iter:int,url" by default; "The possible field types are int, bool, float and string".
  it('writes the default tags-as-fields as typed fields, the other tags as sorted tags', () => {
    const c = influxConfig('http://db:8086/k6', {});
    expect(tagPart({ vu: '3', status: '200', url: 'http://t/a b', method: 'GET', iter: '7', name: 'a,b=c' }, c.tagsAsFields)).toEqual({
      tags: ',method=GET,name=a\\,b\\=c,status=200',
      fields: ',iter=7i,url="http://t/a b",vu=3i',
    });
    expect(() => influxConfig('http://db:8086/k6', { K6_INFLUXDB_TAGS_AS_FIELDS: 'vu:integer' })).toThrow(
      "'vu:integer': the type is int, bool, float or string",
    );
  });

  it('writes nanosecond timestamps without losing digits to a double', () => {
    expect(timestamp(1700000000123.25, 'ns')).toBe('1700000000123250000');
    expect(timestamp(1700000000123.75, 'u')).toBe('1700000000123750');
    expect(timestamp(1700000000123.25, 'ms')).toBe('1700000000123');
    expect(timestamp(1700000000123.25, 's')).toBe('1700000000');
  });
});

/** A target that answers after a few milliseconds, so the durations spread. */
async function target(): Promise<{ server: Server; url: string }> {
  let n = 0;
  const server = createServer((_q, s) => {
    n++;
    setTimeout(() => s.end('ok'), n % 7);
  }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/x` };
}

/** 80 requests, 2 VUs sharing them, each with a distinct `n` tag so no two lines share a series and a millisecond. */
const script = (url: string) => `import http from 'k6/http';
  import exec from 'k6/execution';
  export const options = { scenarios: { s: { executor: 'shared-iterations', vus: 2, iterations: 80 } } };
  export default function () { http.get('${url}', { tags: { n: String(exec.scenario.iterationInTest) } }); }`;

describe.skipIf(!bin)('--out influxdb against a real line-protocol server', () => {
  let vm: MetricsStore;
  let t: Awaited<ReturnType<typeof target>>;
  beforeAll(async () => {
    [vm, t] = await Promise.all([startVictoriaMetrics(bin as string, 'k6:rw-secret'), target()]);
  }, 60_000);
  afterAll(async () => {
    await vm?.stop();
    t?.server.close();
  });

  it('holds one point per request with its duration, sent with K6_INFLUXDB_USERNAME and _PASSWORD', async () => {
    const r = await runInProcess(script(t.url), ['--out', `influxdb=${vm.url}/dialtone`, '--tag', 'testid=influx'], {
      env: { K6_INFLUXDB_USERNAME: 'k6', K6_INFLUXDB_PASSWORD: 'rw-secret', K6_INFLUXDB_PUSH_INTERVAL: '500ms' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/dropped/);
    expect(r.stderr).not.toContain('rw-secret');
    const sel = '{db="dialtone",testid="influx"}';
    const count = await vm.settled(`sum(count_over_time(http_reqs_value${sel}[1h]))`, (v) => v === 80);
    expect(count).toBe(n(r, 'http_reqs', 'count'));
    // Each request is a series of its own (its `n` tag) holding one duration, so the quantile across series is the run's.
    const p95 = (await vm.query(`quantile(0.95, last_over_time(http_req_duration_value${sel}[1h]))`))[0]?.value as number;
    const own = n(r, 'http_req_duration', 'p(95)') as number;
    expect(Math.abs(p95 - own) / own).toBeLessThan(0.01);
    // "vu:int,iter:int,url" by default are fields, not tags: the URL is never a label of the series.
    const series = await vm.query(`last_over_time(http_reqs_value${sel}[1h])`);
    expect(series).toHaveLength(80);
    expect(series.filter((x) => x.metric.method === 'GET' && x.metric.url === undefined)).toHaveLength(80);
  }, 60_000);

  it('finishes a run the server refuses (a wrong password), saying how many samples were dropped', async () => {
    const r = await runInProcess(script(t.url), ['--out', `influxdb=${vm.url}/dialtone`], {
      env: { K6_INFLUXDB_USERNAME: 'k6', K6_INFLUXDB_PASSWORD: 'wrong' },
    });
    expect(r.code).toBe(0);
    expect(n(r, 'http_reqs', 'count')).toBe(80);
    const line = /output influxdb \(http:\/\/127\.0\.0\.1:\d+\/write\) dropped (\d+) of (\d+) samples; last error: HTTP 401/.exec(r.stderr);
    expect(line, r.stderr).not.toBeNull();
    expect(line?.[1]).toBe(line?.[2]);
    expect(r.stderr).not.toContain('wrong');
  }, 60_000);
});

describe.skipIf(bin)('--out influxdb against a real line-protocol server (skipped)', () => {
  it.skip('needs VictoriaMetrics built by npm install (.tools/bin/victoria-metrics, src/tools/go-tools.ts)', () => {});
});

describe('msDigits', () => {
  it('writes a duration to the nanosecond, as k6 writes the nanoseconds it measured, without trailing zeros or an exponent', () => {
    const c = Buffer.alloc(32);
    const text = (ms: number) => c.toString('latin1', 0, msDigits(c, ms, 0));
    expect([0, 0.5, 1, 2.5, 10, 12.3456789, 0.000001, 0.0000004, 999_999_999.999999].map(text)).toEqual([
      '0',
      '0.5',
      '1',
      '2.5',
      '10',
      '12.345679',
      '0.000001',
      '0',
      '999999999.999999',
    ]);
    // Any value in range reads back as the value to the nanosecond.
    for (let i = 0; i < 100_000; i++) {
      const ms = Math.random() * 10 ** Math.floor(Math.random() * 9);
      const t = text(ms);
      expect(t).toMatch(/^\d+(\.\d*[1-9])?$/);
      expect(Number(t)).toBe(Math.round(ms * 1e6) / 1e6);
    }
  });
});
