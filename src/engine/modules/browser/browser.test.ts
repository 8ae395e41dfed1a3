// k6/browser on the system Chromium, with the flags dialtone hands k6 (src/load/chromium.ts chromiumArgs, repeated here:
// the engine may not import src/load).
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type TestVu, testVu } from '../test-vu.js';
import { browserModule, launchSettings } from './browser.js';

const chromium =
  process.env.DIALTONE_CHROMIUM || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
const ARGS =
  'use-fake-device-for-media-stream,use-fake-ui-for-media-stream,no-sandbox,disable-features=LocalNetworkAccessChecks,allow-loopback-in-peer-connection';
const PAGE = 'http://voice-client.dialtone.localhost/x.html';
const HTML =
  '<!doctype html><html><body><h1>voice client</h1><script>window.ready = false; setTimeout(() => { window.ready = true; }, 300);</script></body></html>';
const BROWSER_SCENARIO = { scenarios: { default: { executor: 'shared-iterations', options: { browser: { type: 'chromium' } } } } };

// The few calls of the k6 API the tests use, typed loosely: the module returns what the script sees.
interface K6Route {
  fulfill(o: { status?: number; contentType?: string; body?: string | ArrayBuffer; headers?: Record<string, string> }): Promise<void>;
  abort(code?: string): Promise<void>;
  continue(): Promise<void>;
}
interface K6Response {
  status(): number;
}
interface K6Page {
  route(url: string | RegExp, handler: (r: K6Route) => unknown): Promise<void>;
  goto(url: string, o?: { timeout?: number; waitUntil?: string }): Promise<K6Response | null>;
  evaluate<T>(fn: unknown, arg?: unknown): Promise<T>;
  waitForFunction(fn: unknown, o?: { polling?: number | string; timeout?: number }, arg?: unknown): Promise<unknown>;
  waitForTimeout(ms: number): Promise<void>;
  content(): Promise<string>;
  screenshot(): Promise<ArrayBuffer>;
  locator(s: string): { textContent(): Promise<string | null> };
  touchscreen: { tap(x: number, y: number): Promise<void> };
  throttleNetwork(p: { latency: number; download: number; upload: number }): Promise<void>;
  on(event: string, fn: (m: { text(): string; type(): string }) => void): void;
  close(): Promise<void>;
  context(): K6Context;
}
interface K6Context {
  newPage(): Promise<K6Page>;
  close(): Promise<void>;
  browser(): K6Browser;
}
interface K6Browser {
  newContext(o?: Record<string, unknown>): Promise<K6Context>;
  newPage(o?: Record<string, unknown>): Promise<K6Page>;
  context(): K6Context | null;
  closeContext(): Promise<void>;
  isConnected(): boolean;
  version(): string;
  userAgent(): string;
}

/** test-vu's fake VU with the iteration end hooks k6/browser relies on, and the browser environment k6 gets. */
function browserVu(options: Record<string, unknown> = BROWSER_SCENARIO) {
  const vu: TestVu = testVu({ options });
  Object.assign(vu.env, { K6_BROWSER_EXECUTABLE_PATH: chromium, K6_BROWSER_ARGS: ARGS, K6_BROWSER_HEADLESS: 'true' });
  const enders: (() => void | Promise<void>)[] = [];
  vu.onIterationEnd = (fn) => {
    enders.push(fn);
  };
  const { browser } = browserModule(vu) as { browser: K6Browser };
  /** The end of the iteration as the engine runs it: everything tracked settled, then the iteration end hooks. */
  const endIteration = async () => {
    await vu.settled(30_000);
    for (const fn of enders.splice(0)) await fn();
  };
  return { vu, browser, endIteration };
}

describe('networkProfiles', () => {
  // page.throttleNetwork: "To work with the most commonly tested network profiles, import networkProfiles from the
  // browser module. There are three profiles available": 'No Throttling', 'Fast 3G', 'Slow 3G'.
  it("exports k6's three network profiles from the module, in throttleNetwork's fields", () => {
    const { networkProfiles } = browserModule(testVu()) as { networkProfiles: Record<string, { latency: number; download: number; upload: number }> };
    expect(Object.keys(networkProfiles)).toEqual(['No Throttling', 'Fast 3G', 'Slow 3G']);
    expect(networkProfiles['No Throttling']).toEqual({ latency: 0, download: -1, upload: -1 });
    expect(networkProfiles['Slow 3G']).toEqual({ latency: 2000, download: 50_000, upload: 50_000 });
    expect(networkProfiles['Fast 3G']).toEqual({ latency: 562.5, download: 180_000, upload: 84_375 });
  });
});

describe('launchSettings', () => {
  // "Arguments should not start with `--` when passing them to `K6_BROWSER_ARGS`." (/using-k6-browser/options/)
  it('gives the comma-separated K6_BROWSER_ARGS their leading dashes back', () => {
    const s = launchSettings({ K6_BROWSER_ARGS: 'no-sandbox, use-fake-ui-for-media-stream,,--mute-audio', K6_BROWSER_EXECUTABLE_PATH: '/usr/bin/chromium' });
    expect(s.args).toEqual(['--no-sandbox', '--use-fake-ui-for-media-stream', '--mute-audio']);
    expect(s.executablePath).toBe('/usr/bin/chromium');
  });

  // "K6_BROWSER_HEADLESS: Show browser GUI or not. `true` by default." (/using-k6-browser/options/)
  it('is headless unless K6_BROWSER_HEADLESS reads as false', () => {
    expect(launchSettings({}).headless).toBe(true);
    expect(launchSettings({ K6_BROWSER_HEADLESS: 'true' }).headless).toBe(true);
    expect(launchSettings({ K6_BROWSER_HEADLESS: 'false' }).headless).toBe(false);
    expect(launchSettings({ K6_BROWSER_HEADLESS: '0' }).headless).toBe(false);
  });

  // "K6_BROWSER_TIMEOUT: Default timeout for initializing the connection to the browser instance. `'30s'` if not set."
  it('reads K6_BROWSER_TIMEOUT as a k6 duration, 30s when not set', () => {
    expect(launchSettings({}).timeout).toBe(30_000);
    expect(launchSettings({ K6_BROWSER_TIMEOUT: '1m' }).timeout).toBe(60_000);
  });

  it("folds a disable-features argument into Playwright's own list, since Chromium keeps only the last such switch", () => {
    const args = launchSettings({ K6_BROWSER_ARGS: 'no-sandbox,disable-features=LocalNetworkAccessChecks,disable-features=Foo' }).args;
    const disable = args.filter((a) => a.startsWith('--disable-features='));
    expect(disable).toHaveLength(1);
    expect(disable[0]?.split('=')[1]?.split(',')).toEqual(
      expect.arrayContaining(['LocalNetworkAccessChecks', 'Foo', 'PaintHolding', 'DestroyProfileOnBrowserClose']),
    );
    expect(args[0]).toBe('--no-sandbox');
  });
});

describe.skipIf(!chromium)('k6/browser on Chromium', () => {
  let server: Server;
  let origin = '';
  const open: { endIteration: () => Promise<void>; vu: TestVu }[] = [];
  const start = (options?: Record<string, unknown>) => {
    const b = browserVu(options);
    open.push(b);
    return b;
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/ok') {
        res.writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' }).end('<p>ok</p>');
        return;
      }
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  afterEach(async () => {
    for (const b of open.splice(0)) {
      await b.endIteration().catch(() => {});
      await b.vu.close();
    }
  });

  // Touchscreen: "tap(x, y): Dispatches a tap start and tap end event." k6 asks nothing of the context for it, where
  // Playwright's touchscreen demands one made with hasTouch; throttleNetwork takes a profile of networkProfiles.
  it('taps on the touchscreen of a page whose context was made without hasTouch, and throttles by a network profile', async () => {
    const { browser, vu } = start();
    const { networkProfiles } = browserModule(testVu()) as { networkProfiles: Record<string, { latency: number; download: number; upload: number }> };
    const page = await browser.newPage();
    await page.route(PAGE, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body:
          '<!doctype html><body style="margin:0"><div id="t" style="width:200px;height:200px"></div><script>window.taps = [];' +
          "document.getElementById('t').addEventListener('touchend', (e) => window.taps.push(e.type));</script></body>",
      }),
    );
    await page.throttleNetwork(networkProfiles['Fast 3G'] as { latency: number; download: number; upload: number });
    await page.goto(PAGE, { timeout: 10_000, waitUntil: 'load' });
    await page.touchscreen.tap(50, 50);
    expect(await page.evaluate('window.taps')).toEqual(['touchend']);
    await page.close();
    expect(vu.rejections).toEqual([]);
  });

  // "Adds a route to the page to modify network requests made by that page." (page.route, @types/k6)
  // "Executes JavaScript code in the page and returns the value of the `pageFunction` invocation." (/javascript-api/k6-browser/page/evaluate/)
  it('serves a page through page.route and route.fulfill, goes to it and evaluates a function with an argument', async () => {
    const { browser, vu } = start();
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route(PAGE, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: HTML }));
    const res = await page.goto(PAGE, { timeout: 10_000, waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(await page.evaluate((a: { x: number; y: number }) => a.x * a.y + document.querySelectorAll('h1').length, { x: 6, y: 7 })).toBe(43);
    expect(await page.evaluate('location.href')).toBe(PAGE);
    expect(await page.content()).toContain('<h1>voice client</h1>');
    expect(await page.locator('h1').textContent()).toBe('voice client');
    const png = await page.screenshot();
    expect(png).toBeInstanceOf(ArrayBuffer);
    expect(new Uint8Array(png).subarray(1, 4)).toEqual(new Uint8Array([0x50, 0x4e, 0x47]));
    expect(page.context()).toBe(context);
    expect(context.browser()).toBe(browser);
    expect(browser.context()).toBe(context);
    expect(browser.version()).toMatch(/^\d+\.\d+/);
    expect(browser.userAgent()).toContain('Chrome/');
    await page.close();
    await context.close();
    expect(vu.rejections).toEqual([]);
  });

  // Route: "fulfill(options: { body?: string | ArrayBuffer; contentType?: string; headers?: …; status?: number })",
  // "continue(…)" (@types/k6 browser); page.on('metric'): "tag will match the given `tagMatch.matches` with the current
  // metric's URL and name tags. When a match is found it will use `tagMatch.name` to replace the existing URL and name
  // tag values."
  it('fulfills with an ArrayBuffer body and headers, continues other requests, and renames url tags on page.on(metric)', async () => {
    const { browser, vu } = start();
    const page = await browser.newPage();
    page.on('metric', ((m: { tag(t: { name: string; matches: { url: RegExp; method?: string }[] }): void }) =>
      m.tag({ name: 'api', matches: [{ url: /\/api\/\d+$/, method: 'GET' }] })) as never);
    await page.route(PAGE, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: HTML }));
    const bytes = new TextEncoder().encode('{"n":1}');
    await page.route(/\/api\/\d+$/, (route) =>
      route.fulfill({
        status: 201,
        headers: { 'content-type': 'application/json', 'x-k6': 'yes', 'access-control-allow-origin': '*', 'access-control-expose-headers': 'x-k6' },
        body: bytes.buffer,
      }),
    );
    await page.route(`${origin}/ok`, (route) => route.continue());
    await page.goto(PAGE);
    const got = await page.evaluate(async (base: string) => {
      const a = await fetch(`${base}/api/7`);
      const b = await fetch(`${base}/ok`);
      return { status: a.status, header: a.headers.get('x-k6'), body: await a.json(), ok: await b.text() };
    }, origin);
    expect(got).toEqual({ status: 201, header: 'yes', body: { n: 1 }, ok: '<p>ok</p>' });
    await vu.settled();
    expect(vu.sink.of('browser_http_req_failed', { url: 'api' }).map((s) => [s.tags.name, s.tags.status, s.tags.resource_type, s.value])).toEqual([
      ['api', '201', 'fetch', 0],
    ]);
    expect(vu.sink.of('browser_http_req_failed', { url: `${origin}/ok` }).map((s) => s.value)).toEqual([0]);
  });

  // "Returns when the `pageFunction` returns a truthy value." (/javascript-api/k6-browser/frame/waitforfunction/)
  it('waits for a function with interval polling, its options before its argument as the k6 typings have them', async () => {
    const { browser } = start();
    const page = await browser.newPage();
    await page.route(PAGE, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: HTML }));
    await page.goto(PAGE);
    const t0 = Date.now();
    await page.waitForFunction((want: boolean) => (window as unknown as { ready: boolean }).ready === want, { polling: 50, timeout: 5_000 }, true);
    expect(Date.now() - t0).toBeLessThan(5_000);
    await expect(page.waitForFunction(() => false, { polling: 'mutation', timeout: 200 })).rejects.toThrow(/Timeout/i);
    const messages: string[] = [];
    page.on('console', (m) => messages.push(`${m.type()}:${m.text()}`));
    await page.evaluate(() => console.log('hello from the page'));
    await page.waitForTimeout(100);
    expect(messages).toContain('log:hello from the page');
  });

  // dialtone's K6_BROWSER_ARGS give the page a fake microphone without a prompt (src/load/chromium.ts chromiumArgs).
  it('launches with the K6_BROWSER_ARGS dialtone passes: the fulfilled page captures the fake microphone', async () => {
    const { browser } = start();
    const page = await browser.newPage();
    await page.route(PAGE, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: HTML }));
    await page.goto(PAGE);
    const tracks = await page.evaluate(async () => {
      const s = await navigator.mediaDevices.getUserMedia({ audio: true });
      const kinds = s.getTracks().map((t) => `${t.kind}:${t.readyState}`);
      for (const t of s.getTracks()) t.stop();
      return kinds;
    });
    expect(tracks).toEqual(['audio:live']);
  });

  // "There is a 1-to-1 mapping between `Browser` and `BrowserContext`. Due to this restriction, if one already exists,
  // it must be closed first before creating a new one." (browser.newContext, @types/k6)
  it('refuses a second context while one exists, and makes one again once it is closed', async () => {
    const { browser } = start();
    const first = await browser.newContext();
    await expect(browser.newContext()).rejects.toThrow(/close it first/);
    await expect(browser.newPage()).rejects.toThrow(/close it first/);
    await first.close();
    expect(browser.context()).toBeNull();
    const second = await browser.newContext();
    expect(browser.context()).toBe(second);
    await browser.closeContext();
    expect(browser.context()).toBeNull();
    expect(() => browser.closeContext()).toThrow(/no browser context/);
  });

  // "The browser module now handles the startup and shutdown of browser processes automatically." (/using-k6-browser/migrating-to-k6-v0-46/)
  it('closes the browser in the iteration end hook and starts a fresh one in the next iteration', async () => {
    const { browser, endIteration } = start();
    expect(browser.isConnected()).toBe(false);
    const page = await browser.newPage();
    expect(browser.isConnected()).toBe(true);
    await endIteration();
    expect(browser.isConnected()).toBe(false);
    expect(browser.context()).toBeNull();
    await expect(page.evaluate(() => 1)).rejects.toThrow();
    const next = await browser.newPage();
    expect(browser.isConnected()).toBe(true);
    expect(await next.evaluate(() => 2)).toBe(2);
  });

  // "Keeps the running iteration alive until `p` settles" (VuHost.track); an interrupted iteration closes its browser.
  it('keeps the iteration alive while a browser call is pending, and closes the browser when the iteration is interrupted', async () => {
    const { browser, vu } = start();
    const page = await browser.newPage();
    await vu.settled();
    const waiting = page.waitForTimeout(60_000).catch((e: Error) => e);
    expect(vu.pending()).toBeGreaterThan(0);
    vu.interrupt();
    expect(await waiting).toBeInstanceOf(Error);
    expect(browser.isConnected()).toBe(false);
    await vu.settled();
  });

  // "The scenario needs options:{browser:{type:'chromium'}}" (k6-semantics §9; /javascript-api/k6-browser/ example)
  it('refuses to start a browser in a scenario without the browser type option', async () => {
    const { browser } = start({});
    await expect(browser.newPage()).rejects.toThrow(/browser: \{ type: 'chromium' \}/);
  });

  // A request "is deemed to have failed" when "the code is outside of the 200-399 range" (grafana/xk6-browser#881,
  // browser_http_req_failed).
  it('records browser_http_req_failed 0 for the fulfilled page and 1 for a 404, with duration and data per request', async () => {
    const { browser, vu } = start();
    const page = await browser.newPage();
    await page.route(PAGE, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: HTML }));
    expect((await page.goto(PAGE))?.status()).toBe(200);
    expect((await page.goto(`${origin}/missing`))?.status()).toBe(404);
    await vu.settled();
    const failed = vu.sink.of('browser_http_req_failed');
    expect(failed.map((s) => [s.tags.url, s.value])).toEqual([
      [PAGE, 0],
      [`${origin}/missing`, 1],
    ]);
    expect(failed[0]?.tags).toMatchObject({ url: PAGE, name: PAGE, method: 'GET', status: '200', resource_type: 'document', scenario: 'default' });
    expect(failed[1]?.tags).toMatchObject({ status: '404', method: 'GET', resource_type: 'document' });
    const durations = vu.sink.of('browser_http_req_duration');
    expect(durations).toHaveLength(2);
    for (const d of durations) expect(d.value).toBeGreaterThanOrEqual(0);
    expect(vu.sink.sum('browser_data_received', { url: PAGE })).toBeGreaterThanOrEqual(HTML.length);
    expect(vu.sink.sum('browser_data_sent', { url: PAGE })).toBeGreaterThan(0);
    expect(vu.sink.metrics.get('browser_http_req_duration')).toMatchObject({ type: 'trend', contains: 'time' });
  });

  it('records a request the route aborted as failed', async () => {
    const { browser, vu } = start();
    const page = await browser.newPage();
    await page.route(`${origin}/ok`, (route) => route.abort('failed'));
    await expect(page.goto(`${origin}/ok`)).rejects.toThrow();
    await vu.settled();
    expect(vu.sink.of('browser_http_req_failed').map((s) => s.value)).toEqual([1]);
  });

  // "browser_web_vital_fcp ... browser_web_vital_ttfb" (/using-k6-browser/metrics/): measured from the page's own
  // paint and navigation entries, tagged with the page's url.
  it('records first contentful paint and time to first byte of a loaded page', async () => {
    const { browser, vu } = start();
    const page = await browser.newPage();
    await page.goto(`${origin}/ok`);
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (vu.sink.of('browser_web_vital_fcp').length === 0 || vu.sink.of('browser_web_vital_ttfb').length === 0)) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const [fcp] = vu.sink.of('browser_web_vital_fcp');
    const [ttfb] = vu.sink.of('browser_web_vital_ttfb');
    expect(fcp?.tags.url).toBe(`${origin}/ok`);
    expect(fcp?.value).toBeGreaterThan(0);
    expect(ttfb?.value).toBeGreaterThan(0);
    expect(ttfb?.value).toBeLessThanOrEqual(fcp?.value ?? 0);
  });
});
