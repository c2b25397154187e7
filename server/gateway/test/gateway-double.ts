/**
 * A real HTTP server on 127.0.0.1 that stands in for the gateway in the client's tests: it
 * records every request as it arrived (method, path, headers, raw body) and plays back the
 * answers a test programs — including dropped connections and answers that never come — so
 * headers, redirects and timeouts go through Node's real HTTP stack.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  readonly method: string;
  /** Path with query string, as sent. */
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as received. */
  readonly body: string;
}

export type ProgrammedAnswer =
  | {
      readonly status?: number;
      readonly headers?: Readonly<Record<string, string>>;
      /** An object is sent as JSON; a string or bytes as they are. */
      readonly body?: unknown;
    }
  /** Destroys the connection after reading the request. */
  | { readonly drop: true }
  /** Never answers (until the double closes). */
  | { readonly hang: true };

export class GatewayDouble {
  readonly requests: RecordedRequest[] = [];
  readonly #server: Server;
  readonly #queue: ProgrammedAnswer[] = [];
  #fallback: ProgrammedAnswer = { status: 599, body: { message: 'no answer programmed' } };

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<GatewayDouble> {
    const server = createServer();
    const double = new GatewayDouble(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        double.requests.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        double.#play(double.#queue.shift() ?? double.#fallback, response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return double;
  }

  /** Base URL of the double, e.g. http://127.0.0.1:41234 */
  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Answers to the next requests, in order. */
  answer(...answers: ProgrammedAnswer[]): this {
    this.#queue.push(...answers);
    return this;
  }

  /** The answer once the programmed ones are used up. */
  answerAlways(answer: ProgrammedAnswer): this {
    this.#fallback = answer;
    return this;
  }

  /** The only request recorded; fails when there were more or none. */
  get onlyRequest(): RecordedRequest {
    if (this.requests.length !== 1) throw new Error(`expected one request, got ${this.requests.length}`);
    return this.requests[0] as RecordedRequest;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.#server.close((error) => (error ? reject(error) : resolve())));
  }

  #play(answer: ProgrammedAnswer, response: ServerResponse): void {
    if ('drop' in answer) {
      response.socket?.destroy();
      return;
    }
    if ('hang' in answer) return;
    const { status = 200, headers = {}, body } = answer;
    const isJson = body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array);
    const payload = isJson ? JSON.stringify(body) : (body as string | Uint8Array | undefined);
    response.writeHead(status, { ...(isJson ? { 'content-type': 'application/json' } : {}), ...headers });
    response.end(payload);
  }
}
