/**
 * Rules every widget-facing action shares: the session must exist and allow the mode; a paid
 * session or one with an attempt in flight is answered with that attempt, never paid again.
 */
import type { CheckoutSession, CustomerDetails, Ledger, PayAttemptClaim, Payment, PaymentMethod, PaymentMode } from '../../ledger/index.js';
import type { MerchantSector } from '@payform/gateway';
import { ApiProblem } from '../http/problem.js';
import { cardInNames, missingCustomerFields } from './customer.js';
import { offers } from './session-view.js';

/** A session id: base64url of 32 random bytes, as the ledger makes them. */
export const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;

/** `tokenizes`: the widget sends the card to the gateway's tokenizer (the companion's `tokenizer` option). */
export async function payableSession(ledger: Ledger, sessionId: string, mode: PaymentMode, tokenizes: boolean): Promise<CheckoutSession> {
  const session = await ledger.getSession(sessionId);
  if (!session) throw ApiProblem.notFound('The checkout session', 'session_not_found');
  if (!session.allowedModes.includes(mode)) {
    throw new ApiProblem(409, 'mode_not_allowed', `This checkout session does not allow ${mode} payment`);
  }
  // Allowed yet not offered: only a card verification's direct mode is so (`offers`).
  if (!offers(session, mode, tokenizes)) {
    throw new ApiProblem(
      409,
      'mode_not_allowed',
      'This card verification is made on the gateway’s hosted page: cards go to the gateway’s tokenizer here, and the gateway takes no token in a verification',
    );
  }
  return session;
}

/** Why a session takes no new attempt, for the refusals that are not answered with a payment. */
export function closedSessionProblem(reason: 'closed' | 'expired' | 'retry_unavailable'): ApiProblem {
  if (reason === 'retry_unavailable') {
    return new ApiProblem(409, 'retry_unavailable', 'This checkout session cannot take another attempt; start a new checkout');
  }
  return new ApiProblem(409, 'session_expired', 'This checkout session has expired');
}

/** A claim refused because of the attempt in flight or paid: that attempt; otherwise the refusal. */
export function liveAttempt(claim: Extract<PayAttemptClaim, { claimed: false }>): Payment {
  if (claim.payment && (claim.reason === 'in_flight' || claim.reason === 'paid')) return claim.payment;
  throw closedSessionProblem(claim.reason === 'in_flight' || claim.reason === 'paid' ? 'retry_unavailable' : claim.reason);
}

/** The customer fields `mode` needs that neither the merchant nor the payer gave, and names that hold no card number together. */
export function requireCustomer(mode: PaymentMode, customer: CustomerDetails, method: PaymentMethod, sector: MerchantSector | undefined): void {
  // The payer's names and the merchant's prefill, each checked alone, may hold one together.
  const split = cardInNames(customer);
  if (split) throw ApiProblem.invalid({ 'customer.fname': split.fname, 'customer.lname': split.lname });
  const missing = missingCustomerFields([mode], customer, method, sector);
  if (missing.length === 0) return;
  const fields = Object.fromEntries(missing.map((field) => [`customer.${field}`, 'is required']));
  throw new ApiProblem(422, 'customer_required', 'Some customer details are required', fields);
}

