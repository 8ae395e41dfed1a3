// Every command that sends load refuses a profile whose environment is live unless told --allow-live, in one line with
// exit 2, before it connects to anything: the profile points at a server of the test's own that counts connections.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialtoneInProcess as dialtone } from './in-process-cli.js';
import type { CliResult } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dialtone-live-'));
const env = { DIALTONE_TEST_KEY: 'k-123456', DIALTONE_TEST_TOKEN: 't-123456' };
let server: Server;
let connections = 0;
let live: string;

beforeAll(async () => {
  // Any connection at all is counted: a probe, a load, a TLS handshake. Each is closed at once.
  server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  live = join(dir, 'prod-eu.json');
  writeFileSync(
    live,
    JSON.stringify({
      name: 'prod-eu',
      environment: 'live',
      region: 'euw-1',
      hosts: { base_url: base, messaging_url: base },
      account_id: 'acme',
      project_id: 'support',
      credentials: { chat_api_key: { env: 'DIALTONE_TEST_KEY' }, chat_connector_token: { env: 'DIALTONE_TEST_TOKEN' } },
    }),
  );
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

/** A refusal: exit 2, one line on stderr and no stack trace, nothing on stdout. */
function expectRefusal(r: CliResult): string {
  expect(r.code).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stdout).toBe('');
  return lines[0] as string;
}

describe('a live profile without --allow-live', () => {
  it.each([
    ['load', ['load', 'chat-turns', '--target', '%'], "dialtone: refusing a load run against the live environment of '%'; pass --allow-live"],
    ['capacity', ['capacity', 'chat-turns', '--target', '%'], "dialtone: refusing a capacity search against the live environment of '%'; pass --allow-live"],
    [
      'k6-operator',
      ['k6-operator', 'chat-turns', '--target', '%', '--parallelism', '2', '--out-dir', '@k6-operator'],
      "dialtone: k6-operator: refusing manifests for a load run against the live environment of '%'; pass --allow-live",
    ],
    [
      'k8s-job',
      ['k8s-job', 'chat-turns', '--target', '%', '--parallelism', '2', '--out-dir', '@k8s-job'],
      "dialtone: k8s-job: refusing a load run against the live environment of '%'; pass --allow-live",
    ],
  ])('is refused by %s in one line naming --allow-live, exit 2, with no connection made', async (_, args, said) => {
    const r = await dialtone(
      args.map((a) => (a === '%' ? live : a.startsWith('@') ? join(dir, a.slice(1)) : a)),
      { env },
    );
    expect(expectRefusal(r)).toBe(`${said.replaceAll('%', live)} to do it on purpose`);
    expect(connections).toBe(0);
    expect(existsSync(join(dir, 'k6-operator'))).toBe(false);
    expect(existsSync(join(dir, 'k8s-job'))).toBe(false);
  });

  it('is refused by conformance --under-load, naming the flag that command takes, before the target is probed', async () => {
    const r = await dialtone(['conformance', '--target', live, '--under-load', 'chat-turns@5'], { env });
    expect(expectRefusal(r)).toBe(
      `dialtone: conformance: refusing a gate under load against the live environment of '${live}'; the gate without --under-load sends none`,
    );
    expect(r.stderr).not.toContain('--allow-live');
    expect(connections).toBe(0);
  });

  it('is written into manifests by k6-operator when --allow-live is given, still without a connection', async () => {
    const out = join(dir, 'allowed');
    const r = await dialtone(['k6-operator', 'chat-turns', '--target', live, '--parallelism', '2', '--out-dir', out, '--allow-live'], { env });
    expect(r.code).toBe(0);
    expect(existsSync(join(out, 'testrun.yaml'))).toBe(true);
    expect(connections).toBe(0);
  }, 60_000);
});
