import { describe, expect, it } from 'vitest';
import { curlFor } from './reproduce.js';

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
  it('replaces a secret header value with its environment variable', () => {
    const line = curlFor(exchange, { CHAT_KEY: 'secret-key-1' });
    expect(line).toContain('-H "X-API-KEY: $CHAT_KEY"');
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
});
