/**
 * A whole number in a query string. It arrives as text, digits only (a sign where `minimum` is
 * below zero), but the OpenAPI document gives it as the bounded integer it stands for, so a
 * generated client takes a number (`limit: 50`, not `limit: '50'`) and knows the bounds the
 * route refuses past. Digits of any length are a number: one too large is refused as above
 * `maximum` (`limit=10000`: at most 200), not as no whole number.
 */
import * as z from 'zod';

export function queryInteger(error: string, minimum: number, maximum: number) {
  return z
    .string()
    .regex(minimum < 0 ? /^-?\d+$/ : /^\d+$/, { error })
    .transform(Number)
    .pipe(z.number().min(minimum).max(maximum))
    .meta({ type: 'integer', minimum, maximum });
}
