import { describe, expect, it } from 'vitest';
import { ConnectorRegistry, hostMatches } from './connectors.js';

describe('X-Host matching', () => {
  it('matches the registered domain itself, in any case and with a trailing dot', () => {
    expect(hostMatches('app.dialtone.test', 'app.dialtone.test')).toBe(true);
    expect(hostMatches('app.dialtone.test', 'APP.Dialtone.test.')).toBe(true);
  });

  it('matches a subdomain at any depth', () => {
    expect(hostMatches('app.dialtone.test', 'eu.app.dialtone.test')).toBe(true);
    expect(hostMatches('app.dialtone.test', 'a.b.app.dialtone.test')).toBe(true);
  });

  it('does not match a look-alike that only ends with the same letters', () => {
    expect(hostMatches('app.dialtone.test', 'myapp.dialtone.test')).toBe(false);
    expect(hostMatches('app.dialtone.test', 'dialtone.test')).toBe(false);
    expect(hostMatches('app.dialtone.test', 'app.dialtone.test.evil')).toBe(false);
  });

  it('never matches an empty value', () => {
    expect(hostMatches('app.dialtone.test', '')).toBe(false);
    expect(hostMatches('', 'app.dialtone.test')).toBe(false);
  });

  it('has the two defective modes the defects use', () => {
    expect(hostMatches('app.dialtone.test', 'eu.app.dialtone.test', 'exact-only')).toBe(false);
    expect(hostMatches('app.dialtone.test', 'myapp.dialtone.test', 'suffix-only')).toBe(true);
  });
});

describe('the connector registry', () => {
  it('finds a connector by its token and by its id, and forgets a removed one', () => {
    const registry = new ConnectorRegistry();
    const c = registry.register({ token: 'dt_x', hostDomain: 'a.test' });
    expect(registry.byToken('dt_x')).toBe(c);
    expect(registry.byId(c.id)).toBe(c);
    expect(registry.remove('dt_x')).toBe(true);
    expect(registry.byToken('dt_x')).toBeUndefined();
  });

  it('generates distinct tokens and enables handoff unless told otherwise', () => {
    const registry = new ConnectorRegistry();
    const a = registry.register({ hostDomain: undefined });
    const b = registry.register({ hostDomain: 'b.test', handoff: false });
    expect(a.token).not.toBe(b.token);
    expect(a.handoff).toBe(true);
    expect(b.handoff).toBe(false);
  });
});
