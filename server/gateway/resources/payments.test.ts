import { describe, expect, it } from 'vitest';
import { DuplicateOrderError, InvalidRequestError, OutcomeUnknownError } from '../errors.js';
import { minorUnits } from '../money.js';
import { useGatewayDouble } from '../test/client-setup.js';
import * as samples from '../test/samples.js';
import type { DirectPaymentParams, HostedPaymentParams } from './payments.js';

const double = useGatewayDouble();

const direct = {
  mode: 'direct',
  method: 'purchase',
  amount: minorUnits(1010),
  currency: 'UAH',
  description: 'Order 1001',
  order_id: 'order-1001',
  ...samples.card,
  customer_fname: 'Olena',
  customer_lname: 'Koval',
  customer_email: 'olena@example.com',
  customer_phone: '+380501234567',
  customer_ip: '203.0.113.7',
  browser_fingerprint: samples.fingerprint,
  server_url: 'https://shop.example/webhooks/gateway',
} satisfies DirectPaymentParams;

const hosted = {
  mode: 'hosted',
  method: 'auth',
  amount: minorUnits(25000),
  currency: 'UAH',
  description: 'Order 1002',
  order_id: 'order-1002',
  customer_email: 'olena@example.com',
  customer_phone: '+380501234567',
  customer_lang: 'UK',
  order_timeout: 900,
} satisfies HostedPaymentParams;

describe('payments.create — direct', () => {
  it('posts the JSON body with exact decimals and both authentication headers', async () => {
    double.gateway.answer({ body: samples.paymentResponse });
    await double.client().payments.create(direct);

    const request = double.gateway.onlyRequest;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/v1/payment');
    expect(request.headers['x-api-auth']).toBe('CPAY test-key:test-secret');
    expect(request.headers['x-api-key']).toBe('test-endpoints-key');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toContain('"amount":10.1,');
    expect(JSON.parse(request.body)).toEqual({
      ...direct,
      pos_id: samples.POS_ID,
      amount: 10.1,
      order_3ds_bypass: 'supported',
    });
  });

  it('returns the payment in minor units with the update time under processed_at', async () => {
    double.gateway.answer({ body: { ...samples.paymentResponse, processed_at: undefined, processing_time: '2025-03-01T10:00:01', status_code: 2122, unknown_field: 'kept' } });
    const payment = await double.client().payments.create(direct);
    expect(payment).toMatchObject({
      payment_id: samples.PAYMENT_ID,
      amount: minorUnits(1010),
      currency: 'UAH',
      status: 'pending',
      status_code: '2122',
      user_action_required: true,
      user_action_url: 'https://gateway.example/3ds/a0e6c3f2',
      processed_at: '2025-03-01T10:00:01',
      fee: { amount: 25, currency: 'UAH' },
      fixed_fee: { amount: 10, currency: 'UAH' },
      percent_fee: { amount: 15, currency: 'UAH' },
      unknown_field: 'kept',
    });
    expect(payment).not.toHaveProperty('processing_time');
  });

  it('counts a fee in its own currency\'s minor units, not the payment\'s', async () => {
    // A UAH payment charged a fee in yen (no minor unit) and one in dinars (three digits).
    double.gateway.answer({ body: { ...samples.paymentResponse, fee: { amount: 25, currency: 'JPY' }, fixed_fee: { amount: 0.25, currency: 'KWD' } } });
    const payment = await double.client().payments.create(direct);
    expect(payment).toMatchObject({ amount: 1010, currency: 'UAH', fee: { amount: 25, currency: 'JPY' }, fixed_fee: { amount: 250, currency: 'KWD' } });
  });

  it('reads a payment whose fee is finer than the minor unit, keeping that fee as sent instead of losing the outcome', async () => {
    // The interface states no precision for fees: 1.5 % of 10.10 UAH is 0.1515.
    const percentFee = { amount: 0.1515, currency: 'UAH' };
    double.gateway.answer({ body: { ...samples.paymentResponse, status: 'success', status_code: '1000', percent_fee: percentFee } });
    const payment = await double.client().payments.create(direct);
    expect(payment).toMatchObject({ status: 'success', amount: 1010, fee: { amount: 25, currency: 'UAH' }, percent_fee_as_sent: percentFee });
    expect(payment).not.toHaveProperty('percent_fee');
  });

  it('sends an explicit order_3ds_bypass and a cc_token payment', async () => {
    double.gateway.answer({ body: samples.paymentResponse });
    const { cc_number: _n, exp_month: _m, exp_year: _y, card_cvv: _c, ...withoutCard } = direct;
    await double.client().payments.create({ ...withoutCard, cc_token: 'rcr:wallet-token', order_3ds_bypass: 'always' });
    const body = JSON.parse(double.gateway.onlyRequest.body) as Record<string, unknown>;
    expect(body).toMatchObject({ cc_token: 'rcr:wallet-token', order_3ds_bypass: 'always' });
    expect(body).not.toHaveProperty('cc_number');
  });

  it('returns a decline as a result, not an exception', async () => {
    double.gateway.answer({ body: { ...samples.paymentResponse, status: 'failure', status_code: '4153', status_description: 'Transaction rejected', user_action_required: false } });
    const payment = await double.client().payments.create(direct);
    expect(payment.status).toBe('failure');
    expect(payment.status_code).toBe('4153');
  });

  it('sends a direct lookup with optional card data', async () => {
    double.gateway.answer({ body: { ...samples.paymentResponse, method: 'lookup', amount: 1 } });
    const lookup = await double.client().payments.create({
      mode: 'direct', method: 'lookup', amount: 100, currency: 'UAH', description: 'Card check', order_id: 'lookup-1',
      browser_fingerprint: samples.fingerprint,
    });
    expect(lookup.amount).toBe(100);
    expect(JSON.parse(double.gateway.onlyRequest.body)).toMatchObject({ method: 'lookup', amount: 1 });
  });
});

describe('payments.create — hosted', () => {
  it('reads the 303 Location without following it', async () => {
    const checkout = `${double.gateway.url}/api/v1/checkout/ck_123/form`;
    double.gateway.answer({ status: 303, headers: { location: checkout } });
    const result = await double.client().payments.create(hosted);
    expect(result).toEqual({ order_id: 'order-1002', checkout_url: checkout });
    expect(double.gateway.requests).toHaveLength(1); // the checkout page was not fetched
    expect(JSON.parse(double.gateway.onlyRequest.body)).toEqual({ ...hosted, pos_id: samples.POS_ID, amount: 250, order_3ds_bypass: 'supported' });
  });

  it('resolves a relative Location against the gateway', async () => {
    double.gateway.answer({ status: 303, headers: { location: '/api/v1/checkout/ck_9/form' } });
    const result = await double.client().payments.create(hosted);
    expect(result.checkout_url).toBe(`${double.gateway.url}/api/v1/checkout/ck_9/form`);
  });

  it('treats a hosted create without a redirect as an unknown outcome', async () => {
    double.gateway.answer({ body: samples.paymentResponse });
    const error = await double.client().payments.create(hosted).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutcomeUnknownError);
    expect((error as OutcomeUnknownError).orderId).toBe('order-1002');
  });

  it('raises DuplicateOrderError for P-409, so the kept checkout URL can be reused', async () => {
    double.gateway.answer({ status: 409, body: { message: 'Order already exists', args: { code: 'P-409' } } });
    const error = await double.client().payments.create(hosted).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateOrderError);
    expect(error).toMatchObject({ status: 409, code: 'P-409', message: 'Order already exists' });
  });
});

describe('payments.create — validation before sending', () => {
  async function rejected(params: unknown, overrides = {}): Promise<InvalidRequestError> {
    const error = await double.client(overrides).payments.create(params as DirectPaymentParams).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(double.gateway.requests).toHaveLength(0);
    return error as InvalidRequestError;
  }

  it('names the field and the reason, and never sends', async () => {
    const error = await rejected({ ...direct, customer_email: 'nobody', amount: 10.5 });
    expect(error.fields).toEqual([
      { field: 'amount', reason: 'must be an integer number of minor units (24950 = 249.50 UAH)' },
      { field: 'customer_email', reason: 'must be an email address' },
    ]);
    expect(error.message).toBe('Invalid request: amount: must be an integer number of minor units (24950 = 249.50 UAH); customer_email: must be an email address');
    expect(error.status).toBeUndefined();
  });

  it('says an e-mail address past the interface’s 256 characters is too long, once', async () => {
    const error = await rejected({ ...direct, customer_email: `${'a'.repeat(64)}@${'b'.repeat(200)}.example` });
    expect(error.fields).toEqual([{ field: 'customer_email', reason: 'must be at most 256 characters' }]);
  });

  it('rejects card data in hosted mode and zero amounts', async () => {
    const error = await rejected({ ...hosted, ...samples.card, amount: 0 });
    expect(error.fields.map((f) => f.field)).toEqual(['amount', 'cc_number', 'exp_month', 'exp_year', 'card_cvv']);
    expect(error.message).not.toContain(samples.card.cc_number);
  });

  it('explains amounts a three-decimal currency cannot carry on the wire', async () => {
    const error = await rejected({ ...hosted, currency: 'KWD', amount: 1005 });
    expect(error.fields).toEqual([
      { field: 'amount', reason: 'must be a multiple of 10 minor units: the gateway takes KWD with at most 2 decimal digits' },
    ]);
  });

  it('keeps order_id within what refunds accept, said once however long it is', async () => {
    const limit = [{ field: 'order_id', reason: 'must be at most 32 characters (capture, void and refund take no longer one)' }];
    expect((await rejected({ ...direct, order_id: 'o'.repeat(33) })).fields).toEqual(limit);
    // Past the wire's own 256 too: not that limit first, then this one once it is met.
    expect((await rejected({ ...direct, order_id: 'o'.repeat(257) })).fields).toEqual(limit);
    // The field's other reasons too: told at once, not on the next try.
    expect((await rejected({ ...direct, order_id: `..${'o'.repeat(300)}\u0007` })).fields.filter((issue) => issue.field === 'order_id').length).toBeGreaterThan(1);
    // Other fields' issues are still told beside it.
    expect((await rejected({ ...direct, order_id: 'o'.repeat(257), customer_email: 'not-an-address' })).fields).toEqual([
      ...limit,
      { field: 'customer_email', reason: 'must be an email address' },
    ]);
  });

  it('counts order_id in characters, as refunds do: 32 emoji are 32', async () => {
    expect((await rejected({ ...direct, order_id: '\u{1F600}'.repeat(33) })).fields.map((issue) => issue.field)).toEqual(['order_id']);
    double.gateway.answer({ body: samples.paymentResponse });
    await expect(double.client().payments.create({ ...direct, order_id: '\u{1F600}'.repeat(32) })).resolves.toBeDefined();
  });

  it('applies microfinance rules when the client is set up for that sector', async () => {
    const error = await rejected({ ...hosted, amount: 3_000_001 }, { merchantSector: 'microfinance' });
    expect(error.fields).toEqual([
      { field: 'customer_fname', reason: 'is required for microfinance merchants' },
      { field: 'customer_lname', reason: 'is required for microfinance merchants' },
      { field: 'customer_birthday', reason: 'or customer_tax_id is required for microfinance merchants' },
      { field: 'customer_tax_id', reason: 'is required for microfinance payments above 30000.00 UAH' },
    ]);
    // Said to its callers, which ask the customer for what the sector needs (the companion does).
    expect(double.client({ merchantSector: 'microfinance' }).merchantSector).toBe('microfinance');
    expect(double.client().merchantSector).toBeUndefined();
  });
});

describe('payments.createSplit', () => {
  const shares = [
    { amount: 7000, sub_merchant_id: samples.SUB_MERCHANT_A },
    { amount: 3010, sub_merchant_id: samples.SUB_MERCHANT_B },
  ] as const;

  it('posts to the split endpoint with shares as decimals', async () => {
    double.gateway.answer({ body: { ...samples.paymentResponse, amount: 100.1, processed_at: undefined, processing_time: '2025-03-01T10:00:03' } });
    const payment = await double.client().payments.createSplit({ ...direct, amount: 10010, split: shares });
    const request = double.gateway.onlyRequest;
    expect(request.url).toBe('/api/v1/split/purchase');
    expect(request.body).toContain('"split":[{"amount":70,"sub_merchant_id"');
    expect(JSON.parse(request.body).split).toEqual([
      { amount: 70, sub_merchant_id: samples.SUB_MERCHANT_A },
      { amount: 30.1, sub_merchant_id: samples.SUB_MERCHANT_B },
    ]);
    expect(payment).toMatchObject({ amount: 10010, processed_at: '2025-03-01T10:00:03' });
  });

  it('answers hosted split purchases with the checkout URL', async () => {
    double.gateway.answer({ status: 303, headers: { location: 'https://gateway.example/api/v1/checkout/x/form' } });
    const result = await double.client().payments.createSplit({ ...hosted, method: 'purchase', amount: 10010, split: shares, customer_ip: '203.0.113.7' });
    expect(result.checkout_url).toBe('https://gateway.example/api/v1/checkout/x/form');
  });

  it('says which share lacks its amount', async () => {
    const error = await double.client().payments.createSplit({ ...direct, amount: 10010, split: [{ sub_merchant_id: samples.SUB_MERCHANT_A }] } as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ fields: [{ field: 'split[0].amount', reason: 'is required' }] });
  });

  it('rejects shares that do not add up, before sending', async () => {
    const error = await double.client().payments.createSplit({ ...direct, amount: 10000, split: shares }).catch((e: unknown) => e);
    expect(error).toMatchObject({ fields: [{ field: 'split', reason: 'amounts must add up to amount' }] });
    expect(double.gateway.requests).toHaveLength(0);
  });
});

describe('payments.cancel', () => {
  it('posts without a body and returns the order\'s payments', async () => {
    const cancelled = { ...samples.paymentResponse, mode: 'hosted', status: 'failure', status_code: '6007', user_action_required: false, customer_city: 'Kyiv' };
    double.gateway.answer({ body: [cancelled] });
    const payments = await double.client().payments.cancel('order/1002');
    const request = double.gateway.onlyRequest;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`/api/v1/pos/${samples.POS_ID}/order/order%2F1002/cancel`);
    expect(request.body).toBe('');
    expect(request.headers['content-type']).toBeUndefined();
    expect(request.headers['x-api-key']).toBe('test-endpoints-key');
    expect(payments).toEqual([expect.objectContaining({ status: 'failure', status_code: '6007', amount: 1010, customer_city: 'Kyiv' })]);
  });

  it('names the gateway’s answer of another shape without the fix meant for a PHP client’s request, which no reader of it can apply', async () => {
    const cancelled = { ...samples.paymentResponse, mode: 'hosted', status: 'failure', status_code: '6007', user_action_required: false };
    const reasons = async (body: unknown) => {
      double.gateway.answer({ body });
      const error = (await double.client().payments.cancel('order-1002').catch((e: unknown) => e)) as Error & { cause: { fields: unknown } };
      expect(error.message).not.toContain('PHP');
      return error.cause.fields;
    };
    expect(await reasons({ 0: cancelled })).toEqual([{ field: '', reason: 'must be an array' }]);
    expect(await reasons([{ ...cancelled, recurring: [] }])).toEqual([{ field: '[0].recurring', reason: 'must be an object' }]);
  });
});
