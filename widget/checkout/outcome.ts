/**
 * What comes of a pay request: its answer (shown, or for a session the page replaced meanwhile,
 * only told), or its error, after which the session may be read to learn what happened.
 */
import { emit } from '../events.js';
import type { CheckoutElement } from './checkout-element.js';
import { CompanionError, fetchView, type Caller, type PayAnswer } from './companion.js';
import type { SessionView } from './session-view.js';
import { hush, refocus } from './announcements.js';
import type { Form } from './form.js';
import { clickToLeave, redirect } from './leaving.js';
import { polled, WATCH_FOR, WATCH_SLOWER } from './polling.js';
import { close, codeOf, markRefused, mayBePaid, shopSide, unfixable } from './refusals.js';
import { joinedOrders } from './relay.js';
import { timing } from './timings.js';

/**
 * When each form was last told its own attempt was declined, until its customer types again: a
 * click within DECLINE_SETTLES_MS of it is the same click's rest, not a new attempt with the
 * same card (a gateway that declines at once left a triple click three attempts, and three
 * declines counted against the shop's card-testing limits).
 */
export const declinedAt = new WeakMap<CheckoutElement, number>();
export const DECLINE_SETTLES_MS = 1_000;

/**
 * The answer of a payment whose session the page replaced meanwhile, never shown: the customer
 * paid, or may yet (pending: the gateway has not decided, or its answer is not recorded yet), and
 * the page hears a success by the order's id, never to offer that order again; of a decline,
 * nothing. A pending one is read as the element polls its own, unless the page sets that session
 * back: the element then shows it, and tells its outcome, itself.
 */
export async function paidAway(form: Form, session: string, { status, order_id, payment_id }: PayAnswer, orderId: string): Promise<void> {
  let paid = status === 'success';
  if (status === 'pending') {
    const away = (): boolean => form.session !== session;
    // What reads the replaced session: diagnose.ts names the element by its localName.
    const replaced: Caller = { session, endpoint: form.endpoint, localName: form.localName };
    const interval = timing(form, 'pollInterval');
    const view = (await polled(replaced, away, interval, timing(form, 'pollTimeout'))) ?? (await polled(replaced, away, interval * WATCH_SLOWER, WATCH_FOR));
    paid = view?.status === 'success' && away();
  }
  if (paid) emit(form, 'pay-success', { orderId: order_id ?? orderId, paymentId: payment_id });
}

export function answer(form: Form, { status, redirect_url, message, order_id, payment_id, retryable, joined }: PayAnswer): void {
  if (joined && order_id) joinedOrders.set(form, order_id);
  else joinedOrders.delete(form);
  if (status === 'redirect') {
    // A cancelled redirect leaves the challenge to the page (a popup); the form watches for the
    // outcome, and offers the challenge again (`pay-redirect` again) should it stay pending. The
    // challenge of another window's attempt, for another card, is that window's: watched, and offered.
    if (joined || !redirect(form, redirect_url!, '3ds', order_id)) {
      form.view = { ...form.view!, challenge_url: redirect_url };
      void form.poll();
    }
    return;
  }
  if (status === 'success') form.edited = {};
  if (status === 'failure') declinedAt.set(form, performance.now());
  // A decline that used up the session's attempts ends it, as the session view then says.
  form.settle({ ...form.view!, status: retryable === false ? 'expired' : status, message, order_id: order_id ?? form.view!.order_id }, { paymentId: payment_id });
  void refocus(form);
}

/**
 * After an error: point at the fields the companion named, or learn what happened before allowing
 * a retry. False, with nothing shown, when the page set another session as the widget learnt it.
 */
export async function recover(form: Form, error: unknown, moved: () => boolean, sent: boolean): Promise<false | void> {
  const { code, status } = error instanceof CompanionError ? error : new CompanionError('server');
  // A card that never left the page (the tokenizer's chunk would not load) paid nothing: an
  // ordinary error, the form kept, not a payment to confirm.
  if (sent && (mayBePaid(code) || status === 409)) {
    // The payment may have gone through: never let the customer pay twice.
    const view = await fetchView(form).catch(() => undefined);
    // The other session shows, never this payment's outcome or error (`pay`).
    if (moved()) return false;
    // Waiting for its challenge: the answer that would have taken the customer there was lost, so
    // going on with it is offered at once (`settled`), not after a minute of "Confirming…".
    if (view?.challenge_url) clickToLeave.add(form.session);
    if (wentOn(form, view)) return refocus(form);
    // Neither the answer nor the session came back: it may well be paid. The page hears of the
    // error; the customer is shown the payment being confirmed (poll), never a form to pay again.
    if (!view && code !== 'malformed') {
      form.fail(error, form.t.waiting || form.t.confirming);
      return void form.poll();
    }
  }
  const terms = shopSide(form, error);
  if (terms) return close(form, terms);
  // A 3-D Secure page nobody may be sent to: the attempt waits for it at the gateway, and every
  // click meets it again. The shop's to fix (the console says what); not "try again".
  if (codeOf(error) === 'unsafe_redirect') return close(form, error as CompanionError);
  // The session is gone (diagnose.ts): said as one expired, with no button to be refused again.
  if (codeOf(error) === 'closed') return close(form, error as CompanionError, form.t.closed);
  form.phase = 'ready';
  const invalid = markRefused(form, error);
  // Fields to correct: the message says so, as after a submit with mistakes, not "try again".
  if (invalid) hush(form, invalid);
  form.fail(invalid ? error : unfixable(error), invalid && (form.t.fix ?? form.t.invalid));
  await refocus(form, invalid);
}

/** Shows the payment `view` says the session went on with (pending, paid, closed): true when it did. */
export function wentOn(element: CheckoutElement, view: SessionView | undefined): boolean {
  if (!view || view.status === 'open' || view.status === 'failure') return false;
  // Ended by declines elsewhere (another tab's): this card was never sent, so no decline is told.
  element.settle(view.status === 'expired' ? { ...view, message: undefined } : view);
  return true;
}
