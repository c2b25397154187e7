/**
 * Pages for browsers: the hosted checkout form, the 3-D Secure challenge, public receipt links
 * and the stylesheet. The unguessable id in each address is the capability; form posts are
 * accepted only from the sandbox's own pages (Origin check), so another site cannot pay or
 * complete a challenge in a customer's name.
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { ReceiptFormat } from '@payform/gateway/wire';
import { awaitsCard, completeChallenge, pay } from '../payments.js';
import { receiptDocument } from '../receipts/documents.js';
import { receiptFor } from '../receipts/receipt.js';
import type { SimulatedGateway } from '../simulated-gateway.js';
import type { Order } from '../state/records.js';
import { links } from '../views.js';
import type { SandboxEnv } from '../http/env.js';
import { readCardForm } from './card-form.js';
import { challengePage } from './challenge-view.js';
import { checkoutPage } from './checkout-view.js';
import { originOf, sendPage } from './layout.js';
import { missingPage, outcomePage } from './outcome-view.js';
import { homePage } from './home-view.js';
import { INSPECTOR_SCRIPT, INSPECTOR_SCRIPT_PATH } from './inspector-script.js';
import { STYLESHEET, STYLESHEET_PATH } from './stylesheet.js';

export function pageRoutes(gateway: SimulatedGateway, publicUrl: string | undefined): Hono<SandboxEnv> {
  const pages = new Hono<SandboxEnv>();
  const merchantOf = (order: Order) => gateway.projectOf(order).name;
  const targets = (order: Order) => originOf(order.payment.details.result_url);

  /** Where the customer goes once the payment has an outcome (or needs the challenge). */
  const finish = (c: Context<SandboxEnv>, order: Order) => {
    const payment = order.payment;
    if (payment.status === 'pending' && payment.challengeId) return c.redirect(links.challenge(payment), 303);
    if (payment.details.result_url) return c.redirect(payment.details.result_url, 303);
    return outcome(c, order);
  };
  /** The payment's outcome page: 410 once it was cancelled (6007) or ran out of time (4149), posted to or not. */
  const outcome = (c: Context<SandboxEnv>, order: Order) => {
    const gone = order.payment.statusCode === '6007' || order.payment.statusCode === '4149';
    return sendPage(c, outcomePage(order.payment, merchantOf(order), order.payment.statusDescription), { status: gone ? 410 : 200 });
  };

  // Browsers say where a form post comes from in Sec-Fetch-Site and Origin; anything but this
  // sandbox's own pages is refused. (A missing header is an older browser or a test tool.)
  const refuseForeignPost = (c: Context<SandboxEnv>) => {
    const site = c.req.header('sec-fetch-site');
    const origin = c.req.header('origin');
    const own = [new URL(c.req.url).origin, ...originOf(publicUrl)];
    const foreignSite = site !== undefined && site !== 'same-origin';
    const foreignOrigin = origin !== undefined && !own.includes(origin) && !(origin === 'null' && site === 'same-origin');
    if (!foreignSite && !foreignOrigin) return undefined;
    return sendPage(c, missingPage('Request refused', 'This form can only be sent from the sandbox’s own page.'), { status: 403 });
  };

  const checkoutPath = '/api/v1/checkout/:checkout_id/form';
  const checkoutOrder = (c: Context<SandboxEnv>) => gateway.store.byCheckout(c.req.param('checkout_id') ?? '');
  const noCheckout = (c: Context<SandboxEnv>) =>
    sendPage(c, missingPage('Payment page not found', 'This payment page does not exist. Return to the shop and start again.'), { status: 404 });

  pages.get(checkoutPath, async (c) => {
    const order = checkoutOrder(c);
    if (!order) return noCheckout(c);
    if (awaitsCard(order.payment)) {
      return sendPage(c, checkoutPage(order.payment, merchantOf(order), new URL(c.req.url).pathname), { formTargets: targets(order) });
    }
    if (order.payment.status === 'pending' && order.payment.challengeId) return c.redirect(links.challenge(order.payment), 303);
    return outcome(c, order);
  });

  pages.post(checkoutPath, async (c) => {
    const refused = refuseForeignPost(c);
    if (refused) return refused;
    const order = checkoutOrder(c);
    if (!order) return noCheckout(c);
    if (!awaitsCard(order.payment)) return finish(c, order);
    const form = await formFields(c);
    const result = readCardForm(form, gateway.clock.now());
    if (!result.ok) {
      const kept = { exp_month: form.exp_month?.slice(0, 2), exp_year: form.exp_year?.slice(0, 4) };
      return sendPage(c, checkoutPage(order.payment, merchantOf(order), new URL(c.req.url).pathname, { errors: result.errors, kept }), {
        status: 400,
        formTargets: targets(order),
      });
    }
    await pay(gateway, c.get('requestId'), order, result.card);
    return finish(c, order);
  });

  const challengePath = '/3ds/:challenge_id';
  const noChallenge = (c: Context<SandboxEnv>) =>
    sendPage(c, missingPage('Verification not found', 'This 3-D Secure verification does not exist. Return to the shop and start again.'), { status: 404 });

  pages.get(challengePath, (c) => {
    const order = gateway.store.byChallenge(c.req.param('challenge_id') ?? '');
    if (!order) return noChallenge(c);
    if (order.payment.challengeId !== c.req.param('challenge_id')) {
      return sendPage(c, outcomePage(order.payment, merchantOf(order), 'This verification is already finished.'));
    }
    return sendPage(c, challengePage(order.payment, merchantOf(order), new URL(c.req.url).pathname), { formTargets: targets(order) });
  });

  pages.post(challengePath, async (c) => {
    const refused = refuseForeignPost(c);
    if (refused) return refused;
    const order = gateway.store.byChallenge(c.req.param('challenge_id') ?? '');
    if (!order) return noChallenge(c);
    if (order.payment.challengeId !== c.req.param('challenge_id')) return finish(c, order);
    const { result } = await formFields(c);
    if (result !== 'success' && result !== 'failure') {
      const page = challengePage(order.payment, merchantOf(order), new URL(c.req.url).pathname, 'Choose one of the two buttons.');
      return sendPage(c, page, { status: 400, formTargets: targets(order) });
    }
    completeChallenge(gateway, c.get('requestId'), order, result);
    return finish(c, order);
  });

  // The receipt_url of payments and refunds: a link a customer can open, so no credentials.
  pages.get('/receipts/:receipt_key', async (c) => {
    const subject = gateway.store.byReceiptKey(c.req.param('receipt_key'));
    const project = subject ? gateway.projectOf(subject.order) : undefined;
    const receipt = subject && project ? receiptFor(subject, project) : undefined;
    if (!receipt) return sendPage(c, missingPage('Receipt not found', 'There is no receipt at this address.'), { status: 404 });
    const format = ReceiptFormat.exclude(['signed_pdf']).safeParse(c.req.query('format') ?? 'html');
    return receiptDocument(c, receipt, format.success ? format.data : 'html');
  });

  pages.get('/', (c) => sendPage(c, homePage(gateway.defaultProject)));

  pages.get(STYLESHEET_PATH, (c) =>
    c.body(STYLESHEET, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' }),
  );

  pages.get(INSPECTOR_SCRIPT_PATH, (c) =>
    c.body(INSPECTOR_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' }),
  );

  return pages;
}

/** The posted form as strings; files and repeated fields are ignored. */
async function formFields(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}));
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}
