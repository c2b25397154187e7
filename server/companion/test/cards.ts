/**
 * Card data the companion's tests type in: the sandbox's test cards (design.md) and CVVs
 * chosen to be easy to find. The log-capture check (scan-log-capture.ts) looks for exactly
 * these, so every test that pays uses them.
 */
import { TEST_CARDS } from '@payform/gateway/testing';
import type { TestCardOutcome } from '@payform/gateway/testing';
import * as samples from '../../gateway/test/samples.js';

export function cardNumber(outcome: TestCardOutcome, brand: 'visa' | 'mastercard' | 'amex' = 'visa'): string {
  const card = TEST_CARDS.find((candidate) => candidate.outcome === outcome && (outcome !== 'success' || candidate.brand === brand));
  if (!card) throw new Error(`no test card for ${outcome}`);
  return card.number;
}

/** Three digits for Visa and Mastercard, four for Amex. */
export const TEST_CVV = '737';
export const TEST_AMEX_CVV = '7373';
export const TEST_CVVS = [TEST_CVV, TEST_AMEX_CVV] as const;

/** A future expiry, as the widget sends it. */
export const EXPIRY = { exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 };

export function card(outcome: TestCardOutcome = 'success', spaced = true) {
  const number = cardNumber(outcome);
  return { number: spaced ? number.replace(/(\d{4})(?=\d)/g, '$1 ') : number, ...EXPIRY, cvv: TEST_CVV };
}

/** What the widget sends: the browser's part of the gateway samples' fingerprint. */
export const FINGERPRINT = (({ browserAcceptHeader: _a, browserIpAddress: _i, browserUserAgent: _u, ...browser }) => browser)(samples.fingerprint);

export const CUSTOMER = { fname: 'Olena', lname: 'Koval', email: 'olena@example.com', phone: '+380501234567' };

/** What a customer sends from the sandbox's hosted payment page: a test card typed in its form. */
export function hostedCardForm(outcome: TestCardOutcome = 'success'): URLSearchParams {
  return new URLSearchParams({ cc_number: cardNumber(outcome), exp_month: String(EXPIRY.exp_month), exp_year: String(EXPIRY.exp_year), card_cvv: TEST_CVV });
}

/** Submits that form to the hosted page at `url` over HTTP; the redirect it answers is not followed. */
export function payOnHostedPage(url: string, outcome: TestCardOutcome = 'success'): Promise<Response> {
  return fetch(url, { method: 'POST', redirect: 'manual', body: hostedCardForm(outcome) });
}
