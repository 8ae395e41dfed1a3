import { describe, expect, it } from 'vitest';
import { CookieJar } from './cookies.js';

// RFC 6265, 5.3 step 5: "If the domain-attribute is a public suffix: If the domain-attribute is identical to the
// canonicalized request-host: Let the domain-attribute be the empty string. Otherwise: Ignore the cookie entirely."
// k6's cookies.js example sets Domain=httpbin.org (a public suffix) for httpbin.org and expects it sent.
describe('the cookie jar', () => {
  it('keeps a cookie whose Domain is a public suffix equal to the request host, as a host-only cookie', () => {
    const jar = CookieJar.forVu(() => {});
    jar.set('http://httpbin.org/cookies', 'name9', 'value9', { domain: 'httpbin.org', path: '/cookies' });
    expect(jar.cookiesForURL('http://httpbin.org/cookies')).toEqual({ name9: ['value9'] });
    expect(jar.cookiesForURL('http://sub.httpbin.org/cookies')).toEqual({});
  });

  it('ignores a cookie that names a public suffix from another host', () => {
    const jar = CookieJar.forVu(() => {});
    jar.set('http://a.httpbin.org/', 'wide', '1', { domain: 'httpbin.org' });
    expect(jar.cookiesForURL('http://a.httpbin.org/')).toEqual({});
    expect(jar.cookiesForURL('http://b.httpbin.org/')).toEqual({});
  });
});
