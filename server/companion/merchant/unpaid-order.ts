/**
 * An order id the companion handed out with a checkout session nobody has paid yet: no order,
 * yet not unknown either. The envelope names the session (`error.session`), so a program tells
 * it from an id never handed out by a field, not by the message's words.
 */
import * as z from 'zod';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { CheckoutSession, Ledger, Payment } from '../../ledger/index.js';
import { SessionViewStatus, viewStatus } from '../checkout/session-view.js';
import { ApiProblem } from '../http/problem.js';
import type { ProblemBody } from '../http/problem.js';

export const UnpaidSession = z.object({
  id: z.string().describe('The checkout session the order id was handed out with'),
  status: SessionViewStatus.describe('As createCheckoutSession names it: open (it may still be paid) or expired'),
});
export type UnpaidSession = z.output<typeof UnpaidSession>;

export class UnpaidOrderProblem extends ApiProblem {
  readonly session: UnpaidSession;

  constructor(status: ContentfulStatusCode, code: string, session: CheckoutSession) {
    const view: UnpaidSession = { id: session.id, status: viewStatus(session).status };
    super(status, code, `The order has no payment yet: its checkout session ${view.id} is ${view.status}`);
    this.session = view;
  }

  override get body(): ProblemBody & { readonly error: { readonly session: UnpaidSession } } {
    return { error: { ...super.body.error, session: this.session } };
  }
}

/**
 * The payment an action on an order acts on (an operation, a receipt): 409 `order_not_paid`,
 * naming the session, for an id handed out with one nobody has paid yet; 404 for any other.
 */
export async function paymentToActOn(ledger: Ledger, orderId: string): Promise<Payment> {
  return (await ledger.getPayment(orderId)) ?? refuseMissingOrder(ledger, orderId);
}

/** Why an action found no payment under `orderId`: 409 `order_not_paid` for one handed out with an unpaid session, else 404. */
export async function refuseMissingOrder(ledger: Ledger, orderId: string): Promise<never> {
  const session = await ledger.findSessionOfOrder(orderId);
  if (session) throw new UnpaidOrderProblem(409, 'order_not_paid', session);
  throw ApiProblem.notFound('The order', 'order_not_found');
}
