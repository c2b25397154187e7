/**
 * When and how long to wait before reading again. Only reads (GET) are retried: every POST of
 * the interface moves money or ends a payment, and the gateway has no idempotency key, so a
 * blind second attempt could charge or refund twice.
 */
import { GatewayUnavailableError, NetworkError, NetworkTimeoutError, RateLimitError } from './errors.js';
import type { GatewayError } from './errors.js';

export interface RetryPolicy {
  /** Further attempts after the first; 0 turns retrying off. */
  readonly maxRetries: number;
  /** Base of the exponential backoff. */
  readonly initialDelayMs: number;
  /** No single wait is longer; a Retry-After beyond it ends the retrying. */
  readonly maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 2, initialDelayMs: 300, maxDelayMs: 5_000 };

/** Errors worth another read: rate limiting, gateway failures, no or no timely answer. */
export function isRetryable(error: unknown): error is GatewayError {
  return (
    error instanceof RateLimitError ||
    error instanceof GatewayUnavailableError ||
    error instanceof NetworkError ||
    error instanceof NetworkTimeoutError
  );
}

/**
 * The wait before retry number `retry` (0-based), or undefined when the gateway asked for a
 * longer pause than the policy allows. Exponential, capped, with "equal jitter": at least half
 * the step, so clients that failed together do not come back together.
 */
export function retryDelay(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  const step = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  return step / 2 + random() * (step / 2);
}

/** Retry-After as delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
