import { describe, expect, it } from 'vitest';
import { hostResolverRules, hostsLookup } from './hosts.js';

// k6's options reference (/using-k6/k6-options/reference/#hosts): "An object with overrides to DNS resolution …
// You can redirect only from or to certain ports … you can use an asterisk (*) as a wild card at the start of the host
// name to avoid repetition. For example, *.k6.io would apply the override for all subdomains of k6.io."
describe('hostsLookup', () => {
  it('sends a named host to an address, keeping the port asked for when the address names none', () => {
    const look = hostsLookup({ 'test.k6.io': '1.2.3.4' });
    expect(look?.('test.k6.io', 443)).toEqual({ host: '1.2.3.4', port: 443 });
    expect(look?.('TEST.k6.io', 80)).toEqual({ host: '1.2.3.4', port: 80 });
    expect(look?.('other.k6.io', 443)).toBeUndefined();
  });

  it('redirects only from a port the key names, and to the port the value names', () => {
    const look = hostsLookup({ 'test.k6.io:443': '1.2.3.4:8443' });
    expect(look?.('test.k6.io', 443)).toEqual({ host: '1.2.3.4', port: 8443 });
    expect(look?.('test.k6.io', 80)).toBeUndefined();
  });

  it('applies a wildcard to every subdomain but not to the bare name, and an exact name first', () => {
    const look = hostsLookup({ '*.k6.io': '1.2.3.4', 'api.k6.io': '5.6.7.8' });
    expect(look?.('test.k6.io', 443)).toEqual({ host: '1.2.3.4', port: 443 });
    expect(look?.('a.b.k6.io', 443)).toEqual({ host: '1.2.3.4', port: 443 });
    expect(look?.('api.k6.io', 443)).toEqual({ host: '5.6.7.8', port: 443 });
    expect(look?.('k6.io', 443)).toBeUndefined();
  });

  it('takes IPv6 addresses with and without a port', () => {
    expect(hostsLookup({ 'v6.test': '[::1]:8080' })?.('v6.test', 80)).toEqual({ host: '::1', port: 8080 });
    expect(hostsLookup({ 'v6.test': '::1' })?.('v6.test', 80)).toEqual({ host: '::1', port: 80 });
  });

  it('asks for nothing when unset or empty, and refuses a value that is no address in one line', () => {
    expect(hostsLookup(undefined)).toBeUndefined();
    expect(hostsLookup({})).toBeUndefined();
    expect(() => hostsLookup({ 'a.test': 42 })).toThrow("options.hosts['a.test'] must be an address (1.2.3.4 or 1.2.3.4:8443)");
    expect(() => hostsLookup(['a'])).toThrow('options.hosts must be an object of host names to addresses');
    expect(() => hostsLookup({ 'a.test': '1.2.3.4:99999' })).toThrow("options.hosts: '1.2.3.4:99999' has no valid port");
  });
});

describe('hostResolverRules', () => {
  it('gives Chromium one MAP rule per override, ports and wildcards kept, and nothing when hosts sets none', () => {
    expect(hostResolverRules({ 'quickpizza.grafana.com:443': '127.0.0.1:8443', '*.k6.io': '1.2.3.4', 'v6.test': '::1' })).toBe(
      '--host-resolver-rules=MAP quickpizza.grafana.com:443 127.0.0.1:8443,MAP *.k6.io 1.2.3.4,MAP v6.test [::1]',
    );
    expect(hostResolverRules({})).toBeUndefined();
    expect(hostResolverRules(undefined)).toBeUndefined();
  });
});
