import { describe, expect, it } from 'vitest';
import { MetricStore } from './store.js';
import { formatBytes, textSummary } from './text-summary.js';
import { parseThresholds } from './thresholds.js';

function run() {
  let now = 0;
  const store = new MetricStore({
    thresholds: parseThresholds({ http_req_duration: ['p(95)<1500', 'p(95)<1'], http_req_failed: ['rate<0.01'], 'http_req_duration{op:x}': ['avg<1000'] }),
    now: () => now,
  });
  store.declare({ name: 'http_req_duration', type: 'trend', contains: 'time' });
  store.declare({ name: 'http_req_waiting', type: 'trend', contains: 'time' });
  store.declare({ name: 'http_req_failed', type: 'rate', contains: 'default' });
  store.declare({ name: 'http_reqs', type: 'counter', contains: 'default' });
  store.declare({ name: 'iterations', type: 'counter', contains: 'default' });
  store.declare({ name: 'vus', type: 'gauge', contains: 'default' });
  store.declare({ name: 'data_received', type: 'counter', contains: 'data' });
  store.declare({ name: 'checks', type: 'rate', contains: 'default' });
  store.declare({ name: 'chat_turns', type: 'trend', contains: 'default' });
  for (const d of [140.36, 119.08, 154.63]) {
    const tags = { op: 'x', expected_response: 'true' };
    store.emit('http_req_duration', d, tags);
    store.emit('http_req_waiting', d - 1, tags);
    store.emit('http_req_failed', 0, tags);
    store.emit('http_reqs', 1, tags);
    store.emit('iterations', 1, {});
    store.emit('data_received', 173_000, {});
    store.emit('checks', 1, { check: 'status is 200', group: '' });
    store.emit('checks', d > 150 ? 0 : 1, { check: 'fast', group: '::chat' });
    store.emit('chat_turns', 152.355556, {});
  }
  store.emit('vus', 1, {});
  now = 3000;
  store.end();
  return store;
}

describe('textSummary', () => {
  // k6 docs, /using-k6/thresholds/: "If any of the thresholds had failed, the little green checkmark ✓ next to the
  // threshold name … would have been a red cross ✗".
  it('lists each threshold with ✓ or ✗ and the value it was judged on', () => {
    const text = textSummary(run(), { noColor: true });
    expect(text).toContain('█ THRESHOLDS');
    expect(text).toContain("✓ 'p(95)<1500' p(95)=153.2ms");
    expect(text).toContain("✗ 'p(95)<1' p(95)=153.2ms");
    expect(text).toContain("✓ 'rate<0.01' rate=0.00%");
    expect(text).toMatch(/ {4}http_req_duration\{op:x\}\n.*✓ 'avg<1000' avg=138.02ms/);
  });

  it('shows the checks totals and each check, with the pass share of one that failed', () => {
    const text = textSummary(run(), { noColor: true });
    expect(text).toMatch(/checks_total\.+: 6 +2\/s/);
    expect(text).toMatch(/checks_succeeded\.+: 83\.33% 5 out of 6/);
    expect(text).toContain('✓ status is 200');
    expect(text).toContain('█ chat');
    expect(text).toContain('✗ fast');
    expect(text).toContain('↳  66% — ✓ 2 / ✗ 1');
  });

  it('groups metrics into CUSTOM, HTTP, EXECUTION and NETWORK, with sub-metrics indented under their metric', () => {
    const text = textSummary(run(), { noColor: true });
    const at = (s: string) => text.indexOf(s);
    expect(at('CUSTOM')).toBeLessThan(at('HTTP'));
    expect(at('HTTP')).toBeLessThan(at('EXECUTION'));
    expect(at('EXECUTION')).toBeLessThan(at('NETWORK'));
    expect(text).toMatch(/chat_turns\.+: avg=152\.355556/);
    expect(text).toMatch(/ {2}\{ expected_response:true \}\.+: avg=138\.02ms/);
    expect(text).toMatch(/http_reqs\.+: 3 +1\/s/);
    expect(text).toMatch(/http_req_failed\.+: 0\.00% +0 out of 3/);
    expect(text).toMatch(/vus\.+: 1 +min=1 max=1/);
    expect(text).toMatch(/data_received\.+: 519 kB 173 kB\/s/);
  });

  it('hides the HTTP timing phases in compact mode and shows them in full mode', () => {
    expect(textSummary(run(), { noColor: true })).not.toContain('http_req_waiting');
    expect(textSummary(run(), { noColor: true, mode: 'full' })).toContain('http_req_waiting');
  });

  it('uses no colour when asked and colours the marks otherwise', () => {
    expect(textSummary(run(), { noColor: true })).not.toContain('\x1b[');
    expect(textSummary(run())).toContain('\x1b[32m✓\x1b[0m');
  });
});

describe('formatting', () => {
  it('prints bytes in SI units, one decimal below 10', () => {
    expect(formatBytes(519)).toBe('519 B');
    expect(formatBytes(81_000)).toBe('81 kB');
    expect(formatBytes(1_300_000)).toBe('1.3 MB');
  });
});
