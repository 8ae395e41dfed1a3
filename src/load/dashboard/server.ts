// The live dashboard's server on the dialtone process: the page, and its server-sent events (one `update` a period
// while the engine feeds it, one `final` with the report page at the end). It renders at most once a period and only
// while a browser listens, so the run's own process spends nothing per sample and little per period.
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { isLiveFeed, LIVE_FEED_ENV } from '../../core/live-feed.js';
import { EnvironmentError } from '../../errors.js';
import { dashboardPage, liveSection } from './page.js';
import type { DashboardSettings } from './settings.js';
import { type LiveSink, setLiveSink } from './sink.js';
import { LiveState } from './state.js';

/** An open live dashboard. */
export interface LiveDashboard extends LiveSink {
  /** Where a browser opens it; undefined with port -1. */
  readonly url: string | undefined;
  /** Puts the report page (its HTML file) in place of the live section, writes the export, and closes. */
  finish(reportFile: string | undefined): Promise<void>;
}

const sse = (res: ServerResponse, event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

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
  let section: string | undefined;
  let dirty = true;
  let rendering: Promise<void> | undefined;
  let finished = false;
  const render = async () => {
    dirty = false;
    section = await liveSection(state.view());
  };
  const current = async () => {
    await rendering;
    if (section === undefined || dirty) await render();
    return section as string;
  };
  const server =
    s.port === -1
      ? undefined
      : createServer((req, res) => {
          const path = (req.url ?? '/').split('?')[0];
          if (path === '/events') {
            res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
            clients.add(res);
            req.on('close', () => clients.delete(res));
            void current().then((html) => sse(res, 'update', { html }));
            return;
          }
          if (path !== '/') {
            res.writeHead(404).end();
            return;
          }
          void current().then((html) =>
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(dashboardPage(title, html)),
          );
        });
  if (server) {
    await listen(server, s);
    // The run keeps the process alive; a command that ends on an error must not wait for a browser.
    server.unref();
  }
  const port = server ? (server.address() as AddressInfo).port : undefined;
  const host = s.host.includes(':') ? `[${s.host}]` : s.host;
  // Once a period, what arrived since is drawn and sent, when a browser listens and the last drawing is done.
  const timer = setInterval(() => {
    if (!dirty || clients.size === 0 || rendering) return;
    rendering = render()
      .then(() => {
        for (const c of clients) sse(c, 'update', { html: section });
      })
      .finally(() => {
        rendering = undefined;
      });
  }, s.periodMs);
  timer.unref();
  const dashboard: LiveDashboard = {
    url: port === undefined ? undefined : `http://${host}:${port}/`,
    env: { [LIVE_FEED_ENV]: String(s.periodMs) },
    attach(child: ChildProcess) {
      child.on('message', (m: unknown) => {
        if (!isLiveFeed(m)) return;
        state.add(m);
        dirty = true;
      });
    },
    step(label) {
      state.step(label);
      dirty = true;
    },
    async finish(reportFile) {
      if (finished) return;
      finished = true;
      clearInterval(timer);
      setLiveSink(undefined);
      await rendering;
      const html = reportFile === undefined ? dashboardPage(title, await render().then(() => section as string)) : readFileSync(reportFile, 'utf8');
      for (const c of clients) {
        sse(c, 'final', { html });
        c.end();
      }
      if (s.exportFile) {
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
  return dashboard;
}
