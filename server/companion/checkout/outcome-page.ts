/**
 * What the return landing shows when it has nowhere to send the customer (no `return_url`, no
 * page of origin): what happened, whether money was taken, and the way on — the shop's home
 * when the companion knows the one shop it serves, else that the page may be closed.
 */
import type { CheckoutSession } from '../../ledger/index.js';
import type { CustomerPage } from './customer-page.js';
import { PENDING_REFRESH_SECONDS } from './customer-page.js';
import { pageWords } from './page-words.js';
import type { PageLanguage, PageOutcome } from './page-words.js';
import type { SessionViewStatus } from './session-view.js';

/** The session's outcome as the customer reads it: a session the merchant closed was cancelled, not expired. */
export function pageOutcome(session: CheckoutSession, status: SessionViewStatus): PageOutcome {
  return status === 'expired' && session.status === 'closed' ? 'cancelled' : status;
}

/**
 * Nothing was taken: no attempt succeeded or is under way, and none was reported paid with other
 * figures (a discrepancy held for a person: there the page makes no promise).
 */
function nothingTaken(session: CheckoutSession, outcome: PageOutcome): boolean {
  return outcome !== 'success' && outcome !== 'pending' && !session.payment?.discrepancy;
}

export function outcomePage(
  language: PageLanguage,
  session: CheckoutSession,
  status: SessionViewStatus,
  message: string | undefined,
  shop: string | undefined,
): CustomerPage {
  const words = pageWords(language);
  const outcome = pageOutcome(session, status);
  const heading = (session.method === 'lookup' && outcome !== 'expired' && outcome !== 'cancelled' ? words.verificationHeadings[outcome] : undefined) ?? words.headings[outcome];
  // Still being decided: no way out that could lead to paying twice. One held for a person is
  // not decided by reloading: the page says so rather than promise an update that never comes.
  if (outcome === 'pending') {
    return session.payment?.discrepancy ? { heading, text: words.held } : { heading, text: words.checking, refreshSeconds: PENDING_REFRESH_SECONDS };
  }
  // The reasons a payment failed are written in English; other languages get the general sentence.
  const reason = message && (language === 'en' ? message : words.notCompleted);
  const said = outcome === 'success' ? [words.thanks] : [reason, nothingTaken(session, outcome) ? words.notCharged : undefined, shop ? undefined : words.close];
  return { heading, text: said.filter(Boolean).join(' '), ...(shop ? { link: { href: shop, label: words.backToShop } } : {}) };
}
