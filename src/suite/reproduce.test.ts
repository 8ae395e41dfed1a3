import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlFor, shellWord } from './reproduce.js';

const exchange = {
  method: 'POST',
  url: 'http://127.0.0.1:1234/v1/a/p/chat/create',
  requestHeaders: { 'X-API-KEY': 'secret-key-1', 'Content-Type': 'application/json', 'Content-Length': '2' },
  requestBody: '{"note":"it\'s secret-key-1"}',
  status: 200,
  responseHeaders: {},
  responseBody: '{}',
  ms: 1,
};

describe('curlFor', () => {
  it('replaces a secret header value with its environment variable, outside the single quotes', () => {
    const line = curlFor(exchange, { CHAT_KEY: 'secret-key-1' });
    expect(line).toContain(`-H 'X-API-KEY: '"$CHAT_KEY"`);
    expect(line).not.toContain('secret-key-1');
  });

  it('leaves other headers single-quoted and drops Content-Length', () => {
    const line = curlFor(exchange, {});
    expect(line).toContain("-H 'Content-Type: application/json'");
    expect(line).not.toContain('Content-Length');
  });

  it('quotes a body with a single quote so the shell keeps it whole', () => {
    const line = curlFor({ ...exchange, requestHeaders: {}, requestBody: `{"a":"it's"}` }, {});
    expect(line).toContain(`--data-raw '{"a":"it'\\''s"}'`);
  });

  it('single-quotes the literal parts of a body that holds a secret', () => {
    expect(shellWord('a $HOME b abcd1234 c', { K: 'abcd1234' })).toBe(`'a $HOME b '"$K"' c'`);
  });
});

describe('a reproduce line pasted into bash', () => {
  let received: { headers: Record<string, unknown>; body: string }[] = [];
  let url = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end('{}');
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('sends exactly the recorded body and the secret from the environment, with $, backticks and quotes left alone', async () => {
    received = [];
    const secret = 's3cr3t-$(touch /tmp/pwned)-value';
    const body = `{"text":"$HOME \`id\` it's \\"quoted\\" ${secret} !! \\\\ end"}`;
    const line = curlFor(
      { ...exchange, url, requestHeaders: { 'X-API-KEY': secret, 'Content-Type': 'application/json' }, requestBody: body },
      { THE_KEY: secret },
    );
    expect(line).not.toContain(secret);
    // Async: the server answering curl lives in this process, so its event loop must keep running.
    await promisify(execFile)('bash', ['-c', line], { env: { PATH: process.env.PATH, HOME: '/nonexistent-home', THE_KEY: secret }, timeout: 20_000 });
    expect(received).toHaveLength(1);
    expect(received[0]?.body).toBe(body);
    expect(received[0]?.headers['x-api-key']).toBe(secret);
  });
});
