/**
 * The answer for what the gateway or the ledger refused: every failure a request can meet
 * becomes a clear status and code in the companion's envelope, never a bare 500. Gateway
 * trouble is 502/503 (the client did nothing wrong and may try again); the ledger's refusals
 * are the client's 4xx.
 */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  AuthenticationError, GatewayError, GatewayUnavailableError, InvalidRequestError, NotFoundError, NotTheGatewayError, OutcomeUnknownError,
  RateLimitError, UnexpectedResponseError,
} from '@payform/gateway';
import { InvalidLedgerInput, isLedgerUnavailable, LedgerConflict, LedgerError, LedgerNotFound, OperationRefused } from '../../ledger/index.js';
import type { RefusalReason } from '../../ledger/index.js';
import { ApiProblem, capitalise, fieldReasons, retryAfterSeconds } from './problem.js';

/**
 * The codes of a gateway that failed a call (busy, refusing the credentials, unreachable, not
 * answering, answering nonsense) or sent the customer to a page the companion refused: the flow
 * that called it logged what it was doing and why, and the request log has the answer; no stack
 * of the companion's says more.
 */
export const GATEWAY_FAILURES: ReadonlySet<string> = new Set(['gateway_busy', 'gateway_credentials', 'not_the_gateway', 'outcome_unknown', 'gateway_error', 'gateway_unavailable', 'unsafe_redirect']);

export function gatewayProblem(error: GatewayError, rename?: (field: string) => string): ApiProblem {
  if (error instanceof InvalidRequestError) {
    return new ApiProblem(422, 'gateway_rejected', `The gateway refused the request: ${gatewayWords(error)}`, fieldReasons(error.fields, rename));
  }
  if (error instanceof NotFoundError) return new ApiProblem(404, 'not_found_at_gateway', 'The gateway does not know this order or resource');
  if (error instanceof RateLimitError) {
    const seconds = retryAfterSeconds(error.retryAfterMs ?? 1000);
    return new ApiProblem(503, 'gateway_busy', 'The gateway is rate limiting requests; try again shortly', undefined, { 'Retry-After': String(seconds) });
  }
  if (error instanceof AuthenticationError) return new ApiProblem(502, 'gateway_credentials', 'The gateway refused the companion’s credentials');
  // Another server at the gateway's address (a 421 for a host name, another service's 404, a
  // redirect): the companion's setup to fix, so no Retry-After — trying again meets it again.
  if (error instanceof NotTheGatewayError) {
    return new ApiProblem(502, 'not_the_gateway', 'What answers at the gateway’s address is not the gateway: the companion’s PAYFORM_GATEWAY_BASE_URL, or what stands in front of it, needs fixing (its log says what answered)');
  }
  if (error instanceof OutcomeUnknownError) {
    return new ApiProblem(504, 'outcome_unknown', 'The gateway did not answer in time; the outcome is being checked');
  }
  if (error instanceof UnexpectedResponseError) return new ApiProblem(502, 'gateway_error', 'The gateway answered something the companion cannot read');
  // A 5xx is the gateway answering that it failed: "cannot be reached" would send an operator to
  // the network. No connection or no answer is what that message is for.
  const what = error instanceof GatewayUnavailableError && error.status !== undefined ? `The gateway failed the request (HTTP ${error.status})` : 'The gateway cannot be reached';
  return new ApiProblem(503, 'gateway_unavailable', `${what}; try again shortly`, undefined, { 'Retry-After': '5' });
}

/**
 * What the gateway said, without the address the client asked (the gateway's path names the
 * point of sale): a developer's clue, kept in the log, not for a customer's browser.
 */
export function gatewayWords({ message, target }: GatewayError): string {
  const asked = target === undefined ? '' : ` to ${target}`;
  return asked && message.endsWith(asked) ? message.slice(0, -asked.length) : message;
}

// Refusals about the order's state are conflicts; the rest are amounts too large or misdirected.
const STATE_REFUSALS: ReadonlySet<RefusalReason> = new Set(['payment_not_successful', 'not_a_payment', 'not_an_auth', 'already_voided', 'void_pending', 'already_captured', 'nothing_captured', 'nothing_left']);

export function ledgerProblem(error: LedgerError): ApiProblem {
  if (error instanceof InvalidLedgerInput) return ApiProblem.invalid({ [snakeCase(error.field)]: error.reason });
  if (error instanceof LedgerNotFound) return ApiProblem.notFound(`The ${error.entity}`, `${error.entity}_not_found`);
  if (error instanceof LedgerConflict) return new ApiProblem(409, error.reason, error.message);
  if (error instanceof OperationRefused) {
    const status = STATE_REFUSALS.has(error.reason) ? 409 : 422;
    return new ApiProblem(status, error.reason, capitalise(error.message));
  }
  return new ApiProblem(409, error.code, error.message);
}

/** Seconds a client waits before trying again while the database cannot be reached. */
export const LEDGER_RETRY_AFTER_SECONDS = '2';

/** Nothing was written and the same request will work once the database is back. */
export function ledgerUnavailableProblem(): ApiProblem {
  return new ApiProblem(503, 'ledger_unavailable', 'The payment database cannot be reached right now; try again shortly', undefined, { 'Retry-After': LEDGER_RETRY_AFTER_SECONDS });
}

/** The envelope for anything a route threw; what is not a known failure is the companion's own 500. */
export function problemOf(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  if (isLedgerUnavailable(error)) return ledgerUnavailableProblem();
  if (error instanceof HTTPException) {
    // The validator's "Malformed JSON in request body"; other framework refusals keep their status.
    // The parser's own words are not passed on: they quote the body, which may hold a card number.
    if (/json/i.test(error.message)) return new ApiProblem(400, 'invalid_json', 'The body is not valid JSON', { body: 'is not valid JSON' });
    return new ApiProblem(error.status as ContentfulStatusCode, 'bad_request', error.message);
  }
  if (error instanceof LedgerError) return ledgerProblem(error);
  if (error instanceof GatewayError) return gatewayProblem(error);
  return new ApiProblem(500, 'internal_error', 'Something went wrong in the companion');
}

function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
