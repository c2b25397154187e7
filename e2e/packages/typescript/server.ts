/**
 * A merchant's server code in TypeScript, as the packages' READMEs show it: compiled (never run)
 * by types.test.ts against the packed packages installed in the throwaway shop, with tsc's
 * defaults where they matter (declaration files checked) and `strict` on.
 */
import { serve } from '@hono/node-server';
import express from 'express';
import { composeCompanion, openLedger, paymentNotice, readCompanionConfig, toNodeListener } from '@payform/companion';
import type { PaymentChange } from '@payform/companion';
import { GatewayClient, isMinorUnits, minorUnits, readWebhook, WebhookSignatureError } from '@payform/gateway';
import { createSandbox } from '@payform/sandbox';
import { checkNumber, detectBrand, maskCardNumbers } from '@payform/card';

const fulfilled: string[] = [];

const companion = await composeCompanion(
  readCompanionConfig({
    PAYFORM_PUBLIC_URL: 'https://shop.example',
    PAYFORM_ADMIN_TOKEN: 'a-long-random-admin-token',
    PAYFORM_DATABASE_URL: './data/payform.db',
    PAYFORM_ALLOWED_ORIGINS: 'https://shop.example',
  }),
  {
    basePath: '/payments',
    backOffice: { path: '/admin' },
    onPaymentEvent: async (change: PaymentChange) => {
      if (change.kind === 'payment' && change.status === 'success' && change.payment.method !== 'lookup') fulfilled.push(change.orderId);
    },
  },
);
const shop = express();
shop.use('/payments', toNodeListener(companion.app));

const gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:3001', posId: 'pos', apiKey: 'key', apiSecret: 'secret', endpointsKey: 'endpoints' });
const order = {
  mode: 'hosted',
  method: 'purchase',
  order_id: 'order-1042',
  currency: 'UAH',
  description: 'Order 1042',
  customer_email: 'olena@example.com',
  customer_phone: '+380501234567',
  server_url: 'https://shop.example/webhooks/gateway',
  result_url: 'https://shop.example/orders/1042',
} as const;
const checkout = await gateway.payments.create({ ...order, amount: 24_950 });
const checkoutUrl: string = checkout.checkout_url;
// @ts-expect-error amounts are whole minor units: a fraction does not compile (gateway README)
await gateway.payments.create({ ...order, amount: 249.5 });
const total = minorUnits(1_250 * 3);
await gateway.payments.create({ ...order, amount: total });
const fromOutside: unknown = 100;
if (isMinorUnits(fromOutside)) await gateway.payments.create({ ...order, amount: fromOutside });
const refund = await gateway.operations.refund({ order_id: 'order-1042', order_currency: 'UAH', refund_amount: 5_000 });
const refundStatus: 'init' | 'pending' | 'success' | 'failure' = refund.status;

export async function POST(request: Request): Promise<Response> {
  const form = await request.formData();
  try {
    const event = readWebhook({ data: String(form.get('data') ?? ''), signature: String(form.get('signature') ?? '') }, 'secret');
    fulfilled.push(`${event.order_id} ${event.status} ${event.amount}`);
    return new Response('OK');
  } catch (error) {
    if (error instanceof WebhookSignatureError) return new Response('Forbidden', { status: 403 });
    throw error;
  }
}

const sandbox = createSandbox();
const server = serve({ fetch: sandbox.fetch, port: 3001 });
await sandbox.sandbox.stop();
server.close();

const ledger = await openLedger(':memory:');
const stored = await ledger.getOrder('order-1042');
// A hook of one's own told of a payment: its mark cleared, as docs/companion.md shows.
if (stored) await ledger.noticeTold(paymentNotice(stored.payment));
await ledger.close();

const brand: string | undefined = detectBrand('37')?.id;
const valid: boolean = checkNumber('4242424242424242').valid;
console.log(checkoutUrl, refundStatus, stored?.payment.amount, brand, valid, maskCardNumbers('4242 4242 4242 4242', '[card]'));
