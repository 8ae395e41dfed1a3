// The live dashboard's server on the dialtone process: the page, Vega and Vega-Lite for it, and its server-sent events
// (one `update` a period while the engine feeds it, one `final` with the report page at the end). An update is the
// plots' specs, not their drawing, built at most once a period and only while a browser listens: the run's own process
// spends nothing per sample and little per period.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { isLiveFeed, LIVE_FEED_ENV, type LiveFeedMessage } from '../../core/live-feed.js';
import { EnvironmentError } from '../../errors.js';
import { dashboardPage, liveUpdate } from './page.js';
import type { DashboardSettings } from './settings.js';
import { type LiveSink, setLiveSink } from './sink.js';
import { LiveState, type LiveView } from './state.js';

/** An open live dashboard. */
export interface LiveDashboard extends LiveSink {
  /** Where a browser opens it; undefined with port -1. */
  readonly url: string | undefined;
  /** Takes one period's message from an engine run in this process (the engine alone, src/cli/engine-dashboard.ts). */
  take(m: LiveFeedMessage): void;
  /** The run so far, as the page draws it. */
  view(): LiveView;
  /** Puts the report page (its HTML file) in the live page's place, writes the export, and closes; once. */
  finish(reportFile: string | undefined): Promise<void>;
  /** As finish, with the report page's HTML itself (undefined: none, the last update stays). */
  finishWith(html: string | undefined): Promise<void>;
}

/** An update is sent no more often than this many times the CPU ms building one took. */
const BUDGET_SHARE = 10;

const sse = (res: ServerResponse, event: string, data: string) => res.write(`event: ${event}\ndata: ${data}\n\n`);

/** The browser builds of the Vega and Vega-Lite dialtone's report draws with, found where the packages are installed. */
function scriptFiles(): Record<string, string> {
  const require = createRequire(import.meta.url);
  return {
    '/vega.js': join(dirname(require.resolve('vega')), 'vega.min.js'),
    '/vega-lite.js': join(dirname(require.resolve('vega-lite')), 'vega-lite.min.js'),
  };
}

/** Listens on host:port; a port taken is one line naming the variable that moves it. */
async function listen(server: Server, s: DashboardSettings): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        new EnvironmentError(
          e.code === 'EADDRINUSE'
            ? `dashboard: ${s.host}:${s.port} is taken; set K6_WEB_DASHBOARD_PORT to another port (0: any free one, -1: none)`
            : `dashboard: cannot listen on ${s.host}:${s.port}: ${e.message}`,
        ),
      ),
    );
    server.listen(s.port, s.host, () => resolve());
  });
}

/**
 * Opens the dashboard and makes it the one every built-in engine started from now on feeds (src/load/spawn-engine.ts).
 *
 * @example
 * const dash = await openLiveDashboard('load chat-turns (smoke)', dashboardSettings());
 * try { … the run … } finally { await dash.finish(join(dir, 'index.html')); }
 */
export async function openLiveDashboard(title: string, s: DashboardSettings): Promise<LiveDashboard> {
  const state = new LiveState();
  const clients = new Set<ServerResponse>();
  const scripts = scriptFiles();
  let update: string | undefined;
  let dirty = true;
  let finished = false;
  /** CPU ms the last update took to build, and when one was last sent. */
  let cost = 0;
  let sent = 0;
  const current = () => {
    if (update === undefined || dirty) {
      const before = process.cpuUsage();
      dirty = false;
      update = JSON.stringify(liveUpdate(state.view()));
      const used = process.cpuUsage(before);
      cost = (used.user + used.system) / 1000;
    }
    return update;
  };
  const server =
    s.port === -1
      ? undefined
      : createServer((req, res) => {
          const path = (req.url ?? '/').split('?')[0] ?? '/';
          if (path === '/events') {
            res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
            clients.add(res);
            req.on('close', () => clients.delete(res));
            sse(res, 'update', current());
            return;
          }
          const script = scripts[path];
          if (script) {
            res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'max-age=3600' }).end(readFileSync(script));
            return;
          }
          if (path !== '/') {
            res.writeHead(404).end();
            return;
          }
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(dashboardPage(title));
        });
  if (server) {
    await listen(server, s);
    // The run keeps the process alive; a command that ends on an error must not wait for a browser.
    server.unref();
  }
  const port = server ? (server.address() as AddressInfo).port : undefined;
  const host = s.host.includes(':') ? `[${s.host}]` : s.host;
  // Once a period, what arrived since is sent, when a browser listens; never more often than ten times what building
  // an update costs, so the dashboard takes at most a tenth of a core from the process (which may host the target).
  const timer = setInterval(() => {
    const now = Date.now();
    if (!dirty || clients.size === 0 || now - sent < BUDGET_SHARE * cost) return;
    sent = now;
    const data = current();
    for (const c of clients) sse(c, 'update', data);
  }, s.periodMs);
  timer.unref();
  const dashboard: LiveDashboard = {
    url: port === undefined ? undefined : `http://${host}:${port}/`,
    env: { [LIVE_FEED_ENV]: String(s.periodMs) },
    attach(child: ChildProcess) {
      child.on('message', (m: unknown) => {
        if (isLiveFeed(m)) dashboard.take(m);
      });
    },
    take(m) {
      state.add(m);
      dirty = true;
    },
    view: () => state.view(),
    step(label) {
      state.step(label);
      dirty = true;
    },
    finish: async (reportFile) => {
      if (!finished) await dashboard.finishWith(reportFile === undefined ? undefined : readFileSync(reportFile, 'utf8'));
    },
    async finishWith(html) {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      setLiveSink(undefined);
      for (const c of clients) {
        if (html === undefined) sse(c, 'update', current());
        else sse(c, 'final', JSON.stringify({ html }));
        c.end();
      }
      if (s.exportFile && html !== undefined) {
        mkdirSync(dirname(s.exportFile), { recursive: true });
        writeFileSync(s.exportFile, html);
      }
      if (server) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      }
    },
  };
  setLiveSink(dashboard);
  if (s.open && dashboard.url) {
    const { openInBrowser } = await import('./browser.js');
    openInBrowser(dashboard.url);
  }
  return dashboard;
}
