/**
 * More time to pay, asked for by the customer as the session's end nears (WCAG 2.2.1 Timing
 * Adjustable): `POST /api/checkout/sessions/:id/extend`, which the widget offers beside its
 * "expires in less than 2 minutes" warning. The ledger decides (extendSession): ten minutes from
 * now once 3 minutes or less are left, up to 20 hours after the session opened, never for a
 * session opened with `extendable: false`, nor one being paid, paid, closed or ended.
 */
import * as z from 'zod';
import { EXTENDED_LIFE_MS } from '../../ledger/index.js';
import type { CheckoutSession, SessionExtension } from '../../ledger/index.js';
import { ApiProblem } from '../http/problem.js';

export const ExtendedSession = z.object({
  expires_in_seconds: z.int().nonnegative().describe('The seconds left now, as in the session view'),
  extendable: z.boolean().describe('Whether another extension would give more time later (false at 20 hours after the session opened)'),
});
export type ExtendedSession = z.infer<typeof ExtendedSession>;

/** Whether the session's end may still move: `endFixed` is Ledger.isSessionEndFixed's answer. */
export function extendable(session: Pick<CheckoutSession, 'createdAt' | 'expiresAt'>, endFixed: boolean): boolean {
  return !endFixed && session.expiresAt < session.createdAt + EXTENDED_LIFE_MS;
}

/** The answer to an extension: the time now left, or why none was given (409). */
export function extensionAnswer(extension: SessionExtension, now: number): ExtendedSession {
  if (extension.extended) {
    const { session } = extension;
    return { expires_in_seconds: Math.max(0, Math.floor((session.expiresAt - now) / 1000)), extendable: extendable(session, false) };
  }
  switch (extension.reason) {
    case 'early':
      throw new ApiProblem(409, 'extension_too_early', 'This checkout session has more than 3 minutes left: more time is given as its end nears');
    case 'fixed':
      throw new ApiProblem(409, 'session_end_fixed', 'The shop set a fixed end to this checkout session: it cannot be extended');
    case 'limit':
      throw new ApiProblem(409, 'extension_limit', 'This checkout session cannot be extended further: a session ends at most 20 hours after it opened');
    case 'in_flight':
      throw new ApiProblem(409, 'payment_in_progress', 'A payment for this checkout session is in progress');
    case 'paid':
      throw new ApiProblem(409, 'already_paid', 'This checkout session is paid');
    case 'closed':
    case 'expired':
      throw new ApiProblem(409, 'session_expired', 'This checkout session has expired');
  }
}
