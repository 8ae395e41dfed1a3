// k6's `hosts` option (/using-k6/k6-options/reference/#hosts): "An object with overrides to DNS resolution, similar to
// what you can do with /etc/hosts". A key is a host name, or a host name and port ("redirect only from or to certain
// ports"), and may start with an asterisk ("*.k6.io would apply the override for all subdomains of k6.io"); a value is
// an address, or an address and port. The URL keeps its host: the Host header and the TLS server name do not change,
// only where the connection goes.

/** Where a connection to a host and port goes instead. */
export interface Redirect {
  readonly host: string;
  readonly port: number;
}

/** Looks up a host and port; undefined when no override applies. */
export type HostsLookup = (hostname: string, port: number) => Redirect | undefined;

/** Splits `name:port` (or `[v6]:port`) into its parts; no port is undefined. */
function splitHostPort(s: string): { host: string; port: number | undefined } {
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(s);
  if (v6) return { host: v6[1] as string, port: v6[2] === undefined ? undefined : Number(v6[2]) };
  const colon = s.lastIndexOf(':');
  // A bare IPv6 address has several colons and no port.
  if (colon < 0 || s.indexOf(':') !== colon) return { host: s, port: undefined };
  const port = s.slice(colon + 1);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) throw new Error(`options.hosts: '${s}' has no valid port`);
  return { host: s.slice(0, colon), port: Number(port) };
}

/**
 * The lookup `options.hosts` describes, or undefined when it sets none. Throws a one-line error for a value that is
 * not a string. Exact names go before wildcards, and a rule that names the port before one that does not.
 *
 * @example
 * const look = hostsLookup({ 'quickpizza.grafana.com': '127.0.0.1:8443' });
 * look?.('quickpizza.grafana.com', 443); // { host: '127.0.0.1', port: 8443 }
 */
export function hostsLookup(hosts: unknown): HostsLookup | undefined {
  if (hosts === undefined || hosts === null) return undefined;
  if (typeof hosts !== 'object' || Array.isArray(hosts)) throw new Error('options.hosts must be an object of host names to addresses');
  const exact = new Map<string, { host: string; port: number | undefined }>();
  const wild: { suffix: string; port: number | undefined; to: { host: string; port: number | undefined } }[] = [];
  for (const [key, value] of Object.entries(hosts as Record<string, unknown>)) {
    if (typeof value !== 'string' || value === '') throw new Error(`options.hosts['${key}'] must be an address (1.2.3.4 or 1.2.3.4:8443)`);
    const from = splitHostPort(key.toLowerCase());
    const to = splitHostPort(value);
    if (from.host.startsWith('*')) wild.push({ suffix: from.host.slice(1), port: from.port, to });
    else exact.set(from.port === undefined ? from.host : `${from.host}:${from.port}`, to);
  }
  if (exact.size === 0 && wild.length === 0) return undefined;
  // Longer wildcards are more specific; within one, a port-bound rule first.
  wild.sort((a, b) => b.suffix.length - a.suffix.length || Number(b.port !== undefined) - Number(a.port !== undefined));
  return (hostname, port) => {
    const name = hostname.toLowerCase();
    const to =
      exact.get(`${name}:${port}`) ??
      exact.get(name) ??
      wild.find((w) => name.endsWith(w.suffix) && name.length > w.suffix.length && (w.port === undefined || w.port === port))?.to;
    return to ? { host: to.host, port: to.port ?? port } : undefined;
  };
}

/**
 * options.hosts as Chromium's --host-resolver-rules, as k6's browser module passes them ("the k6 hosts option in
 * k6-browser uses Chromium's --host-resolver-rules", xk6-browser#811); undefined when it sets none. Chromium matches a
 * rule's pattern against the host and against host:port, with * as a glob.
 *
 * @example
 * hostResolverRules({ 'quickpizza.grafana.com:443': '127.0.0.1:8443' }); // '--host-resolver-rules=MAP quickpizza.grafana.com:443 127.0.0.1:8443'
 */
export function hostResolverRules(hosts: unknown): string | undefined {
  if (!hostsLookup(hosts)) return undefined;
  const rules = Object.entries(hosts as Record<string, string>).map(([from, to]) => {
    const t = splitHostPort(to);
    const host = t.host.includes(':') ? `[${t.host}]` : t.host;
    return `MAP ${from.toLowerCase()} ${host}${t.port === undefined ? '' : `:${t.port}`}`;
  });
  return `--host-resolver-rules=${rules.join(',')}`;
}
