/**
 * The load generator's HTTP client: node:http over keep-alive connections, so a measured
 * request is one round trip on an open socket — not a TCP handshake, and not the extra
 * microseconds of fetch's stream machinery, which would blur a 1 ms budget.
 */
import { Agent, request } from 'node:http';

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export class LoopbackClient {
  readonly #agent: Agent;

  /** `connections`: how many sockets stay open to each server. */
  constructor(connections = 16) {
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections, keepAliveMsecs: 30_000 });
  }

  /**
   * One request. A keep-alive socket the server closed just as it was reused fails with
   * ECONNRESET before anything was processed; such a request is sent once more on a new one.
   */
  async send(method: string, url: string, body?: string, headers: Record<string, string> = {}): Promise<Reply> {
    try {
      return await this.#send(method, url, body, headers);
    } catch (error) {
      if (!(error as { reusedSocket?: boolean }).reusedSocket) throw error;
      return this.#send(method, url, body, headers);
    }
  }

  #send(method: string, url: string, body: string | undefined, headers: Record<string, string>): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        url,
        { method, agent: this.#agent, headers: { ...(body === undefined ? {} : { 'Content-Length': Buffer.byteLength(body) }), ...headers } },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') }));
          incoming.on('error', reject);
        },
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) =>
        reject(Object.assign(error, { reusedSocket: outgoing.reusedSocket && error.code === 'ECONNRESET' })),
      );
      outgoing.end(body);
    });
  }

  json(method: string, url: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send(method, url, payload === undefined ? undefined : JSON.stringify(payload), {
      ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    });
  }

  close(): void {
    this.#agent.destroy();
  }
}
