/**
 * Contract: what a client written from gateway-interface.md alone (in another language) meets
 * over HTTP, against a strict project — payform's client is held to the same letter.
 */
import { describe, expect, it } from 'vitest';
import { useServedSandbox } from '../testing/served.js';
import { direct } from './params.js';

const sandbox = useServedSandbox();

/** A direct purchase as a hand-written client sends it: CPAY credentials, the endpoints key, JSON. */
async function createDirect(body: Record<string, unknown>): Promise<Response> {
  const { apiKey, apiSecret, endpointsKey, posId } = sandbox.project;
  return fetch(`${sandbox.url}/api/v1/payment`, {
    method: 'POST',
    headers: { 'X-API-AUTH': `CPAY ${apiKey}:${apiSecret}`, 'X-API-KEY': endpointsKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      pos_id: posId, mode: 'direct', method: 'purchase', amount: 10.5, currency: 'UAH', description: 'Order',
      order_3ds_bypass: 'supported', cc_number: '4242424242424242', exp_month: 12, exp_year: 2030, card_cvv: '123',
      customer_fname: 'Olena', customer_lname: 'Koval', customer_phone: '+380501234567', customer_ip: '203.0.113.5',
      browser_fingerprint: {
        browserColorDepth: '24', browserScreenHeight: '1080', browserScreenWidth: '1920', browserJavaEnabled: 'false',
        browserLanguage: 'uk-UA', browserTimeZone: 'Europe/Kyiv', browserTimeZoneOffset: '-120',
        browserAcceptHeader: 'text/html', browserIpAddress: '203.0.113.5', browserUserAgent: 'Mozilla/5.0',
      },
      ...body,
    }),
  });
}

describe('customer_email, a String in the interface', () => {
  // Addresses a shopper really has: a one-letter top-level label, and an internationalised
  // address (RFC 6531), which Ukrainian mail providers hand out.
  const addresses = ['a@b.c', 'olena@пошта.укр', 'олена@приклад.укр'];

  it('is taken by a strict project in every address shape, not only ASCII ones with a long TLD', async () => {
    for (const [index, email] of addresses.entries()) {
      const response = await createDirect({ order_id: `mail-${index}`, customer_email: email });
      expect(response.status, `${email}: ${await response.clone().text()}`).toBe(200);
      expect(await response.json()).toMatchObject({ status: 'success', customer_email: email });
    }
  });

  it('is sent by payform’s client as the sandbox takes it', async () => {
    for (const email of addresses) {
      const payment = await sandbox.client().payments.create(direct(sandbox.receiver.url(), { customer_email: email }));
      expect(payment).toMatchObject({ status: 'success', customer_email: email });
    }
  });

  it('is still refused when it is no address at all, by the strict project and the client alike', async () => {
    // Control characters and bidi overrides too: they would show another address than the one kept.
    for (const email of ['unregistered', 'olena koval@example.com', 'a@@b.c', 'a\u001b[31m@b.c', 'moc.evil\u202e@b.c']) {
      const response = await createDirect({ order_id: `no-mail-${email.length}`, customer_email: email });
      expect(response.status).toBe(400);
      expect((await response.json()) as unknown).toMatchObject({ args: [{ field_name: 'customer_email', violation: 'must be an email address' }] });
      await expect(sandbox.client().payments.create(direct(sandbox.receiver.url(), { customer_email: email }))).rejects.toMatchObject({
        fields: [{ field: 'customer_email', reason: 'must be an email address' }],
      });
    }
  });
});

describe('a 400 names each refused field once', () => {
  it('an amount with three decimals, in a currency of two, is one violation, not one per check', async () => {
    const response = await createDirect({ order_id: 'three-decimals', customer_email: 'olena@example.com', amount: 10.123 });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { args: unknown }).args).toEqual([{ field_name: 'amount', violation: 'must have at most 2 decimal digits' }]);
  });
});
