/**
 * A stack with something to lose: a checkout and an order of every kind the companion and the
 * sandbox know — an open session, a paid purchase, a paid auth, a split purchase, a declined
 * payment, a 3-D Secure challenge waiting, an unpaid hosted page, a saved card — so that a bad
 * request aimed at any of them would show if it changed what is stored.
 */
import { TEST_SUB_MERCHANTS } from '../../../server/gateway/test-project.js';
import { card } from '../../../server/companion/test/cards.js';
import { payBody } from '../../../server/companion/test/stack.js';
import type { Json, Stack } from '../../../server/companion/test/stack.js';

export const [SUB_A, SUB_B] = TEST_SUB_MERCHANTS.map((merchant) => merchant.id) as [string, string];
export const CONTACT = { email: 'olena@example.com', phone: '+380501234567' };
export const SAVED_CARD_CUSTOMER = 'resilience-customer';

export interface World {
  /** Open, never paid: a valid pay or hosted request would start an attempt. */
  readonly openSession: Json;
  readonly purchase: Json;
  readonly auth: Json;
  readonly split: Json;
  readonly declined: Json;
  readonly challenge: { readonly session: Json; readonly paymentId: string; readonly challengeId: string };
  readonly hosted: { readonly session: Json; readonly checkoutId: string };
  readonly savedCard: { readonly customerId: string; readonly cardId: string };
  readonly receiptKey: string;
  readonly accountId: string;
  readonly terminalId: string;
}

async function paid(stack: Stack, session: Json, body = payBody()): Promise<Json> {
  const response = await stack.pay(session.id, body);
  if (response.status !== 200) throw new Error(`pay: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as Json;
}

export async function buildWorld(stack: Stack): Promise<World> {
  const openSession = await stack.openSession({ customer: CONTACT });
  const purchase = await stack.openSession();
  await paid(stack, purchase);
  const auth = await stack.openSession({ method: 'auth' });
  await paid(stack, auth);
  const split = await stack.openSession({ amount: 100, split: [{ sub_merchant_id: SUB_A, amount: 60 }, { sub_merchant_id: SUB_B, amount: 40 }] });
  await paid(stack, split);
  const declined = await stack.openSession();
  await paid(stack, declined, payBody({ card: card('rejected') }));

  const challengeSession = await stack.openSession();
  const challenge = await paid(stack, challengeSession, payBody({ card: card('three_ds_challenge') }));
  if (challenge.status !== 'redirect') throw new Error(`the 3-D Secure card answered ${challenge.status}`);

  const hostedSession = await stack.openSession({ customer: CONTACT });
  const { redirect_url: page } = await stack.json('POST', `/api/checkout/sessions/${hostedSession.id}/hosted`, 200, { body: {} });

  const first = await stack.openSession({ customer_id: SAVED_CARD_CUSTOMER });
  await paid(stack, first);
  const cards = await stack.json('GET', `/api/customers/${SAVED_CARD_CUSTOMER}/cards`, 200, { admin: true });

  await stack.settleWebhooks();
  const projects = await stack.control('GET', '/_sandbox');
  const receiptUrl = (await stack.ledger.getPayment(purchase.order_id))?.receiptUrl;
  if (!receiptUrl) throw new Error('the purchase has no receipt_url');
  return {
    openSession,
    purchase,
    auth,
    split,
    declined,
    challenge: { session: challengeSession, paymentId: challenge.payment_id, challengeId: new URL(challenge.redirect_url).pathname.split('/').at(-1)! },
    hosted: { session: hostedSession, checkoutId: new URL(page).pathname.split('/').at(-2)! },
    savedCard: { customerId: SAVED_CARD_CUSTOMER, cardId: cards.cards[0].id },
    receiptKey: new URL(receiptUrl).pathname.split('/').at(-1)!,
    accountId: projects.projects[0].accounts[0].id,
    terminalId: projects.projects[0].terminals[0].id,
  };
}
