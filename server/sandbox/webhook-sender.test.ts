/**
 * What the webhook sender logs of a receiver it cannot reach: once per URL at the first failed
 * attempt, with the cause in words and the way out, not once per retry; the last cause on the
 * give-up line; and the validation_url preflight said as the preflight that declined a payment.
 * Real sockets: the causes are the network's (nothing listening, TLS to a plain server, a
 * certificate for another host or not trusted, a redirect).
 */
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveCertifiedElsewhere } from '../gateway/test/certificate.js';
import { SandboxClock, Scheduler } from './clock.js';
import { DEFAULT_WEBHOOKS } from './config.js';
import type { WebhookSettings } from './config.js';
import { WebhookSender } from './webhook-sender.js';
import type { WebhookMessage } from './webhook-sender.js';

let receiver: Server;
let base: string;
/** A port nothing listens on: taken, then let go. */
let closedPort: number;
/** Whether /flaky answers 500 (else 204). */
let flakyFails = true;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    request.resume();
    if (request.url === '/moved') response.writeHead(308, { Location: '/hooks/gateway' }).end();
    else if (request.url === '/choices') response.writeHead(300).end();
    else if (request.url === '/locked') response.writeHead(request.headers.authorization ? 204 : 401).end();
    else if (request.url === '/broken' || (request.url === '/flaky' && flakyFails)) response.writeHead(500).end();
    else response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const spare = createServer();
  await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
  closedPort = (spare.address() as AddressInfo).port;
  await new Promise<void>((resolve) => spare.close(() => resolve()));
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function sender(settings: Partial<WebhookSettings> = {}, fetch?: typeof globalThis.fetch) {
  const lines: string[] = [];
  const clock = new SandboxClock({ frozen: true, start: new Date('2026-03-02T10:00:00.000Z') });
  const scheduler = new Scheduler(clock, (error) => lines.push(`task failed: ${String(error)}`));
  const webhooks = new WebhookSender({
    settings: { ...DEFAULT_WEBHOOKS, ...settings },
    clock,
    scheduler,
    fetch,
    faults: () => ({ duplicates: 0, delayMs: 0, reorder: false, shape: undefined }),
    log: (line) => lines.push(line),
  });
  /** Runs what is due after moving the clock on, and waits for the attempts. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    scheduler.runDue();
    await webhooks.settle();
  };
  return { webhooks, lines, advance, stop: () => scheduler.stop() };
}

const message = (target: string, orderId = 'order-1', reason: WebhookMessage['reason'] = 'status_change'): WebhookMessage => ({
  target,
  event: { method: 'purchase', status: 'success', order_id: orderId, pos_id: '5d1c2a8e-3f47-4b6a-9e0d-7c4b2f8a6e15' },
  apiSecret: 'sandbox-test-api-secret-32-bytes',
  reason,
  cause: undefined,
});

describe('a webhook that cannot be delivered', () => {
  it('is logged at its first failed attempt, once for its URL, with the cause, the retries and where to see them', async () => {
    const { webhooks, lines, advance, stop } = sender();
    try {
      const target = `http://127.0.0.1:${closedPort}/webhooks/gateway`;
      webhooks.send(message(target, 'order-1'));
      webhooks.send(message(target, 'order-2'));
      await advance(0);
      expect(lines).toEqual([
        `webhook purchase for order order-1 to ${target} failed: nothing is listening at 127.0.0.1:${closedPort} (ECONNREFUSED): is the receiver running, on that port?; retried 6 more times over 43 min (said again only once this URL has answered 2xx; each attempt at GET /_sandbox/webhooks)`,
      ]);
      // The retries say nothing more until the last, which gives up naming the cause.
      for (const delay of DEFAULT_WEBHOOKS.retryDelaysMs.slice(0, -1)) await advance(delay);
      expect(lines).toHaveLength(1);
      await advance(DEFAULT_WEBHOOKS.retryDelaysMs.at(-1)!);
      expect(lines.slice(1)).toEqual([
        `webhook purchase for order order-1 to ${target} given up after 7 attempts: nothing is listening at 127.0.0.1:${closedPort} (ECONNREFUSED): is the receiver running, on that port?`,
        `webhook purchase for order order-2 to ${target} given up after 7 attempts: nothing is listening at 127.0.0.1:${closedPort} (ECONNREFUSED): is the receiver running, on that port?`,
      ]);
    } finally {
      stop();
    }
  });

  it('says an address the sandbox’s network does not reach as such, not as a bare code', async () => {
    const unreachable = Object.assign(new Error('connect EHOSTUNREACH 10.255.0.1:80'), { code: 'EHOSTUNREACH' });
    const { webhooks, lines, advance, stop } = sender({}, () => Promise.reject(new TypeError('fetch failed', { cause: unreachable })));
    try {
      webhooks.send(message('http://10.255.0.1/hooks'));
      await advance(0);
      expect(lines).toEqual([expect.stringContaining("failed: 10.255.0.1:80 cannot be reached from the sandbox (EHOSTUNREACH): check the address of server_url")]);
    } finally {
      stop();
    }
  });

  it('says a receiver that resets the connection may have crashed, before guessing at https', async () => {
    const resetting = createNetServer((socket) => socket.on('data', () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => resetting.listen(0, '127.0.0.1', resolve));
    const { port } = resetting.address() as AddressInfo;
    const { webhooks, lines, advance, stop } = sender();
    try {
      webhooks.send(message(`http://127.0.0.1:${port}/hooks`));
      await advance(0);
      expect(lines).toEqual([
        expect.stringContaining(
          `failed: 127.0.0.1:${port} closed the connection without answering (ECONNRESET): did the receiver crash or restart, or is it an https server reached with http://? then give server_url with https://; retried 6`,
        ),
      ]);
    } finally {
      stop();
      await new Promise<void>((resolve) => resetting.close(() => resolve()));
    }
  });

  it('says a redirect is not followed and names the final URL; a status that is not 2xx; TLS to a plain server', async () => {
    const { webhooks, lines, advance, stop } = sender();
    try {
      webhooks.send(message(`${base}/moved`));
      webhooks.send(message(`${base}/broken`));
      webhooks.send(message(`${base.replace('http:', 'https:')}/hooks`));
      await advance(0);
      expect(lines).toEqual([
        expect.stringContaining(`to ${base}/moved failed: it answered HTTP 308, a redirect to ${base}/hooks/gateway: redirects are not followed, so give the final URL as server_url; retried 6`),
        expect.stringContaining(`to ${base}/broken failed: it answered HTTP 500; only a 2xx answer counts as received; retried 6`),
        expect.stringMatching(/failed: the TLS handshake with 127\.0\.0\.1:\d+ failed \(ERR_SSL_[A-Z_]+\): a plain-HTTP receiver reached with https:\/\/\? give server_url with http:\/\/; retried 6/),
      ]);
    } finally {
      stop();
    }
  });

  it('takes only a 2xx as received: a 300 answer is retried, not delivered', async () => {
    const { webhooks, lines, advance, stop } = sender();
    try {
      webhooks.send(message(`${base}/choices`));
      await advance(0);
      expect(lines).toEqual([expect.stringContaining(`to ${base}/choices failed: it answered HTTP 300`)]);
      expect(lines[0]).toContain('retried 6');
    } finally {
      stop();
    }
  });

  it('keeps a password in the URL out of the log, and says a receiver refusing it that the password is not sent', async () => {
    const { webhooks, lines, advance, stop } = sender();
    try {
      // A PHP shop's receiver behind HTTP basic authentication, its password in server_url.
      const withPassword = base.replace('http://', 'http://shop:s3cret-pw@');
      webhooks.send(message(`${withPassword}/locked`));
      webhooks.send(message(`${withPassword}/broken`, 'order-2'));
      webhooks.send(message(`${withPassword}/moved`, 'order-3'));
      await advance(0);
      const shown = base.replace('http://', 'http://shop:***@');
      expect(lines).toEqual([
        `webhook purchase for order order-1 to ${shown}/locked failed: it answered HTTP 401; only a 2xx answer counts as received: the user name and password in server_url are not sent (webhooks carry no Authorization header; the interface authenticates them by their signature), so let the receiver check the signature instead; retried 6 more times over 43 min (said again only once this URL has answered 2xx; each attempt at GET /_sandbox/webhooks)`,
        expect.stringContaining(`to ${shown}/broken failed: it answered HTTP 500; only a 2xx answer counts as received; retried 6`),
        expect.stringContaining(`to ${shown}/moved failed: it answered HTTP 308, a redirect to ${shown}/hooks/gateway: redirects are not followed`),
      ]);
      expect(lines.join('\n')).not.toContain('s3cret-pw');
    } finally {
      stop();
    }
  });

  it('posts through a given fetch without the user name and password of the URL, as over the pools, and keeps the password out of the log', async () => {
    // Node's fetch refuses a URL with credentials, quoting it; Bun's sends them: neither is what the pools do.
    const { webhooks, lines, advance, stop } = sender({}, globalThis.fetch);
    try {
      webhooks.send(message(`${base.replace('http://', 'http://shop:s3cret-pw@')}/locked`));
      await advance(0);
      expect(lines).toEqual([expect.stringContaining(`to ${base.replace('http://', 'http://shop:***@')}/locked failed: it answered HTTP 401; only a 2xx answer counts as received: the user name and password in server_url are not sent`)]);
      expect(webhooks.list()[0]!.attempts).toMatchObject([{ http_status: 401 }]);
      expect(lines.join('\n')).not.toContain('s3cret-pw');
    } finally {
      stop();
    }
  });

  it('says a TLS certificate for another host as such, and one not trusted as such', async () => {
    const elsewhere = await serveCertifiedElsewhere();
    // The sandbox trusting the receiver's certificate (NODE_EXTRA_CA_CERTS): its host name is what is wrong.
    const trusting = sender({}, elsewhere.fetch);
    const untrusting = sender();
    try {
      trusting.webhooks.send(message(`${elsewhere.url}/hooks`));
      untrusting.webhooks.send(message(`${elsewhere.url}/hooks`));
      await Promise.all([trusting.advance(0), untrusting.advance(0)]);
      expect(trusting.lines).toEqual([
        expect.stringContaining(
          "failed: the receiver's TLS certificate is for other hosts than 127.0.0.1 (ERR_TLS_CERT_ALTNAME_INVALID): give server_url with a host name the certificate names; retried 6",
        ),
      ]);
      expect(untrusting.lines).toEqual([
        expect.stringContaining(
          "failed: the receiver's TLS certificate is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT): give the sandbox its CA with NODE_EXTRA_CA_CERTS=<file>, or a local receiver as http://; retried 6",
        ),
      ]);
    } finally {
      trusting.stop();
      untrusting.stop();
      await elsewhere.close();
    }
  });

  it('says a receiver’s expired certificate as out of date, not as a CA to give', async () => {
    const lapsed = await serveCertifiedElsewhere('127.0.0.1', { expired: true });
    const trusting = sender({}, lapsed.fetch);
    try {
      trusting.webhooks.send(message(`${lapsed.url}/hooks`));
      await trusting.advance(0);
      expect(trusting.lines).toEqual([
        expect.stringContaining("failed: the receiver's TLS certificate has expired or is not yet valid (CERT_HAS_EXPIRED): renew it, or check this machine's clock; retried 6"),
      ]);
    } finally {
      trusting.stop();
      await lapsed.close();
    }
  });

  it('is said again for a URL that fails after a delivery to it succeeded, and not for another URL’s success', async () => {
    const { webhooks, lines, advance, stop } = sender({ retryDelaysMs: [1_000] });
    try {
      flakyFails = true;
      webhooks.send(message(`${base}/flaky`, 'order-1'));
      await advance(0);
      webhooks.send(message(`${base}/fine`, 'order-2'));
      webhooks.send(message(`${base}/flaky`, 'order-3'));
      await advance(0);
      expect(lines.map((line) => line.replace(/ to .*/, ''))).toEqual(['webhook purchase for order order-1']);
      flakyFails = false;
      await advance(1_000);
      flakyFails = true;
      webhooks.send(message(`${base}/flaky`, 'order-4'));
      await advance(0);
      expect(lines.map((line) => line.replace(/ to .*/, ''))).toEqual(['webhook purchase for order order-1', 'webhook purchase for order order-4']);
      expect(lines[1]).toContain('failed: it answered HTTP 500; only a 2xx answer counts as received; retried 1 more time over 1 s');
    } finally {
      flakyFails = false;
      stop();
    }
  });

  it('a failed validation_url preflight is said as the preflight that declined the payment, once for its URL', async () => {
    const { webhooks, lines, stop } = sender();
    try {
      const target = `http://127.0.0.1:${closedPort}/validate`;
      expect(await webhooks.preflight(message(target, 'order-1', 'validation'))).toBe(false);
      expect(await webhooks.preflight(message(target, 'order-2', 'validation'))).toBe(false);
      expect(lines).toEqual([
        `validation_url preflight for order order-1 to ${target} failed: nothing is listening at 127.0.0.1:${closedPort} (ECONNREFUSED): is the receiver running, on that port?; the payment was declined for it (4153), as every payment will be until it answers 2xx (said once; each post at GET /_sandbox/webhooks)`,
      ]);
      // Said again once it answered and then failed.
      expect(await webhooks.preflight(message(`${base}/moved`, 'order-3', 'validation'))).toBe(false);
      expect(lines[1]).toContain('it answered HTTP 308, a redirect to');
      expect(lines[1]).toContain('give the final URL as validation_url');
    } finally {
      stop();
    }
  });
});
