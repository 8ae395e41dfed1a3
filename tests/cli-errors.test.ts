import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialtoneInProcess as dialtone } from './in-process-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dialtone-cli-'));
const file = (name: string, content: unknown) => {
  const p = join(dir, name);
  writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
  return p;
};
const goodProfile = {
  name: 'unreachable',
  environment: 'sandbox',
  region: 'us-1',
  hosts: { base_url: 'http://127.0.0.1:9' },
  account_id: 'acme',
  project_id: 'support',
  credentials: { chat_api_key: { env: 'DIALTONE_TEST_KEY' }, chat_connector_token: { env: 'DIALTONE_TEST_TOKEN' } },
};
const env = { DIALTONE_TEST_KEY: 'k-123456', DIALTONE_TEST_TOKEN: 't-123456' };

/** Every expected failure is one line on stderr, no stack trace. */
function expectOneLine(stderr: string): void {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('dialtone on bad input', () => {
  it('exits 2 with one line naming the field when a profile host is not a URL', async () => {
    const p = file('bad-host.json', { ...goodProfile, hosts: { base_url: 'not a url' } });
    const r = await dialtone(['conformance', '--target', p], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hosts.base_url');
    expectOneLine(r.stderr);
  });

  it('exits 2 with every mistake of a profile in one block, each with what was expected and what was found', async () => {
    const { account_id: _, ...rest } = goodProfile;
    const p = file('three.json', { ...rest, environment: 'prod', hosts: { base_url: 'api.example.test' }, acount_id: 'acme' });
    const r = await dialtone(['load', 'chat-turns', '--target', p], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        `dialtone: ${p}: 4 problems:`,
        "  environment: expected one of sandbox, pre-release, live, found 'prod'",
        "  hosts.base_url: must be an http(s) URL, found 'api.example.test'",
        '  account_id: expected a string, found nothing (the field is required)',
        "  acount_id: expected 'account_id' at the top level, found 'acount_id'",
        '',
      ].join('\n'),
    );
  });

  it('exits 2 naming the file when the profile is not JSON', async () => {
    const p = file('broken.json', '{ "name": ');
    const r = await dialtone(['conformance', '--target', p], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not valid JSON');
    expectOneLine(r.stderr);
  });

  it('exits 2 when the profile file does not exist', async () => {
    const r = await dialtone(['conformance', '--target', join(dir, 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('profile not found');
    expectOneLine(r.stderr);
  });

  it('exits 2 naming the variable when a credential reference is not set', async () => {
    const p = file('unset.json', goodProfile);
    const r = await dialtone(['conformance', '--target', p], { env: { DIALTONE_TEST_KEY: 'x-123456' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('DIALTONE_TEST_TOKEN');
    expectOneLine(r.stderr);
  });

  it('rejects an inline secret in a profile as an unknown field', async () => {
    const p = file('inline.json', { ...goodProfile, credentials: { chat_api_key: 'sk-inline' } });
    const r = await dialtone(['conformance', '--target', p]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('credentials.chat_api_key');
    expect(r.stderr).not.toContain('sk-inline');
  });

  it('exits 3 within a bounded time when the target is unreachable', async () => {
    const p = file('unreachable.json', goodProfile);
    const r = await dialtone(['conformance', '--target', p], { env, timeoutMs: 30_000 });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('target unreachable');
    expectOneLine(r.stderr);
  });

  it('exits 2 and lists the known scenarios for an unknown scenario', async () => {
    const r = await dialtone(['load', 'no-such-scenario']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('chat-turns');
    expectOneLine(r.stderr);
  });

  it('exits 2 and lists the known workloads for an unknown one', async () => {
    const r = await dialtone(['load', 'chat-turns', '--workload', 'huge']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('smoke, nightly, capacity');
  });

  it('exits 2 and lists the known defects for an unknown defect id', async () => {
    const r = await dialtone(['conformance', '--defect', 'no-such-defect']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('chat-close-success-false');
    expectOneLine(r.stderr);
  });

  it('exits 2 for an unknown flag and an unknown command', async () => {
    const flag = await dialtone(['conformance', '--colour']);
    expect(flag.code).toBe(2);
    expectOneLine(flag.stderr);
    const command = await dialtone(['deploy']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain(
      "dialtone: unknown command 'deploy'; commands: start, target, conformance, load, capacity, merge, slos, verdict, traffic, rules, contract, init",
    );
  });

  it('exits 2 with one line for a rule id the catalogue does not hold, and walks one it does', async () => {
    const unknown = await dialtone(['rules', '--explain', 'chat.close.no-such-rule']);
    expect(unknown.code).toBe(2);
    expectOneLine(unknown.stderr);
    expect(unknown.stderr).toContain("no rule 'chat.close.no-such-rule'");
    const known = await dialtone(['rules', '--explain', 'chat.close.success-true']);
    expect(known.code).toBe(0);
    expect(known.stdout).toContain('conformance/chat/close.test.ts:');
  });

  it('refuses a load run against a live profile unless --allow-live is given', async () => {
    const p = file('live.json', { ...goodProfile, environment: 'live' });
    const r = await dialtone(['load', 'chat-turns', '--target', p], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--allow-live');
  });
});

describe('a gate that would check nothing, or could not report', () => {
  it('exits 2 with one line when --only selects no rule, before starting anything', async () => {
    const r = await dialtone(['conformance', '--only', 'nomatch.*']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--only 'nomatch.*' selects no rule");
    expect(r.stdout).not.toContain('gate:');
    expectOneLine(r.stderr);
  });

  it('exits 2 before running when --report-dir is a file', async () => {
    const f = file('a-file', 'not a directory');
    const r = await dialtone(['conformance', '--only', 'chat.close.*', '--report-dir', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--report-dir: ${f} is a file, not a directory`);
    expect(r.stdout).not.toContain('conformance against');
    expectOneLine(r.stderr);
  });

  it('exits 2 before running when --report-dir cannot be made', async () => {
    const f = file('another-file', 'x');
    const r = await dialtone(['load', 'chat-turns', '--report-dir', join(f, 'reports')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--report-dir: cannot write to');
    expectOneLine(r.stderr);
  });

  it('exits 2 naming tls.ca_file when the profile names a CA file that does not exist', async () => {
    const p = file('tls.json', { ...goodProfile, tls: { ca_file: 'no-such-ca.pem' } });
    const r = await dialtone(['conformance', '--target', p], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('tls.ca_file: cannot read');
    expectOneLine(r.stderr);
  });
});

describe('dialtone load flags', () => {
  it('says a negative --rate must be positive, rather than that the argument is ambiguous', async () => {
    const r = await dialtone(['load', 'chat-turns', '--rate', '-5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("dialtone: load: --rate: expected a whole number, 1 or more, got '-5'");
    expectOneLine(r.stderr);
  });

  it('exits 2 for a --rate that is not a positive integer', async () => {
    const r = await dialtone(['load', 'chat-turns', '--rate', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('dialtone: load: --rate: expected a whole number, 1 or more');
    expectOneLine(r.stderr);
  });

  it('refuses a --rate between whole numbers saying what it takes', async () => {
    const r = await dialtone(['load', 'chat-turns', '--rate', '2.5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--rate: expected a whole number, 1 or more, got '2.5'");
    expectOneLine(r.stderr);
  });

  it('exits 2 for a --duration k6 would not understand', async () => {
    const r = await dialtone(['load', 'chat-turns', '--duration', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--duration: expected a duration such as 30s, 5m or 1h');
  });
});

describe('the --engine flag', () => {
  /** An environment with no k6 anywhere: an empty PATH and no DIALTONE_K6. */
  const noK6 = { PATH: mkdtempSync(join(tmpdir(), 'dialtone-no-k6-')), DIALTONE_K6: '', DIALTONE_ENGINE: '' };

  it('exits 2 with one line for an engine that is not auto, k6 or builtin, on load, capacity and conformance', async () => {
    for (const [command, args] of [
      ['load', ['load', 'chat-turns']],
      ['capacity', ['capacity', 'chat-turns']],
      ['conformance', ['conformance', '--under-load', 'chat-turns@5']],
    ] as const) {
      const r = await dialtone([...args, '--engine', 'v8']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim()).toBe(`dialtone: ${command}: --engine: expected auto, k6 or builtin, got 'v8'`);
    }
    const env = await dialtone(['load', 'chat-turns'], { env: { DIALTONE_ENGINE: 'v8' } });
    expect(env.code).toBe(2);
    expect(env.stderr.trim()).toBe("dialtone: DIALTONE_ENGINE must be auto, k6 or builtin, got 'v8'");
    const alone = await dialtone(['conformance', '--engine', 'builtin']);
    expect(alone.code).toBe(2);
    expectOneLine(alone.stderr);
  });

  it('exits 3 with one line saying how to install k6 when --engine k6 finds none, before starting anything', async () => {
    const reportDir = mkdtempSync(join(tmpdir(), 'dialtone-engine-k6-'));
    for (const args of [
      ['load', 'chat-turns', '--report-dir', reportDir],
      ['capacity', 'chat-turns', '--report-dir', reportDir],
    ]) {
      const r = await dialtone([...args, '--engine', 'k6'], { env: noK6 });
      expect(r.code, r.stderr).toBe(3);
      expectOneLine(r.stderr);
      expect(r.stderr).toContain('https://grafana.com/docs/k6/latest/set-up/install-k6/');
      expect(r.stderr).toContain('--engine builtin');
      expect(r.stdout).toBe('');
    }
  });

  it('refuses a k6 output the built-in engine does not write, naming --engine k6', async () => {
    const r = await dialtone(['load', 'chat-turns', '--engine', 'builtin', '--out', 'cloud']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "dialtone: load: --out 'cloud' is a k6 output the built-in engine does not write " +
        '(it writes json, csv, experimental-prometheus-rw, influxdb, opentelemetry, experimental-opentelemetry): use --engine k6',
    );
  });
});

describe('a flag that does nothing on the chosen engine', () => {
  it("says in one line that the live dashboard's port is taken, naming the variable that moves it (exit 3)", async () => {
    // k6: "By default, the web dashboard is available on localhost port 5665. You can change the host and port by
    // using the dashboard options" (/results-output/web-dashboard/).
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as AddressInfo).port;
    try {
      const r = await dialtone(['load', 'chat-turns', '--engine', 'builtin', '--dashboard'], { env: { K6_WEB_DASHBOARD_PORT: String(port) } });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr.trim()).toBe(`dialtone: dashboard: 127.0.0.1:${port} is taken; set K6_WEB_DASHBOARD_PORT to another port (0: any free one, -1: none)`);
    } finally {
      taken.close();
    }
  });

  it('refuses --dashboard on the gate without --under-load, whose load it shows', async () => {
    const r = await dialtone(['conformance', '--dashboard']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('dialtone: conformance: --dashboard shows the load of --under-load; give --under-load SCENARIO@RATE');
  });

  it("refuses --max-start-lag on k6, which reports no iteration start lag (a stand-in k6 that only answers 'version')", async () => {
    const k6 = join(mkdtempSync(join(tmpdir(), 'dialtone-fake-k6-')), 'k6');
    writeFileSync(k6, '#!/bin/sh\necho "k6 v2.2.0 (go1.25.1, linux/amd64)"\n', { mode: 0o755 });
    const r = await dialtone(['load', 'chat-turns', '--engine', 'k6', '--max-start-lag', '50'], { env: { DIALTONE_K6: k6 } });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim()).toBe(
      "dialtone: load: --max-start-lag judges the built-in engine's iteration_start_lag, which k6 does not report: use --engine builtin",
    );
  });
});

describe('dialtone target --retain and --retain-age', () => {
  it('exits 2 with one line naming the flag or the variable for a bad bound, before it starts', async () => {
    const out = join(dir, 'never-retain.json');
    const cases: [string[], Record<string, string>, string][] = [
      [['--retain', '0'], {}, "--retain must be a positive whole number, got '0'"],
      [['--retain-age', '30'], {}, "--retain-age must be a positive duration such as 90s, 30m or 2h, got '30'"],
      [[], { DIALTONE_TARGET_RETAIN: 'lots' }, "DIALTONE_TARGET_RETAIN must be a positive whole number, got 'lots'"],
      [[], { DIALTONE_TARGET_RETAIN_AGE: 'soon' }, "DIALTONE_TARGET_RETAIN_AGE must be a positive duration such as 90s, 30m or 2h, got 'soon'"],
    ];
    for (const [flags, env, message] of cases) {
      const r = await dialtone(['target', '--profile-out', out, ...flags], { env });
      expect([r.code, r.stderr]).toEqual([2, `dialtone: target: ${message}\n`]);
    }
    expect(existsSync(out)).toBe(false);
  });
});

// The search's own flags, refused before any target or step starts (so not timing-sensitive).
describe('dialtone capacity flags', () => {
  it.each([
    [['capacity', 'chat-turns', '--capacity', 'chat=0'], "dialtone: capacity: --capacity: chat needs a rate above 0, got '0'"],
    [['capacity', 'chat-turns', '--capacity', 'nope=5'], "dialtone: capacity: --capacity: unknown surface 'nope'; known surfaces: "],
    [['capacity', 'chat-turns', '--step', '5s', '--warmup', '5s'], 'dialtone: capacity: --warmup (5s) must be shorter than --step (5s)'],
    [['capacity', 'chat-turns', '--factor', '1'], "dialtone: capacity: --factor: expected a number above 1, got '1'"],
    [['capacity'], 'dialtone: capacity: name a scenario, e.g. dialtone capacity chat-turns'],
  ])('refuses %j with one line and exit code 2', async (args, text) => {
    const r = await dialtone(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(text);
  });

  it('refuses the closed model for a scenario without one, and a message rate without it, in one line with exit 2', async () => {
    const chat = await dialtone(['capacity', 'chat-turns', '--model', 'closed']);
    expect(chat.code).toBe(2);
    expect(chat.stderr.trim()).toBe('dialtone: capacity: chat-turns has no closed model (--model closed): only arrival rates are searched for it');
    const rate = await dialtone(['capacity', 'messaging-sockets', '--message-rate', '2']);
    expect(rate.code).toBe(2);
    expect(rate.stderr.trim()).toBe('dialtone: capacity: --message-rate needs --model closed');
  });
});
