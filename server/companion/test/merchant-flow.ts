/**
 * What the typed-client test writes, compiles and runs: a merchant's program against the
 * companion, typed only by the types openapi-typescript generates from the served document.
 * The annotated locals make the compiler prove the types say something (an answer typed `{}`
 * or `unknown` would not compile); the program may not cast.
 */
export const MERCHANT_FLOW = `
import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import type { components, paths } from './companion-api.js';

const [baseUrl = '', adminToken = '', cardNumber = '', cvv = ''] = process.argv.slice(2);
const merchant = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${adminToken}\` } });
const shopper = createClient<paths>({ baseUrl });

const opened = await merchant.POST('/api/checkout/sessions', {
  params: { header: { 'Idempotency-Key': randomUUID() } },
  body: { amount: 2550, currency: 'UAH', description: 'Green tea, 3 tins' },
});
if (!opened.data) throw new Error(\`open: \${opened.error?.error.code}\`);
const session: components['schemas']['CheckoutSession'] = opened.data;

const paid = await shopper.POST('/api/checkout/sessions/{id}/pay', {
  params: { path: { id: session.id } },
  body: {
    card: { number: cardNumber, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvv },
    customer: { fname: 'Olena', lname: 'Koval', email: 'olena@example.com', phone: '+380501234567' },
    fingerprint: {
      browserColorDepth: '24',
      browserScreenHeight: '1080',
      browserScreenWidth: '1920',
      browserJavaEnabled: 'false',
      browserLanguage: 'uk-UA',
      browserTimeZone: 'Europe/Kyiv',
      browserTimeZoneOffset: '-120',
    },
  },
});
if (!paid.data) throw new Error(\`pay: \${paid.error?.error.code}\`);
const payStatus: 'success' | 'failure' | 'pending' | 'redirect' = paid.data.status;
const orderId: string = paid.data.order_id;

const refund = await merchant.POST('/api/orders/{order_id}/refund', {
  params: { path: { order_id: orderId }, header: { 'Idempotency-Key': randomUUID() } },
  body: { amount: 550, comment: 'One tin returned' },
});
if (!refund.data) throw new Error(\`refund: \${refund.error?.error.code}\`);
const refundStatus: 'pending' | 'success' | 'failure' = refund.data.operation.status;

const detail = await merchant.GET('/api/orders/{order_id}', { params: { path: { order_id: orderId } } });
if (!detail.data) throw new Error(\`order: \${detail.error?.error.code}\`);
const order: components['schemas']['Order'] = detail.data;
const refunded: number = order.totals.refunded;
const refundable: number = order.totals.refundable;
const operations: string[] = order.operations.map((operation) => \`\${operation.kind} \${operation.amount} \${operation.status}\`);

const unknown = await merchant.GET('/api/orders/{order_id}', { params: { path: { order_id: 'no-such-order' } } });
const missing: string | undefined = unknown.error?.error.code;

console.log(JSON.stringify({
  session: { status: session.status, amount: session.amount, currency: session.currency },
  pay: payStatus,
  refund: refundStatus,
  order: { status: order.order.status, card: order.order.card?.mask, refunded, refundable, operations },
  missing,
}));
`;
