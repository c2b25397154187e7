// @ts-check
/**
 * A stand-in for the payform companion and the sandbox behind it, for the widget's browser tests,
 * until those tests run against the real ones. It is the ONE place that knows the backend:
 *
 * - the companion's widget-facing HTTP API (design.md, "Companion HTTP API" and "The pay request
 *   and its answer"): GET /api/checkout/sessions/:id, POST …/pay, POST …/hosted, with the error
 *   envelope { error: { code, message, fields? } };
 * - the sandbox's test cards (design.md) and 3-D Secure, with the challenge page's decision;
 * - the fixture routes the tests call to set things up, which a real-backend version keeps:
 *   POST /__fixture/sessions  { amount, currency, description?, customer?, customer_id?, modes? } → { id }
 *     (the merchant API's session creation; sessions on the sandbox are test sessions)
 *   POST /__fixture/3ds  { url, result: "success" | "failure" }  (the sandbox's POST /_sandbox/3ds/:payment_id for the
 *     challenge page at `url`, the pay answer's redirect_url)
 *
 * To run the same tests against the real stack, replace this file's export with a middleware that
 * forwards /api/checkout/* to a companion started on the sandbox, and maps the two fixture routes to
 * the companion's POST /api/checkout/sessions (with ADMIN_TOKEN) and the sandbox's control plane.
 */
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { setTimeout } from 'node:timers';

const CUSTOMER_FIELDS = ['fname', 'lname', 'email', 'phone'];
const FINGERPRINT = ['browserColorDepth', 'browserScreenHeight', 'browserScreenWidth', 'browserJavaEnabled', 'browserLanguage', 'browserTimeZone', 'browserTimeZoneOffset'];

/** The sandbox's test cards: what each one does (design.md), in the companion's customer-safe words. Any other valid card succeeds. */
const OUTCOMES = {
  '4000000000003220': { status: 'redirect' },
  '4000000000000002': { status: 'failure', message: 'The payment was declined. Try another card or contact your bank.' },
  '4000000000009995': { status: 'failure', message: 'Insufficient funds. Try another card.' },
  '4000000000000069': { status: 'failure', message: 'The card has expired. Try another card.' },
  '4000000000000119': { status: 'pending' },
};

const luhn = (/** @type {string} */ digits) =>
  [...digits].reverse().reduce((sum, c, i) => sum + (i % 2 ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][+c] : +c), 0) % 10 === 0;
const id = (/** @type {string} */ prefix) => prefix + randomBytes(16).toString('base64url');

/**
 * @param {{ pendingMs?: number }} [options] how long a 4000 0000 0000 0119 payment stays pending
 * @returns {import('koa').Middleware}
 */
export function companionStandIn({ pendingMs = 1500 } = {}) {
  /** @type {Map<string, any>} */
  const sessions = new Map();
  /** @type {Map<string, any[]>} saved cards by customer_id */
  const wallets = new Map();
  /** @type {Map<string, any>} sessions by payment id */
  const payments = new Map();

  const view = (/** @type {any} */ s, /** @type {string} */ origin) => ({
    id: s.id,
    amount: s.amount,
    currency: s.currency,
    description: s.description,
    status: s.status,
    modes: s.modes,
    customer_fields: CUSTOMER_FIELDS.filter((field) => !s.customer?.[field]),
    test: s.test,
    ...(s.test && { sandbox_origin: origin }),
    saved_cards: (s.customer_id && wallets.get(s.customer_id)) || [],
    order_id: s.order_id,
    ...(s.message && { message: s.message }),
  });

  const settle = (/** @type {any} */ session, /** @type {'success' | 'failure'} */ result, message = 'The payment was not confirmed.') => {
    session.status = result;
    session.message = result === 'failure' ? message : undefined;
    if (result === 'success' && session.customer_id && session.card) {
      const wallet = wallets.get(session.customer_id) ?? [];
      wallet.push(session.card);
      wallets.set(session.customer_id, wallet);
    }
  };

  /** Checks a pay request like the companion's zod schema: the field paths that are wrong. */
  const problems = (/** @type {any} */ body, /** @type {any} */ session) => {
    /** @type {Record<string, string>} */
    const fields = {};
    const card = body?.card;
    if (typeof card?.token === 'string') {
      if (!view(session, '').saved_cards.some((/** @type {any} */ saved) => saved.token === card.token)) fields['card.token'] = 'unknown';
    } else {
      if (typeof card?.number !== 'string' || !/^\d{12,19}$/.test(card.number) || !luhn(card.number)) fields['card.number'] = 'invalid';
      if (!Number.isInteger(card?.exp_month) || card.exp_month < 1 || card.exp_month > 12) fields['card.exp_month'] = 'invalid';
      if (!Number.isInteger(card?.exp_year) || card.exp_year < 2000 || card.exp_year > 2100) fields['card.exp_year'] = 'invalid';
      if (typeof card?.cvv !== 'string' || !/^\d{3,4}$/.test(card.cvv)) fields['card.cvv'] = 'invalid';
    }
    for (const field of view(session, '').customer_fields) {
      if (typeof body?.customer?.[field] !== 'string' || !body.customer[field]) fields[`customer.${field}`] = 'required';
    }
    for (const field of FINGERPRINT) {
      if (typeof body?.fingerprint?.[field] !== 'string') fields[`fingerprint.${field}`] = 'required';
    }
    return fields;
  };

  const pay = (/** @type {any} */ session, /** @type {any} */ body, /** @type {string} */ origin) => {
    const card = body.card;
    const number = card.token ? '' : card.number;
    const outcome = OUTCOMES[/** @type {keyof OUTCOMES} */ (number)] ?? { status: 'success' };
    const payment_id = id('pay_');
    payments.set(payment_id, session);
    session.card = card.token
      ? undefined
      : { token: id('card_'), mask: `${number.slice(0, 6)}******${number.slice(-4)}` };
    if (outcome.status === 'success') settle(session, 'success');
    if (outcome.status === 'failure') settle(session, 'failure', outcome.message);
    if (outcome.status === 'redirect' || outcome.status === 'pending') session.status = 'pending';
    if (outcome.status === 'pending') setTimeout(() => settle(session, 'success'), pendingMs);
    return {
      status: outcome.status,
      order_id: session.order_id,
      payment_id,
      ...(outcome.status === 'redirect' && { redirect_url: `${origin}/__sandbox/3ds/${payment_id}` }),
      ...(outcome.message && { message: outcome.message }),
    };
  };

  return async (ctx, next) => {
    const { path, method } = ctx;
    if (!path.startsWith('/api/checkout/') && !path.startsWith('/__fixture/')) return next();
    const reply = (/** @type {number} */ status, /** @type {unknown} */ body) => {
      ctx.status = status;
      ctx.type = 'application/json';
      ctx.body = JSON.stringify(body);
    };
    const error = (/** @type {number} */ status, /** @type {string} */ code, /** @type {string} */ message, /** @type {object} */ fields) =>
      reply(status, { error: { code, message, ...(fields && { fields }) } });

    let body;
    if (method === 'POST') {
      const chunks = [];
      for await (const chunk of ctx.req) chunks.push(chunk);
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
      } catch {
        return error(400, 'invalid_json', 'The body is not JSON.');
      }
    }

    if (method === 'POST' && path === '/__fixture/sessions') {
      const session = {
        id: id('cs_'),
        order_id: id('ord_').slice(0, 20),
        amount: body?.amount ?? 100.5,
        currency: body?.currency ?? 'UAH',
        description: body?.description ?? 'Order',
        modes: body?.modes ?? ['direct', 'hosted'],
        customer: body?.customer,
        customer_id: body?.customer_id,
        test: true,
        status: 'open',
      };
      sessions.set(session.id, session);
      return reply(201, { id: session.id, order_id: session.order_id });
    }
    if (method === 'POST' && path === '/__fixture/3ds') {
      const session = payments.get(String(body?.url).split('/').pop() ?? '');
      if (!session || session.status !== 'pending') return error(404, 'not_found', 'No 3-D Secure challenge waits for this payment.');
      settle(session, body?.result === 'success' ? 'success' : 'failure', 'The payment was not confirmed. Try again or use another card.');
      return reply(200, { status: session.status });
    }

    const route = /^\/api\/checkout\/sessions\/([\w-]+)(\/pay|\/hosted)?$/.exec(path);
    const session = route && sessions.get(route[1] ?? '');
    if (!route) return error(404, 'not_found', 'No such route.');
    if (!session) return error(404, 'session_not_found', 'No such checkout session.');
    const origin = ctx.origin;
    if (method === 'GET' && !route[2]) return reply(200, view(session, origin));
    if (method !== 'POST' || !route[2]) return error(405, 'method_not_allowed', 'Method not allowed.');
    if (route[2] === '/hosted') {
      if (!session.modes.includes('hosted')) return error(409, 'mode_not_allowed', 'Hosted checkout is not allowed for this session.');
      return reply(200, { redirect_url: `${origin}/__sandbox/hosted/${session.id}` });
    }
    if (!session.modes.includes('direct')) return error(409, 'mode_not_allowed', 'Direct payment is not allowed for this session.');
    if (session.status !== 'open' && session.status !== 'failure') return error(409, 'session_not_payable', `The session is ${session.status}.`);
    const fields = problems(body, session);
    if (Object.keys(fields).length) return error(400, 'invalid_request', 'Some fields are missing or invalid.', fields);
    return reply(200, pay(session, body, origin));
  };
}
