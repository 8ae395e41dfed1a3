// The corpus's remote-module server: HTTPS on 127.0.0.1 (a free port) with a certificate the project makes
// (src/reference-target/tls.ts), serving the modules under tests/k6-corpus/remote/ as a CDN serves jslib's, and
// counting what it served, so a test can tell a module fetched from one read from the cache.
//
//   /NAME/VERSION/…          the file under remote/, as JavaScript
//   /NAME/latest/…           302 to /NAME/1.0.0/… (a moving version, as CDNs redirect)
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { makeTlsMaterial } from '../../src/reference-target/tls.js';

const ROOT = join(import.meta.dirname, 'remote');

export interface ModuleServer {
  /** 127.0.0.1:PORT, the host part of the modules' URLs. */
  readonly host: string;
  /** The CA a client must trust, PEM. */
  readonly ca: string;
  /** Every path asked for, in order. */
  readonly served: string[];
  close(): Promise<void>;
}

export async function startModuleServer(): Promise<ModuleServer> {
  const tls = await makeTlsMaterial(1);
  const served: string[] = [];
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://x').pathname;
    served.push(path);
    const latest = /^\/([\w-]+)\/latest\/(.*)$/.exec(path);
    if (latest) {
      res.writeHead(302, { location: `/${latest[1]}/1.0.0/${latest[2]}` }).end();
      return;
    }
    const file = normalize(join(ROOT, path));
    try {
      if (!file.startsWith(ROOT)) throw new Error('outside');
      res.writeHead(200, { 'content-type': 'application/javascript' }).end(readFileSync(file));
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    ca: tls.ca,
    served,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
