// k6/http's cookie jars (/using-k6/cookies/, /javascript-api/k6-http/cookiejar/), on tough-cookie (RFC 6265 matching
// of domain, path, expiry and Secure). Each VU has a jar that stores every Set-Cookie and sends what matches; it is
// emptied between iterations unless `noCookiesReset`. `new http.CookieJar()` makes a jar of the script's own, which
// `params.jar` uses for one request instead of the VU's.
import { createRequire } from 'node:module';
import type { CookieJar as ToughJar } from 'tough-cookie';

/** tough-cookie's jar, loaded when a VU first stores a cookie: its public suffix list is slow to load, and most runs store none. */
const toughJar = (() => {
  let made: typeof ToughJar | undefined;
  return () => {
    made ??= (createRequire(import.meta.url)('tough-cookie') as typeof import('tough-cookie')).CookieJar;
    return made;
  };
})();

/** `set()`'s options (/javascript-api/k6-http/cookiejar/cookiejar-set/). */
export interface CookieOptions {
  domain?: string;
  path?: string;
  /** RFC 1123 date. */
  expires?: string;
  max_age?: number;
  secure?: boolean;
  http_only?: boolean;
}

/** A cookie jar as k6 scripts see it. */
export class CookieJar {
  /** Made on first use: most VUs never store a cookie, and a jar per VU is memory each VU would hold for nothing. */
  #made: ToughJar | undefined;
  /** Whether any cookie was ever stored: most runs never set one, and their requests skip the jar. */
  #used = false;
  /** Asked before every use: empties the VU's jar when a new iteration began (the VU's jar only). */
  #beforeUse: (() => void) | undefined;

  #jar(): ToughJar {
    this.#made ??= new (toughJar())(undefined, { looseMode: true });
    return this.#made;
  }

  /** @internal The VU's own jar gets the check that resets it per iteration. */
  static forVu(beforeUse: (jar: CookieJar) => void): CookieJar {
    const jar = new CookieJar();
    jar.#beforeUse = () => beforeUse(jar);
    return jar;
  }

  /** "Set a cookie in the jar by specifying url, name, value and some other optional settings like domain, path, etc." */
  set(url: string, name: string, value: string, options?: CookieOptions | null): void {
    this.#beforeUse?.();
    const o = options ?? {};
    let line = `${name}=${value}`;
    if (o.domain) line += `; Domain=${o.domain}`;
    if (o.path) line += `; Path=${o.path}`;
    if (o.expires) line += `; Expires=${o.expires}`;
    if (o.max_age !== undefined) line += `; Max-Age=${o.max_age}`;
    if (o.secure) line += '; Secure';
    if (o.http_only) line += '; HttpOnly';
    this.store(line, url);
  }

  /** "Returns an object with the cookies for the given URL": each name with its values. */
  cookiesForURL(url: string): Record<string, string[]> {
    this.#beforeUse?.();
    const out: Record<string, string[]> = {};
    if (!this.#used) return out;
    for (const c of this.#jar().getCookiesSync(url)) {
      const values = out[c.key] ?? [];
      values.push(c.value);
      out[c.key] = values;
    }
    return out;
  }

  /** "Delete all cookies for the given URL." */
  clear(url: string): void {
    this.#beforeUse?.();
    if (!this.#used) return;
    for (const c of this.#jar().getCookiesSync(url)) this.#expire(c.key, c.domain, c.path, url);
  }

  /** "Deletes the name cookie for the given URL." */
  delete(url: string, name: string): void {
    this.#beforeUse?.();
    if (!this.#used) return;
    for (const c of this.#jar().getCookiesSync(url)) if (c.key === name) this.#expire(c.key, c.domain, c.path, url);
  }

  /** @internal Stores a Set-Cookie line received from (or set for) `url`; a malformed one is ignored, as browsers do. */
  store(line: string, url: string): void {
    this.#beforeUse?.();
    this.#used = true;
    try {
      this.#jar().setCookieSync(line, url);
    } catch (e) {
      // RFC 6265, 5.3 step 5: a Domain that is a public suffix and "identical to the canonicalized request-host" makes a
      // host-only cookie (Go's cookiejar, which k6 uses, does so); tough-cookie refuses it instead. Anything else
      // unparsable stores nothing.
      const domain = /;\s*domain=\.?([^;\s]*)/i.exec(line)?.[1]?.toLowerCase();
      if (!/public suffix/i.test(String((e as Error)?.message)) || !domain || domain !== hostOf(url)) return;
      try {
        this.#jar().setCookieSync(line.replace(/;\s*domain=[^;]*/gi, ''), url, { ignoreError: true });
      } catch {
        // Unparsable after all: nothing stored.
      }
    }
  }

  /** @internal The Cookie header's value for a request to `url`, or '' when nothing matches. */
  headerFor(url: string): string {
    this.#beforeUse?.();
    if (!this.#used) return '';
    try {
      return this.#jar().getCookieStringSync(url);
    } catch {
      return '';
    }
  }

  /** @internal Empties the jar (the VU's, between iterations). */
  reset(): void {
    this.#made = undefined;
    this.#used = false;
  }

  #expire(name: string, domain: string | null, path: string | null, url: string): void {
    let line = `${name}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    if (domain) line += `; Domain=${domain}`;
    if (path) line += `; Path=${path}`;
    try {
      this.#jar().setCookieSync(line, url, { ignoreError: true });
    } catch {
      // Nothing to remove.
    }
  }
}

/** `params.cookies`: a value, or `{ value, replace }` to override a cookie of the jar with the same name. */
export type RequestCookies = Record<string, string | number | boolean | { value: unknown; replace?: boolean }>;

/**
 * The Cookie header of one request: the jar's cookies for `url`, then `params.cookies`, which are sent with this request
 * only ("request-scoped"); one with `replace: true` takes the place of the jar's cookie of that name.
 *
 * @example
 * cookieHeader(jar, 'https://x.test/a', { session: { value: 'abc', replace: true }, extra: '1' }); // 'session=abc; extra=1'
 */
export function cookieHeader(jar: CookieJar | undefined, url: string, extra: RequestCookies | null | undefined): string {
  const fromJar = jar ? jar.headerFor(url) : '';
  if (!extra) return fromJar;
  const replaced = new Set<string>();
  const own: string[] = [];
  for (const [name, v] of Object.entries(extra)) {
    if (v !== null && typeof v === 'object') {
      if (v.replace) replaced.add(name);
      own.push(`${name}=${String(v.value)}`);
    } else own.push(`${name}=${String(v)}`);
  }
  const kept = fromJar ? fromJar.split('; ').filter((pair) => !replaced.has(pair.slice(0, pair.indexOf('=')))) : [];
  return [...kept, ...own].join('; ');
}

/** The lower-cased host of `url`, or undefined when it is no URL. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
