// `k6/browser` (/javascript-api/k6-browser/, /using-k6-browser/metrics/) on playwright-core driving the system Chromium,
// found on PATH (browser-path.ts) unless K6_BROWSER_EXECUTABLE_PATH names one (K6_BROWSER_ARGS, K6_BROWSER_HEADLESS,
// K6_BROWSER_TIMEOUT too, as k6 reads them).
//
// As in k6, the module manages the browser: it is launched for the running iteration on first use and closed when the
// iteration ends (or is interrupted), at the latest when the VU closes; one BrowserContext at a time. Playwright's
// objects are wrapped thinly: the few calls whose k6 form differs (waitForFunction's argument order, page.on('metric'),
// ArrayBuffer in place of Buffer, size()) are adapted, everything else is Playwright's own method, and every promise a
// script gets is registered with the VU, so the iteration ends only once the browser work it started settled.
//
// Metrics, from the context's network events: browser_http_req_duration, browser_http_req_failed (a status outside
// 200-399 or a request that failed), browser_data_sent/received (headers and bodies, from Playwright's sizes()); web
// vitals from the page's own performance entries: browser_web_vital_fcp and browser_web_vital_ttfb. LCP, CLS and INP
// are declared but not measured: they are final only when the page is hidden or interacted with, which Playwright's
// page.close() does not signal to the page.

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type * as PW from 'playwright-core';
import { durationMs } from '../../../core/duration.js';
import { hostResolverRules } from '../../hosts.js';
import type { Tags, VuHost } from '../../types.js';
import { systemBrowser } from './browser-path.js';
import { BROWSER_METRICS } from './metrics.js';

const requireCjs = createRequire(import.meta.url);
let playwright: typeof PW | undefined;
/** playwright-core, loaded on first use: VUs that never touch the browser do not pay for it. */
const pw = (): typeof PW => {
  playwright ??= requireCjs('playwright-core') as typeof PW;
  return playwright;
};

/**
 * Features playwright-core 1.65 disables itself (its chromiumSwitches). Chromium keeps only the last --disable-features
 * switch, so a K6_BROWSER_ARGS `disable-features=X` would drop these: they are merged into one switch instead.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];
const PLAYWRIGHT_ENABLED_FEATURES = ['CDPScreenshotNewSurface', 'SkipListAccountsWithoutGaiaCookies'];

/** How Chromium is launched, from k6's browser environment variables (/using-k6-browser/options/). */
export interface LaunchSettings {
  readonly executablePath: string | undefined;
  readonly args: readonly string[];
  readonly headless: boolean;
  /** K6_BROWSER_TIMEOUT: how long the launch may take, ms. */
  readonly timeout: number;
}

/**
 * The launch settings of `env`: K6_BROWSER_ARGS is comma-separated and written without leading dashes, which get added
 * back; K6_BROWSER_HEADLESS is true unless it reads as false.
 *
 * @example
 * launchSettings({ K6_BROWSER_ARGS: 'no-sandbox,use-fake-ui-for-media-stream' }).args; // ['--no-sandbox', …]
 */
export function launchSettings(env: Readonly<Record<string, string | undefined>>): LaunchSettings {
  const raw = (env.K6_BROWSER_ARGS ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .map((a) => (a.startsWith('-') ? a : `--${a}`));
  const headless = !['false', 'f', '0'].includes((env.K6_BROWSER_HEADLESS ?? '').trim().toLowerCase());
  return {
    executablePath: env.K6_BROWSER_EXECUTABLE_PATH?.trim() || systemBrowser(env.PATH ?? process.env.PATH),
    args: mergeFeatureSwitches(raw),
    headless,
    timeout: durationMs(env.K6_BROWSER_TIMEOUT) ?? 30_000,
  };
}

/** Folds every --disable-features/--enable-features into one switch each, Playwright's own features first. */
function mergeFeatureSwitches(args: string[]): string[] {
  const out: string[] = [];
  const features = { '--disable-features': [] as string[], '--enable-features': [] as string[] };
  for (const a of args) {
    const [name, value] = a.split(/=(.*)/s) as [string, string | undefined];
    if (name === '--disable-features' || name === '--enable-features') features[name].push(...(value ?? '').split(',').filter(Boolean));
    else out.push(a);
  }
  const disabled = features['--disable-features'];
  const enabled = features['--enable-features'];
  if (disabled.length) out.push(`--disable-features=${[...new Set([...PLAYWRIGHT_DISABLED_FEATURES, ...disabled])].join(',')}`);
  if (enabled.length) out.push(`--enable-features=${[...new Set([...PLAYWRIGHT_ENABLED_FEATURES, ...enabled])].join(',')}`);
  return out;
}

/** k6's NewBrowserContextOptions, as Playwright names them (k6 says timezoneID). */
function contextOptions(o: Record<string, unknown> | undefined): PW.BrowserContextOptions {
  if (!o) return {};
  const keys = [
    'bypassCSP',
    'colorScheme',
    'deviceScaleFactor',
    'extraHTTPHeaders',
    'geolocation',
    'hasTouch',
    'httpCredentials',
    'ignoreHTTPSErrors',
    'isMobile',
    'javaScriptEnabled',
    'locale',
    'offline',
    'permissions',
    'proxy',
    'reducedMotion',
    'screen',
    'userAgent',
    'viewport',
  ] as const;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  if (o.timezoneID !== undefined) out.timezoneId = o.timezoneID;
  return out as PW.BrowserContextOptions;
}

/** An end-user device as k6's `devices` describes one. */
export interface K6Device {
  readonly name: string;
  readonly userAgent: string;
  readonly viewport: { readonly width: number; readonly height: number };
  readonly deviceScaleFactor: number;
  readonly isMobile: boolean;
  readonly hasTouch: boolean;
}

let devicesCache: Record<string, K6Device> | undefined;
/** Playwright's device descriptors (a superset of k6's names) in k6's shape. */
function k6Devices(): Record<string, K6Device> {
  devicesCache ??= Object.fromEntries(
    Object.entries(pw().devices).map(([name, d]) => [
      name,
      { name, userAgent: d.userAgent, viewport: d.viewport, deviceScaleFactor: d.deviceScaleFactor, isMobile: d.isMobile, hasTouch: d.hasTouch },
    ]),
  );
  return devicesCache;
}

const versions = new Map<string, string>();
/** `chromium --version` of a browser not launched yet (browser.version() is synchronous in k6). */
function probeVersion(path: string | undefined): string {
  if (!path) return '';
  let v = versions.get(path);
  if (v === undefined) {
    const r = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 });
    v = /(\d+(?:\.\d+){1,3})/.exec(r.stdout ?? '')?.[1] ?? '';
    versions.set(path, v);
  }
  return v;
}

/** The binding the pages report their web vitals through, and the script that measures them in every top frame. */
const VITAL_BINDING = '__dialtoneWebVital';
const VITALS_SCRIPT = `(() => {
  if (window.top !== window) return;
  const send = (name, value) => { try { window.${VITAL_BINDING}(name, value); } catch (e) {} };
  try {
    new PerformanceObserver((list, obs) => {
      for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') { obs.disconnect(); send('fcp', e.startTime); }
    }).observe({ type: 'paint', buffered: true });
  } catch (e) {}
  const ttfb = () => {
    const n = performance.getEntriesByType('navigation')[0];
    if (n && n.responseStart > 0 && n.responseStart <= performance.now()) send('ttfb', Math.max(n.responseStart - (n.activationStart || 0), 0));
  };
  if (document.readyState === 'complete') setTimeout(ttfb, 0);
  else addEventListener('load', () => setTimeout(ttfb, 0), { once: true });
})();`;

/** k6's MetricMessage (page.on('metric')): `tag` renames the url and name tags of the metric being emitted. */
interface TagMatch {
  readonly name: string;
  readonly matches: readonly { readonly url: RegExp; readonly method?: string }[];
}
type MetricListener = (m: { tag(t: TagMatch): void }) => void;

type Kind = 'page' | 'frame' | 'context' | 'request' | 'response' | 'other';
type Fn = (...a: unknown[]) => unknown;

/** What a VU holds of its browser: one Chromium for the running iteration, and its one context. */
interface Live {
  readonly browser: PW.Browser;
  context: PW.BrowserContext | null;
  /** A newContext is under way (it cannot be the second one either). */
  opening: boolean;
  closing?: Promise<void>;
}

interface InFlight {
  readonly t0: number;
  readonly tags: Tags;
  status?: number;
}

const firstLine = (e: unknown) => String((e as Error)?.message ?? e).split('\n')[0];

/** The `k6/browser` module for one VU: `{ browser, devices }`. */
export function browserModule(vu: VuHost) {
  for (const m of BROWSER_METRICS) vu.sink.declare(m);
  let live: Live | null = null;
  let launching: Promise<Live> | null = null;
  let lastVersion = '';
  let userAgent = '';

  const proxies = new WeakMap<object, object>();
  const targets = new WeakMap<object, object>();
  /** Constructors of the Playwright objects that get k6 adaptations, learned from objects whose kind is known. */
  const kinds = new Map<unknown, Kind>();
  const learn = (o: object, k: Kind) => {
    if (!kinds.has(o.constructor)) kinds.set(o.constructor, k);
  };
  const metricListeners = new WeakMap<PW.Page, MetricListener[]>();
  /** Pages made by browser.newPage(): closing one closes its context. */
  const ownContext = new WeakMap<PW.Page, PW.BrowserContext>();
  const inFlight = new WeakMap<PW.Request, InFlight>();
  const cdp = new WeakMap<PW.Page, Promise<PW.CDPSession>>();

  const track = <T>(p: Promise<T>): Promise<T> => vu.track(p);

  // ---- wrapping ----

  /** A Playwright value as the script sees it: promises tracked, Buffers as ArrayBuffers, objects wrapped. */
  function wrap(v: unknown): unknown {
    if (v === null || typeof v !== 'object') return v;
    const known = proxies.get(v);
    if (known) return known;
    if (typeof (v as { then?: unknown }).then === 'function') return track(Promise.resolve(v).then(wrap));
    if (Array.isArray(v)) return v.map(wrap);
    if (Buffer.isBuffer(v)) return v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength);
    const proto = Object.getPrototypeOf(v);
    if (proto === Object.prototype || proto === null || ArrayBuffer.isView(v) || v instanceof ArrayBuffer) return v;
    if (v instanceof Error || v instanceof Date || v instanceof RegExp || v instanceof Map || v instanceof Set) return v;
    return proxyOf(v, kinds.get(v.constructor) ?? 'other');
  }

  /** A script's argument as Playwright takes it: our wrappers unwrapped, ArrayBuffers as Buffers (not for page functions). */
  function unwrap(a: unknown, binary = true, depth = 0): unknown {
    if (a === null || typeof a !== 'object') return a;
    const t = targets.get(a);
    if (t) return t;
    if (binary && a instanceof ArrayBuffer) return Buffer.from(a);
    if (depth > 4) return a;
    if (Array.isArray(a)) {
      const out = a.map((x) => unwrap(x, binary, depth + 1));
      return out.some((x, i) => x !== a[i]) ? out : a;
    }
    if (Object.getPrototypeOf(a) !== Object.prototype) return a;
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(a)) {
      out[k] = unwrap(x, binary, depth + 1);
      if (out[k] !== x) changed = true;
    }
    return changed ? out : a;
  }

  /**
   * evaluate(pageFunction, ...args): k6 hands the page function every argument (its evaluate.js example passes two);
   * Playwright takes one, so several travel as one array spread back into the function.
   */
  function evaluate(t: object, f: Fn, kind: Kind, args: unknown[]): unknown {
    const [fn, ...rest] = args;
    if (typeof fn !== 'function' || rest.length < 2)
      return f.apply(
        t,
        args.map((a) => unwrap(a, false)),
      );
    const onElement = kind !== 'page' && kind !== 'frame';
    const src = fn.toString();
    // Playwright sends a page function as its source text: this one is never run here, only its text is.
    const spread = onElement ? new Function('__h', '__a', `return (${src})(__h, ...__a);`) : new Function('__a', `return (${src})(...__a);`);
    return f.apply(t, [spread, rest.map((a) => unwrap(a, false))]);
  }

  /**
   * isEditable as k6 answers it: "Checks if the element is editable", that is not disabled and, for an input, textarea
   * or select, not readonly (k6's elementstate.js example expects true of a div); Playwright throws for an element that
   * cannot be edited at all.
   */
  async function isEditable(t: PW.ElementHandle, o: unknown): Promise<boolean> {
    try {
      // A Locator's takes options, an ElementHandle's none: both are asked as the script asked.
      return await (t as unknown as { isEditable(o?: unknown): Promise<boolean> }).isEditable(o);
    } catch (e) {
      if (!/is not an <input>, <textarea>, <select> or \[contenteditable\]/.test(String((e as Error)?.message))) throw e;
      return t.evaluate(
        (el: Element) => !(el as HTMLInputElement).disabled && !(['INPUT', 'TEXTAREA', 'SELECT'].includes(el.nodeName) && el.hasAttribute('readonly')),
      );
    }
  }

  /**
   * Actions that move the one mouse or type on the one keyboard a browser has. k6 runs two such actions a script starts
   * together (k6-utils' check() runs its async checks side by side, as k6's elementstate.js example does) one after
   * the other; under Playwright their mouse events would interleave and one click would land on the other's element.
   */
  const INPUT_ACTIONS = new Set([
    'click',
    'dblclick',
    'check',
    'uncheck',
    'setChecked',
    'tap',
    'hover',
    'press',
    'type',
    'fill',
    'clear',
    'selectOption',
    'selectText',
    'dragTo',
    'pressSequentially',
  ]);
  let inputs: Promise<unknown> = Promise.resolve();
  /** Runs `action` once the input actions started before it have ended. */
  const oneAtATime = (action: () => unknown): Promise<unknown> => {
    const run = inputs.then(action, action);
    inputs = run.catch(() => {});
    return run;
  };

  const PAGE_FUNCTIONS = new Set(['evaluate', 'evaluateHandle', 'evaluateAll', '$eval', '$$eval', 'waitForFunction']);

  function proxyOf<T extends object>(target: T, kind: Kind): T {
    const known = proxies.get(target);
    if (known) return known as T;
    const adapt = OVERRIDES[kind] as ((t: object) => Record<string, unknown>) | undefined;
    const overrides = adapt?.(target) ?? {};
    const fns = new Map<PropertyKey, Fn>();
    const proxy = new Proxy(target, {
      get(t, prop) {
        if (typeof prop === 'symbol') {
          const v = Reflect.get(t, prop, t);
          return typeof v === 'function' ? v.bind(t) : v;
        }
        if (Object.hasOwn(overrides, prop)) return overrides[prop];
        const cached = fns.get(prop);
        if (cached) return cached;
        const v = Reflect.get(t, prop, t);
        if (typeof v !== 'function') return wrap(v);
        if (prop === 'isEditable') return (o?: unknown) => wrap(isEditable(t as PW.ElementHandle, o));
        if (prop === 'evaluate' || prop === 'evaluateHandle') return (...args: unknown[]) => wrap(evaluate(t, v as Fn, kind, args));
        const binary = !PAGE_FUNCTIONS.has(prop);
        const call = (args: unknown[]) =>
          (v as Fn).apply(
            t,
            args.map((a) => unwrap(a, binary)),
          );
        // A console message's or a dialog's type() is a getter of what it is, not typing: they have no press().
        const input = INPUT_ACTIONS.has(prop) && (prop !== 'type' || typeof Reflect.get(t, 'press', t) === 'function');
        const f: Fn = input ? (...args) => wrap(oneAtATime(() => call(args))) : (...args) => wrap(call(args));
        fns.set(prop, f);
        return f;
      },
    });
    proxies.set(target, proxy);
    targets.set(proxy, target);
    return proxy;
  }

  /** Calls a script's event handler with wrapped arguments; a throw or rejection is logged, as k6 logs it. */
  const handler = (where: string, fn: Fn) => {
    return (...args: unknown[]) => {
      try {
        const r = fn(...args.map(wrap));
        if (r && typeof (r as Promise<unknown>).then === 'function') track(Promise.resolve(r)).catch((e) => vu.warn(`k6/browser: ${where}: ${firstLine(e)}`));
        return r;
      } catch (e) {
        vu.warn(`k6/browser: ${where}: ${firstLine(e)}`);
        return undefined;
      }
    };
  };

  /** waitForEvent's predicate (or options holding one) with wrapped arguments. */
  const predicateOf = (o: unknown): unknown => {
    if (typeof o === 'function') return (x: unknown) => (o as Fn)(wrap(x));
    if (o && typeof o === 'object' && typeof (o as { predicate?: unknown }).predicate === 'function') {
      const p = (o as { predicate: Fn }).predicate;
      return { ...o, predicate: (x: unknown) => p(wrap(x)) };
    }
    return o;
  };

  /** k6's waitForFunction(fn, options, arg) on Playwright's (fn, arg, options); k6's 'mutation' polling is 'raf' here. */
  const waitForFunction = (on: PW.Page | PW.Frame) => (fn: unknown, options?: { polling?: number | string; timeout?: number }, arg?: unknown) => {
    const polling = options?.polling === 'mutation' ? 'raf' : (options?.polling as number | 'raf' | undefined);
    const o = { ...(polling !== undefined ? { polling } : {}), ...(options?.timeout !== undefined ? { timeout: options.timeout } : {}) };
    return wrap(on.waitForFunction(fn as string, unwrap(arg, false), o));
  };

  const OVERRIDES: Partial<Record<Kind, (t: never) => Record<string, unknown>>> = {
    frame: (f: PW.Frame) => ({ waitForFunction: waitForFunction(f) }),
    page: (p: PW.Page) => ({
      waitForFunction: waitForFunction(p),
      route: (url: string | RegExp, fn: Fn) => wrap(p.route(url, handler('page.route handler', fn) as (r: PW.Route) => unknown)),
      on: (event: string, fn: Fn) => {
        if (event === 'metric') {
          const list = metricListeners.get(p) ?? [];
          list.push(fn as MetricListener);
          metricListeners.set(p, list);
          return;
        }
        p.on(event as 'console', handler(`page.on('${event}') handler`, fn) as () => void);
      },
      waitForEvent: (event: string, o?: unknown) => wrap(p.waitForEvent(event as 'console', predicateOf(o) as { timeout?: number })),
      // A page whose content the script sets loads no URL, on purpose: the browser still acted (ran-as-written.ts).
      setContent: (html: string, o?: Parameters<PW.Page['setContent']>[1]) =>
        wrap(
          p.setContent(html, o).then(() => {
            vu.acted?.('page.setContent');
          }),
        ),
      close: (o?: Parameters<PW.Page['close']>[0]) =>
        track(
          (async () => {
            await p.close(o);
            const c = ownContext.get(p);
            if (c) await closeContext(c);
          })(),
        ),
      throttleCPU: (profile: { rate: number }) =>
        track(
          session(p)
            .then((s) => s.send('Emulation.setCPUThrottlingRate', { rate: profile.rate }))
            .then(() => {}),
        ),
      // Touchscreen.tap(x, y): "Dispatches a tap start and tap end event." k6 sends them over CDP whatever the context's
      // hasTouch; Playwright's touchscreen refuses a context without it, so the taps go over CDP here too.
      touchscreen: {
        tap: (x: number, y: number) =>
          track(
            session(p).then(async (s) => {
              await s.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
              await s.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
            }),
          ),
      },
      throttleNetwork: (n: { latency?: number; download?: number; upload?: number }) =>
        track(
          session(p)
            .then((s) =>
              s.send('Network.emulateNetworkConditions', {
                offline: false,
                latency: n.latency ?? 0,
                downloadThroughput: n.download ?? -1,
                uploadThroughput: n.upload ?? -1,
              }),
            )
            .then(() => {}),
        ),
    }),
    context: (c: PW.BrowserContext) => ({
      newPage: () => track(c.newPage().then(pageProxy)),
      close: () => track(closeContext(c)),
      browser: () => browser,
      cookies: (...urls: string[]) => wrap(c.cookies(urls.length ? urls : undefined)),
      waitForEvent: (event: string, o?: unknown) => wrap(c.waitForEvent(event as 'page', predicateOf(o) as { timeout?: number })),
    }),
    request: (r: PW.Request) => ({
      size: () => track(r.sizes().then((s) => ({ body: s.requestBodySize, headers: s.requestHeadersSize }))),
    }),
    response: (r: PW.Response) => ({
      size: () =>
        track(
          r
            .request()
            .sizes()
            .then((s) => ({ body: s.responseBodySize, headers: s.responseHeadersSize })),
        ),
    }),
  };

  const session = (p: PW.Page): Promise<PW.CDPSession> => {
    let s = cdp.get(p);
    if (!s) {
      s = p.context().newCDPSession(p);
      cdp.set(p, s);
    }
    return s;
  };

  const pageProxy = (p: PW.Page) => {
    // A page the script opened is the browser acting as asked, whether or not it loads a URL (ran-as-written.ts).
    vu.acted?.('a browser page');
    learn(p, 'page');
    learn(p.mainFrame(), 'frame');
    return proxyOf(p, 'page');
  };
  const contextProxy = (c: PW.BrowserContext) => {
    learn(c, 'context');
    return proxyOf(c, 'context');
  };

  // ---- metrics ----

  /** Applies the page's page.on('metric') renames to a metric's tags (url and name). */
  function retag(page: PW.Page | null, tags: Record<string, string>): Record<string, string> {
    const listeners = page ? metricListeners.get(page) : undefined;
    if (!listeners?.length) return tags;
    const msg = {
      tag(t: TagMatch) {
        if (!t?.name) throw new Error('k6/browser: metric.tag needs a name');
        const test = (re: RegExp, s: string | undefined) => {
          re.lastIndex = 0;
          return s !== undefined && re.test(s);
        };
        for (const m of t.matches ?? []) {
          const urlMatches = test(m.url, tags.url) || test(m.url, tags.name);
          if (urlMatches && (!m.method || m.method === tags.method)) {
            tags.url = t.name;
            if (tags.name !== undefined) tags.name = t.name;
            return;
          }
        }
      },
    };
    for (const l of listeners) {
      try {
        l(msg);
      } catch (e) {
        vu.warn(`k6/browser: page.on('metric') handler: ${firstLine(e)}`);
      }
    }
    return tags;
  }

  const pageOf = (r: PW.Request): PW.Page | null => {
    try {
      return r.frame().page();
    } catch {
      return null;
    }
  };

  function requestTags(r: PW.Request, f: InFlight, status: number | undefined): Tags {
    const url = r.url();
    const t: Record<string, string> = { ...f.tags, url, name: url, method: r.method(), resource_type: r.resourceType() };
    if (status !== undefined) t.status = String(status);
    return retag(pageOf(r), t);
  }

  function onFinished(r: PW.Request): void {
    const f = inFlight.get(r);
    if (!f) return;
    inFlight.delete(r);
    const status = f.status ?? 0;
    const timing = r.timing();
    const ms = timing.responseEnd >= 0 ? timing.responseEnd : performance.now() - f.t0;
    const tags = requestTags(r, f, status);
    vu.sink.emit('browser_http_req_duration', ms, tags);
    vu.sink.emit('browser_http_req_failed', status >= 200 && status <= 399 ? 0 : 1, tags);
    track(
      r.sizes().then((s) => {
        vu.sink.emit('browser_data_sent', s.requestHeadersSize + s.requestBodySize, tags);
        vu.sink.emit('browser_data_received', s.responseHeadersSize + s.responseBodySize, tags);
      }),
    ).catch(() => {});
  }

  function onFailed(r: PW.Request): void {
    const f = inFlight.get(r);
    if (!f) return;
    inFlight.delete(r);
    vu.sink.emit('browser_http_req_failed', 1, requestTags(r, f, undefined));
    // A request that failed (a navigation to a host that is down, as a script may ask on purpose) was still sent.
    vu.acted?.(`a browser request that failed (${r.url()})`);
  }

  function onVital(page: PW.Page | null, frame: PW.Frame | null, name: unknown, value: unknown): void {
    if ((name !== 'fcp' && name !== 'ttfb') || typeof value !== 'number' || !(value >= 0)) return;
    const tags = retag(page, { ...vu.tags(), url: frame?.url() ?? page?.url() ?? '' });
    vu.sink.emit(`browser_web_vital_${name}`, value, tags);
  }

  async function instrument(c: PW.BrowserContext): Promise<void> {
    c.on('page', pageProxy);
    c.on('request', (r) => {
      learn(r, 'request');
      inFlight.set(r, { t0: performance.now(), tags: vu.tags() });
    });
    c.on('response', (res) => {
      learn(res, 'response');
      const f = inFlight.get(res.request());
      if (f) f.status = res.status();
    });
    c.on('requestfinished', onFinished);
    c.on('requestfailed', onFailed);
    await c.exposeBinding(VITAL_BINDING, (source, name: unknown, value: unknown) => onVital(source.page ?? null, source.frame ?? null, name, value));
    await c.addInitScript({ content: VITALS_SCRIPT });
  }

  // ---- lifecycle ----

  function requireBrowserScenario(): void {
    const name = vu.exec.scenarioName;
    const scenarios = vu.options.scenarios as Record<string, { options?: { browser?: { type?: unknown } } }> | undefined;
    const type = scenarios?.[name]?.options?.browser?.type;
    if (type !== 'chromium') {
      throw new Error(
        `k6/browser: scenario '${name}' does not run a browser: set options: { browser: { type: 'chromium' } } in its definition` +
          (type === undefined ? '' : ` (type '${String(type)}' is not supported)`),
      );
    }
  }

  async function launch(): Promise<Live> {
    requireBrowserScenario();
    const signal = vu.signal;
    if (signal.aborted) throw new Error('k6/browser: the iteration was interrupted');
    const s = launchSettings(vu.env);
    const rules = hostResolverRules(vu.options.hosts);
    let b: PW.Browser;
    try {
      b = await pw().chromium.launch({
        ...(s.executablePath ? { executablePath: s.executablePath } : {}),
        args: rules ? [...s.args, rules] : [...s.args],
        headless: s.headless,
        timeout: s.timeout,
        // The engine handles signals; Playwright still kills its browsers when the process exits.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (e) {
      const what = s.executablePath ?? "Playwright's own Chromium (K6_BROWSER_EXECUTABLE_PATH is not set and no Chromium or Chrome is on PATH)";
      throw new Error(`k6/browser: could not launch ${what}: ${firstLine(e)}`);
    }
    const l: Live = { browser: b, context: null, opening: false };
    live = l;
    lastVersion = b.version();
    b.on('disconnected', () => {
      if (live === l) live = null;
    });
    const stop = () => void closeLive(l);
    signal.addEventListener('abort', stop, { once: true });
    vu.onIterationEnd(() => closeLive(l));
    if (signal.aborted) {
      await closeLive(l);
      throw new Error('k6/browser: the iteration was interrupted');
    }
    if (!userAgent) {
      try {
        const c = await b.newBrowserCDPSession();
        // k6 drops "Headless" from the user agent (k6's useragent.js example checks it), so sites treat the run as a browser.
        userAgent = (await c.send('Browser.getVersion')).userAgent.replace('HeadlessChrome', 'Chrome');
        await c.detach();
      } catch {
        // userAgent() stays '' rather than failing the launch.
      }
    }
    return l;
  }

  function ensure(): Promise<Live> {
    if (live) return Promise.resolve(live);
    launching ??= launch().finally(() => {
      launching = null;
    });
    return launching;
  }

  function closeLive(l: Live): Promise<void> {
    if (live === l) live = null;
    l.closing ??= l.browser.close().catch(() => {});
    return l.closing;
  }

  async function closeContext(c: PW.BrowserContext): Promise<void> {
    if (live?.context === c) live.context = null;
    await c.close();
  }

  vu.onClose(async () => {
    const l = live ?? (launching ? await launching.catch(() => null) : null);
    if (l) await closeLive(l);
  });

  const exists = () => new Error('k6/browser: a browser context already exists: close it first (one BrowserContext per browser at a time)');

  async function newContext(options?: Record<string, unknown>): Promise<PW.BrowserContext> {
    if (live && (live.context || live.opening)) throw exists();
    const l = await ensure();
    if (l.context || l.opening) throw exists();
    l.opening = true;
    try {
      const asked = contextOptions(options);
      const c = await l.browser.newContext(asked.userAgent || !userAgent ? asked : { ...asked, userAgent });
      learn(c, 'context');
      l.context = c;
      c.on('close', () => {
        if (l.context === c) l.context = null;
      });
      await instrument(c);
      return c;
    } finally {
      l.opening = false;
    }
  }

  const browser = {
    /** Closes the current BrowserContext; throws when there is none. */
    closeContext(): Promise<void> {
      const c = live?.context;
      if (!c) throw new Error('k6/browser: there is no browser context to close');
      return track(closeContext(c));
    },
    context(): unknown {
      return live?.context ? contextProxy(live.context) : null;
    },
    isConnected(): boolean {
      return live?.browser.isConnected() ?? false;
    },
    newContext(options?: Record<string, unknown>): Promise<unknown> {
      return track(newContext(options).then(contextProxy));
    },
    newPage(options?: Record<string, unknown>): Promise<unknown> {
      return track(
        (async () => {
          const c = await newContext(options);
          const p = await c.newPage();
          ownContext.set(p, c);
          return pageProxy(p);
        })(),
      );
    },
    userAgent(): string {
      return userAgent;
    },
    version(): string {
      return live?.browser.version() || lastVersion || probeVersion(launchSettings(vu.env).executablePath);
    },
  };

  return {
    browser,
    get devices(): Record<string, K6Device> {
      return k6Devices();
    },
    networkProfiles: NETWORK_PROFILES,
  };
}

/**
 * k6/browser's `networkProfiles`, for page.throttleNetwork (/javascript-api/k6-browser/page/throttlenetwork/: "To work
 * with the most commonly tested network profiles, import networkProfiles from the browser module. There are three
 * profiles available": 'No Throttling', 'Fast 3G', 'Slow 3G'): Chrome DevTools' presets, as k6 carries them (bytes a
 * second, ms).
 */
export const NETWORK_PROFILES: Readonly<Record<string, Readonly<{ latency: number; download: number; upload: number }>>> = Object.freeze({
  'No Throttling': Object.freeze({ latency: 0, download: -1, upload: -1 }),
  'Fast 3G': Object.freeze({ latency: 150 * 3.75, download: ((1.6 * 1000 * 1000) / 8) * 0.9, upload: ((750 * 1000) / 8) * 0.9 }),
  'Slow 3G': Object.freeze({ latency: 400 * 5, download: ((500 * 1000) / 8) * 0.8, upload: ((500 * 1000) / 8) * 0.8 }),
});
