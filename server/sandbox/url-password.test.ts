/**
 * A password in a URL the merchant sends (`server_url` of a receiver behind HTTP basic
 * authentication), served over HTTP: the sandbox shows it as `***` wherever a reader sees it —
 * GET /_sandbox/webhooks, GET /_sandbox/requests, the inspector page — as its log does, and still
 * posts the webhook to the URL as given.
 */
import { describe, expect, it } from 'vitest';
import { authHeaderValue } from '@payform/gateway/wire';
import { direct } from './contract/params.js';
import { directPayment } from './testing/in-process.js';
import { useServedSandbox } from './testing/served.js';

const sandbox = useServedSandbox();

const PASSWORD = 's3cret-pw';
/** The receiver's URL with a user name and password, and the same as the sandbox shows it. */
const withPassword = () => sandbox.receiver.url('/webhooks/gateway').replace('http://', `http://shop:${PASSWORD}@`);
const shown = () => sandbox.receiver.url('/webhooks/gateway').replace('http://', 'http://shop:***@');

/** A payment to a receiver whose server_url carries a password, once its webhook has arrived. */
async function paidWithPasswordUrl(): Promise<string> {
  const payment = await sandbox.client().payments.create(direct(withPassword()));
  await sandbox.receiver.waitFor(payment.order_id, 1);
  return payment.order_id;
}

async function text(path: string, accept = 'application/json'): Promise<string> {
  const answer = await fetch(sandbox.url + path, { headers: { Accept: accept } });
  expect(answer.status).toBe(200);
  return answer.text();
}

describe('a password in server_url', () => {
  it('is masked in GET /_sandbox/webhooks, while the webhook is still posted to the URL as given', async () => {
    const orderId = await paidWithPasswordUrl();

    const [received] = sandbox.receiver.received;
    expect(received).toMatchObject({ path: '/webhooks/gateway', signatureValid: true, event: expect.objectContaining({ order_id: orderId }) });
    // The delivery keeps the URL as the merchant gave it: that is what it posts to.
    expect(sandbox.app.sandbox.gateway.webhooks.list().map((delivery) => delivery.target)).toEqual([withPassword()]);

    const listed = await text(`/_sandbox/webhooks?order_id=${orderId}`);
    expect(listed).not.toContain(PASSWORD);
    expect(JSON.parse(listed)).toEqual({ deliveries: [expect.objectContaining({ target: shown(), status: 'delivered' })], cursor: expect.any(Number), more: false });
  });

  it('is masked in GET /_sandbox/requests: the recorded body and query, and the webhook the request caused', async () => {
    await paidWithPasswordUrl();
    // A control-plane command's server_url, and one sent in a query, are recorded the same way.
    await sandbox.control('POST', '/_sandbox/credits', { order_id: 'credit-1', amount_minor: 500, currency: 'UAH', server_url: withPassword() });
    await fetch(`${sandbox.url}/api/v1/payment?server_url=${encodeURIComponent(withPassword())}`, { method: 'POST' });

    const listed = await text('/_sandbox/requests');
    expect(listed).not.toContain(PASSWORD);
    const { requests } = JSON.parse(listed) as { requests: { path: string; query: object; body: object; webhooks: object[] }[] };
    const [query, credit, payment] = requests;
    expect(query?.query).toEqual({ server_url: shown() });
    expect(credit?.body).toMatchObject({ server_url: shown() });
    expect(payment?.body).toMatchObject({ server_url: shown() });
    expect(payment?.webhooks).toEqual([expect.objectContaining({ target: shown(), status: 'delivered' })]);
  });

  it('is masked on the inspector page and in the list it refreshes itself from', async () => {
    await paidWithPasswordUrl();

    for (const path of ['/_sandbox', '/_sandbox/requests?format=html']) {
      const page = await text(path, 'text/html');
      expect(page).not.toContain(PASSWORD);
      expect(page).toContain(`purchase success → <code>${shown()}</code> · delivered`);
    }
  });

  it('that does not read as a URL is refused, and the inspector and the control plane go on answering', async () => {
    await paidWithPasswordUrl();
    const unreadable = `http://shop:${PASSWORD}@not a host/webhooks`;
    // Sent as it is: payform's client would refuse it before sending.
    const refusal = await fetch(`${sandbox.url}/api/v1/payment`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-API-AUTH': authHeaderValue(sandbox.project.apiKey, sandbox.project.apiSecret), 'X-API-KEY': sandbox.project.endpointsKey },
      body: JSON.stringify(directPayment(sandbox.project, { server_url: unreadable })),
    });
    expect(refusal.status).toBe(400);

    const listed = await text('/_sandbox/requests');
    const [refused, paid] = (JSON.parse(listed) as { requests: { status: number; body: { server_url: string } }[] }).requests;
    // Not a URL, it has no password to mask: kept as written, as the log would.
    expect(refused).toMatchObject({ status: 400, body: { server_url: unreadable } });
    expect(paid?.body.server_url).toBe(shown());
    expect(await text('/_sandbox/webhooks')).not.toContain(PASSWORD);
    expect(await text('/_sandbox', 'text/html')).toContain(shown());
  });
});
