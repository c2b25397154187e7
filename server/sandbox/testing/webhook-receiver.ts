/**
 * An independent webhook receiver for the contract tests: a plain node:http server that keeps
 * every form post and checks its signature with its own code — sha1 over secret + data +
 * secret, base64 with the URL-safe alphabet and padding kept — not with the shared helper the
 * sandbox signs with, so a mistake in that helper cannot hide itself.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  readonly path: string;
  readonly contentType: string;
  readonly data: string;
  readonly signature: string;
  /** Whether the signature is the one the interface prescribes for this data and secret. */
  readonly signatureValid: boolean;
  readonly event: Record<string, unknown>;
  /** The status this receiver answered. */
  readonly answered: number;
}

export function interfaceSignature(data: string, secret: string): string {
  return createHash('sha1').update(secret + data + secret, 'utf8').digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

function decodeData(data: string): Record<string, unknown> {
  const base64 = data.replace(/-/g, '+').replace(/_/g, '/');
  return JSON.parse(Buffer.from(base64, 'base64').toString('utf8')) as Record<string, unknown>;
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  readonly #server: Server;
  readonly #secret: string;
  #answers: number[] = [];

  private constructor(server: Server, secret: string) {
    this.#server = server;
    this.#secret = secret;
  }

  static async start(secret: string): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server, secret);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        const data = form.get('data') ?? '';
        const signature = form.get('signature') ?? '';
        const answered = receiver.#answers.shift() ?? 200;
        receiver.received.push({
          path: request.url ?? '',
          contentType: request.headers['content-type'] ?? '',
          data,
          signature,
          signatureValid: signature === interfaceSignature(data, receiver.#secret),
          event: decodeData(data),
          answered,
        });
        response.writeHead(answered, { 'Content-Type': 'text/plain' }).end(answered < 300 ? 'accepted' : 'try again');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** Where to send webhooks, e.g. as server_url. */
  url(path = '/webhooks'): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  /** Statuses to answer the next posts with, in order; 200 afterwards. */
  answer(...statuses: number[]): void {
    this.#answers.push(...statuses);
  }

  events(orderId: string): Record<string, unknown>[] {
    return this.received.filter((webhook) => webhook.event.order_id === orderId).map((webhook) => webhook.event);
  }

  /** Waits until `count` webhooks for the order have arrived (polling; fails after `timeoutMs`). */
  async waitFor(orderId: string, count: number, timeoutMs = 5_000): Promise<Record<string, unknown>[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.events(orderId).length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhooks for ${orderId}, got ${this.events(orderId).length}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.events(orderId);
  }

  reset(): void {
    this.received.length = 0;
    this.#answers = [];
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) => this.#server.close((error) => (error ? reject(error) : resolve())));
  }
}
