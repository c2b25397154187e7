/**
 * A TCP proxy in front of the shared PostgreSQL server that a test can cut: to the companion it
 * is the database going away — open connections reset, new ones refused — without stopping the
 * server everyone else on the machine uses. `restore()` listens again on the same port.
 */
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

export interface CuttableProxy {
  /** The database URL with the proxy's host and port. */
  readonly url: string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function cuttableProxy(databaseUrl: string): Promise<CuttableProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const listening = createServer((client) => {
        const database = connect(Number(target.port || 5432), target.hostname);
        const end = () => {
          client.destroy();
          database.destroy();
          sockets.delete(client);
          sockets.delete(database);
        };
        sockets.add(client).add(database);
        client.on('error', end).on('close', end);
        database.on('error', end).on('close', end);
        client.pipe(database).pipe(client);
      });
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', () => {
        port = (listening.address() as AddressInfo).port;
        server = listening;
        resolve();
      });
    });

  const cut = () =>
    new Promise<void>((resolve) => {
      const closing = server;
      server = undefined;
      if (!closing) return resolve();
      closing.close(() => resolve());
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    });

  await listen();
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return { url: url.toString(), cut, restore: listen, close: cut };
}
