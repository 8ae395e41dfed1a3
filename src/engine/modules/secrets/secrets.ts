// `k6/secrets` (/javascript-api/k6-secrets/): "get returns the value of the secret for the provided name from the
// default secret source. If there is no default secret source, there is no secret with that name or some other error
// is returned an exception will thrown." "source returns a secret source for the name provided. The name is defined
// when running k6. The returned object has one method get with the same functionality as the global get."
import { NO_SECRETS, type SecretSources } from '../../secrets.js';

export function secretsModule(_vu: unknown, ctx: { secrets?: SecretSources }) {
  const s = ctx.secrets ?? NO_SECRETS;
  const getter = (sourceName: string | undefined) => (key: string) => {
    if (sourceName === undefined)
      return Promise.reject(
        new Error(
          Object.keys(s.sources).length === 0
            ? 'no secret sources are configured (--secret-source)'
            : 'no default secret source: mark one with default, or use secrets.source(name)',
        ),
      );
    const value = s.sources[sourceName]?.[key];
    if (value === undefined) return Promise.reject(new Error(`no secret '${key}' in the secret source '${sourceName}'`));
    return Promise.resolve(value);
  };
  return {
    get: (key: string) => getter(s.default)(key),
    source(name: string) {
      if (!s.sources[name]) throw new Error(`no secret source named '${name}' (the run has ${Object.keys(s.sources).join(', ') || 'none'})`);
      return { get: getter(name) };
    },
  };
}
