/**
 * Leaving for the bank's 3-D Secure challenge or the gateway's hosted page: only to a safe address,
 * unless the page cancels it, from a frame as its sandbox allows, and not from wherever a customer
 * who left the checkout is now.
 */
import { emit, type PayEventDetails } from '../events.js';
import type { CheckoutElement } from './checkout-element.js';
import { CompanionError } from './companion.js';
import { redirectRefusal } from './redirect.js';
import { refocus } from './announcements.js';
import { keepForReturn, leftForBank, restored } from './coming-back.js';
import { isForm } from './form.js';
import { close } from './refusals.js';
import { atCheckout, heirOf, payers } from './session-elements.js';

/**
 * Navigates to `url` when it is safe, the customer is at the checkout (else `away`), and no
 * listener cancels `pay-redirect`. Answers false when cancelled; throws `unsafe_redirect` for
 * anything but https: or the sandbox.
 */
export function redirect(element: CheckoutElement, url: string, reason: Leaving, orderId?: string): boolean {
  const refusal = redirectRefusal(url, element.view);
  if (refusal) {
    // A setting of the companion's, most often: said to the developer, the customer keeps the calm message.
    console.error(`<${element.localName}>: ${refusal}`);
    throw new CompanionError('unsafe_redirect', 0, [], refusal);
  }
  if (!element.isConnected && !heirOf(element)) return away(element, url, reason, orderId);
  return go(element, url, reason);
}

type Leaving = PayEventDetails['pay-redirect']['reason'];

/** Leaves for `url` (checked) unless a listener cancels `pay-redirect`: false when one did. */
export function go(element: CheckoutElement, url: string, reason: Leaving): boolean {
  // Said before the page goes, so a screen reader's user knows where they are taken; taken back
  // when the page keeps the customer (a listener cancelled the redirect).
  const { notice } = element;
  element.say(element.t[reason === 'hosted' ? 'redirect_hosted' : 'redirect_3ds'] ?? element.t.processing);
  // Before the page may take the customer there itself (a listener that cancels pay-redirect).
  if (isForm(element)) keepForReturn(element);
  if (emit(element, 'pay-redirect', { url, reason }, true)) {
    const refused = takeTabTo(url);
    if (refused === 'at a click') {
      // The customer's click is over (the payment took longer than one lasts), and the frame's
      // sandbox lets it take the tab only during one: their next click goes there — "Continue
      // with your bank" (settled), or the pay button again for the hosted page (`submit`).
      if (reason === '3ds') clickToLeave.add(element.session);
      else hostedAtClick.set(element, { session: element.session, url });
      element.say(reason === '3ds' ? notice : (element.t.hosted_at_click ?? notice));
      return false;
    }
    if (refused) {
      // The sandbox of the frame the page put the element in: said to the developer; the customer
      // is told the shop cannot take the payment, not left before a page that never comes.
      const fix = "add allow-top-navigation-by-user-activation to the iframe's sandbox attribute, or cancel pay-redirect and open event.detail.url yourself";
      const error = new CompanionError('unsafe_redirect', 0, [], `this element is in a frame whose sandbox keeps it from taking the page to ${new URL(url).origin}, which is never shown in a frame: ${fix}`);
      console.error(`<${element.localName}>: ${error.reason}`);
      void close(element, error);
      return true;
    }
    // Back from that page, a browser that kept this one whole (the back/forward cache, Safari's
    // above all) would show it paying for ever: it reads the session instead, as a page loaded anew
    // does, and the focus the disabled button dropped comes back to where the customer left.
    addEventListener('pageshow', (event) => event.persisted && (restored(), void element.load().then(() => refocus(element))), { once: true });
    if (reason === '3ds') leftForBank(element.session);
    stayed(element, url, reason);
    return true;
  }
  element.say(notice);
  return false;
}

/**
 * How long a page that left for `url` may still be here before the element takes it as staying:
 * the page goes only once the bank's first answer comes, which on a phone's slow connection
 * takes seconds (at 5 s a 9 s bank page was offered again as it loaded).
 */
const STAYED_MS = 10_000;

/**
 * A page that never leaves for `url` — the customer stopped it (Esc, the Stop button), chose to
 * stay on the shop's own "Leave site?" prompt — would say "Processing payment…" for ever, its
 * button disabled. Still here (never hidden) a while on, the element offers the way on as to a
 * frame's customer whose click was over: "Continue with your bank", or the pay button again to
 * the hosted page. A slow page on its way meanwhile loses nothing: the button goes there too.
 */
function stayed(element: CheckoutElement, url: string, reason: Leaving): void {
  const { session } = element;
  let left = false;
  addEventListener('pagehide', () => (left = true), { once: true });
  setTimeout(() => {
    if (left || element.session !== session || element.phase !== 'paying') return;
    if (reason === '3ds') {
      clickToLeave.add(session);
      element.view = { ...element.view!, challenge_url: url };
      return void element.poll();
    }
    hostedAtClick.set(element, { session, url });
    element.phase = 'ready';
    element.say('');
    void refocus(element);
  }, STAYED_MS);
}

/**
 * Takes the tab to `url`. The bank's and the gateway's pages refuse to be framed (a framed card
 * page invites clickjacking), so an element in a frame takes the page that holds it there: any
 * frame the customer clicked in may, a sandboxed one only if its sandbox allows top navigation,
 * and with `allow-top-navigation-by-user-activation` only while the click lasts. Once it is
 * over, the next click does (`at a click`): a script cannot tell that sandbox from none, and a
 * browser may block the navigation without a word.
 */
function takeTabTo(url: string): 'at a click' | 'sandboxed' | undefined {
  const { top } = window;
  if (!top || top === window) return void location.assign(url);
  if (navigator.userActivation?.isActive === false) return 'at a click';
  try {
    // Of another origin's location, only href may be set.
    top.location.href = url;
  } catch {
    return 'sandboxed';
  }
}

/** Sessions whose challenge waits for the customer's click to take the tab there (`go`). */
export const clickToLeave = new Set<string>();

/** The hosted page each element in a frame had when the customer's click was over: their next click goes there (`go`, `submit`). */
export const hostedAtClick = new WeakMap<CheckoutElement, { readonly session: string; readonly url: string }>();

/** 3-D Secure challenges no element of their session was in the page to take (`away`), by session. */
export const challenges = new Map<string, string>();

/**
 * A redirect for a payer out of the page that no element of its session holds. An element of the
 * session still in the page (`atCheckout`: reading the session, confirming) takes it, as one
 * held would. With none there (the customer left the checkout: a router link, "back to cart"),
 * the page is not left from wherever the customer is now. A hosted page was only to be opened:
 * nothing is paid, and the session is open for its next element. A 3-D Secure challenge, pending
 * at the gateway until it expires unpaid, is held for an element shown later (`settled`), and the
 * page hears so on the document, the payer being out of it.
 */
function away(payer: CheckoutElement, url: string, reason: Leaving, orderId?: string): true {
  payers.delete(payer);
  const hosted = reason === 'hosted';
  // As the session reads now: put back in the page, the payer reads it (and takes the challenge).
  payer.phase = hosted ? 'ready' : 'confirming';
  payer.say(hosted ? '' : payer.t.confirming);
  const { session } = payer;
  const customer = atCheckout(payer);
  if (customer) {
    // Kept by the page (a popup): one confirming watches for the outcome; one still reading finds it pending, and polls.
    if (!go(customer, url, reason) && !hosted && customer.phase !== 'loading') void customer.poll();
    return true;
  }
  if (hosted) return true;
  challenges.set(session, url);
  const why = `the 3-D Secure challenge of session ${session} came when no <pay-form> or <pay-button> of it was in the page, so the customer was not taken to their bank: show an element of that session to take them there, or the payment expires unpaid at the gateway`;
  emit(document, 'pay-error', { code: 'challenge_held', message: payer.t.waiting || payer.t.confirming, reason: why, orderId: orderId ?? payer.view?.order_id });
  return true;
}
