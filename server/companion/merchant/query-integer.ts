/**
 * A whole number in a query string. It arrives as text, digits only and perhaps a minus (a whole
 * number below `minimum`, `limit=-1`, is refused as below it, not as no whole number), but the OpenAPI document gives it as the bounded integer it stands for, so a
 * generated client takes a number (`limit: 50`, not `limit: '50'`) and knows the bounds the
 * route refuses past. Digits of any length are a number: one too large is refused as above
 * `maximum` (`limit=10000`: at most 200), not as no whole number.
 */
import * as z from 'zod';

export function queryInteger(error: string, minimum: number, maximum: number) {
  return z
    .string()
    .regex(/^-?\d+$/, { error })
    .transform(Number)
    .pipe(z.number().min(minimum).max(maximum))
    .meta({ type: 'integer', minimum, maximum });
}
