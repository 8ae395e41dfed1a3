import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSecretSources, REDACTED, redactor } from './secrets.js';

describe('--secret-source', () => {
  // /using-k6/secret-source/mock/: `--secret-source=mock=default,cool="cool secret" --secret-source=mock=name=another,cool="not cool secret"`.
  it("reads the mock page's two sources: the default one and one named 'another'", () => {
    const s = loadSecretSources(['mock=default,cool="cool secret"', 'mock=name=another,cool="not cool secret"']);
    expect(s.default).toBe('default');
    expect(s.sources).toEqual({ default: { cool: 'cool secret' }, another: { cool: 'not cool secret' } });
  });

  // /using-k6/secret-source/file/: "Each line in the file contains one secret in key=value format".
  it('reads a key=value file given alone or as filename=, named and made the default; a value may hold =', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-secrets-'));
    writeFileSync(join(dir, 's.file'), 'secret=very secret\n\nsomeotherkey=a=b\n');
    expect(loadSecretSources(['file=s.file'], dir)).toEqual({ sources: { default: { secret: 'very secret', someotherkey: 'a=b' } }, default: 'default' });
    const named = loadSecretSources(['file=name=all,filename=s.file', 'mock=name=x,k=v'], dir);
    expect(named.default).toBeUndefined();
    expect(Object.keys(named.sources)).toEqual(['all', 'x']);
    expect(loadSecretSources(['file=name=all,filename=s.file,default'], dir).default).toBe('all');
    // The only source is the default one, named or not.
    expect(loadSecretSources(['mock=name=only,k=v']).default).toBe('only');
  });

  it('refuses an unknown kind, a line that is not key=value, two sources of one name and two defaults, in one line each', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-secrets-'));
    writeFileSync(join(dir, 'bad.file'), 'ok=1\nnot a pair\n');
    expect(() => loadSecretSources(['vault=x'])).toThrow("unknown kind 'vault'");
    expect(() => loadSecretSources(['file=bad.file'], dir)).toThrow('bad.file:2 is not key=value');
    expect(() => loadSecretSources(['mock=name=a,k=v', 'mock=name=a,k=w'])).toThrow("two sources named 'a'");
    expect(() => loadSecretSources(['mock=default,k=v', 'mock=name=b,default,k=w'])).toThrow('two default sources');
  });

  it('redacts every value, the longer first, and leaves a text without secrets as it is', () => {
    const r = redactor(loadSecretSources(['mock=a=some,b=some more']));
    expect(r('some more and some; none')).toBe(`${REDACTED} and ${REDACTED}; none`);
    expect(redactor(loadSecretSources([]))('some')).toBe('some');
  });
});
