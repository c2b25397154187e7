/**
 * What a pay call needs to know of its session before it claims an attempt — amount, method,
 * modes, the merchant's customer data, the card it must be paid with — kept from when this
 * process opened or showed the session. None of it changes once the session is opened: only its
 * closing and its attempts do, and the claim reads those itself, under its lock. A pay call whose
 * session is known here skips its own read of the session; one that is not (opened by another
 * instance, or forgotten) reads it as before.
 */
import type { CheckoutSession } from '../../ledger/index.js';

/** A session's terms: what is fixed when it is opened. */
export type SessionTerms = Omit<CheckoutSession, 'status' | 'payment' | 'closedAt'>;

/** Sessions remembered; the oldest is forgotten first (a miss costs one read). */
const KEPT = 4_096;

export class KnownSessions {
  readonly #terms = new Map<string, SessionTerms>();

  /** Remembers what `session` was opened with (its status and attempt are not kept). */
  keep(session: CheckoutSession): void {
    if (this.#terms.has(session.id)) return;
    const { status: _status, payment: _payment, closedAt: _closedAt, ...terms } = session;
    this.#terms.set(session.id, terms);
    if (this.#terms.size > KEPT) this.#terms.delete(this.#terms.keys().next().value!);
  }

  terms(sessionId: string): SessionTerms | undefined {
    return this.#terms.get(sessionId);
  }
}
