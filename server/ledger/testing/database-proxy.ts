/**
 * A TCP proxy in front of the shared PostgreSQL server, for a test to take the database away from
 * one ledger without stopping the server every other test uses: `cut` as a stopped server (every
 * connection reset, new ones refused) until `restore`; `hold` as a cut network (nothing passes
 * either way, new connections taken and never answered).
 */
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';

export interface DatabaseProxy {
  /** The database URL with the proxy's host and port. */
  readonly url: string;
  cut(): void;
  restore(): void;
  hold(): void;
  close(): Promise<void>;
}

export async function databaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let cut = false;
  let held = false;
  const server: Server = createServer((client) => {
    client.on('error', () => client.destroy());
    if (cut) return void client.destroy();
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (held) return;
    const database = connect(Number(target.port || 5432), target.hostname);
    sockets.add(database);
    database.on('close', () => sockets.delete(database));
    database.on('error', () => client.destroy());
    // Chunk by chunk rather than piped: a hold stops them where they are.
    client.on('data', (chunk) => held || database.write(chunk));
    database.on('data', (chunk) => held || client.write(chunk));
    client.on('end', () => database.end());
    database.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: url.toString(),
    cut() {
      cut = true;
      dropAll();
    },
    restore: () => (cut = false),
    hold: () => (held = true),
    close() {
      dropAll();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
