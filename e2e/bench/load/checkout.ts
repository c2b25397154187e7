/**
 * A checkout through a companion, as the benches drive it: the merchant's backend opens a
 * session (admin token), then the customer's page pays it with the test card that succeeds.
 */
import { CUSTOMER, FINGERPRINT, card } from '../../../server/companion/test/cards.js';
import { BENCH_ADMIN_TOKEN } from '../servers/credentials.js';
import type { LoopbackClient, Reply } from './http-client.js';

/** The User-Agent of the benches' customer (the direct path sends it in the fingerprint too). */
export const BENCH_USER_AGENT = 'payform-bench/1';

export function expectStatus(reply: Reply, status: number, what: string): Reply {
  if (reply.status !== status) throw new Error(`${what}: HTTP ${reply.status} ${reply.body.slice(0, 300)}`);
  return reply;
}

/** Opens a session of UAH 10.10; its id. */
export async function openSession(client: LoopbackClient, companionUrl: string): Promise<string> {
  const reply = await client.json('POST', `${companionUrl}/api/checkout/sessions`, { amount: 1010, currency: 'UAH', description: 'Green tea, 250 g' }, {
    Authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
  });
  return (JSON.parse(expectStatus(reply, 201, 'open a session').body) as { id: string }).id;
}

/** Sends the pay request of `sessionId`; the answer, unread. */
export function sendPay(client: LoopbackClient, companionUrl: string, sessionId: string): Promise<Reply> {
  return client.json('POST', `${companionUrl}/api/checkout/sessions/${sessionId}/pay`, { card: card('success'), customer: CUSTOMER, fingerprint: FINGERPRINT }, {
    Accept: 'application/json',
    'User-Agent': BENCH_USER_AGENT,
  });
}

/** The answer of a pay request answered 200 with a payment in success; fails otherwise. */
export function expectPaid(reply: Reply): { readonly status: 'success'; readonly order_id: string } {
  const answer = JSON.parse(expectStatus(reply, 200, 'pay through the companion').body) as { status: string; order_id: string };
  if (answer.status !== 'success') throw new Error(`pay through the companion: ${answer.status}`);
  return answer as { status: 'success'; order_id: string };
}
