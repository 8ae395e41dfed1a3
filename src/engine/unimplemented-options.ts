// k6 options the built-in engine does not carry out, each with what k6's options reference says it does
// (/using-k6/k6-options/reference/). A script that sets one runs, as k6 would, but not as the option asks: the engine
// says so once at the start instead of leaving the difference to be found in the results.

/** Option name → what it does in k6, in the reference's words. */
const UNIMPLEMENTED: Readonly<Record<string, string>> = {
  rps: 'the maximum number of requests to make per second',
  dns: 'DNS resolution behavior',
  noConnectionReuse: 'disabling keep-alive connections',
  noVUConnectionReuse: 'not reusing TCP connections between iterations of a VU',
  localIPs: 'the IPs from which VUs make requests',
  blacklistIPs: 'IP ranges that must not be called',
  blockHostnames: 'hostnames whose requests are blocked',
  tlsAuth: 'TLS client certificates',
  tlsCipherSuites: 'the cipher suites allowed in TLS',
  httpDebug: 'logging every HTTP request and response',
  systemTags: 'which system tags the metrics carry',
  setupTimeout: 'how long setup() may run before it is stopped',
  teardownTimeout: 'how long teardown() may run before it is stopped',
};

/** What each warning says after naming its option. */
const NOT_CARRIED_OUT = 'is not implemented by the built-in engine and has no effect; k6 itself carries it out (--engine k6)';

/** An option counts as set when it asks for something: not unset, false, null, or an empty list or object. */
function isSet(v: unknown): boolean {
  if (v === undefined || v === null || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

/**
 * A warning line for each option the script sets that the built-in engine does not carry out, in the table's order.
 *
 * @example
 * unimplementedOptions({ rps: 10, vus: 5 })
 * // ['options.rps (the maximum number of requests to make per second) is not implemented by the built-in engine …']
 */
export function unimplementedOptions(options: Readonly<Record<string, unknown>>): string[] {
  return Object.entries(UNIMPLEMENTED)
    .filter(([name]) => isSet(options[name]))
    .map(([name, what]) => `options.${name} (${what}) ${NOT_CARRIED_OUT}`);
}
