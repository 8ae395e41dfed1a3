// What every stand-in does with its servers: each on a free port of 127.0.0.1, and all closed together.
import type { AddressInfo } from 'node:net';

interface Listening {
  listen(port: number, host: string, cb: () => void): unknown;
  address(): AddressInfo | string | null;
  close(cb: () => void): unknown;
}

/** Listens on a free port of 127.0.0.1 and gives the port. */
export const onFreePort = (s: Listening) => new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as AddressInfo).port)));

/** Closes every server and waits until each has. */
export const closeAll = (servers: readonly Listening[]) => Promise.all(servers.map((s) => new Promise<void>((r) => s.close(() => r()))));
