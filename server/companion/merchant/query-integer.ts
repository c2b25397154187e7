/**
 * A whole number in a query string. It arrives as text and is read with `pattern`, but the
 * OpenAPI document gives it as the bounded integer it stands for, so a generated client takes a
 * number (`limit: 50`, not `limit: '50'`) and knows the bounds the route refuses past.
 */
import * as z from 'zod';

export function queryInteger(pattern: RegExp, error: string, minimum: number, maximum: number) {
  return z
    .string()
    .regex(pattern, { error })
    .transform(Number)
    .pipe(z.number().min(minimum).max(maximum))
    .meta({ type: 'integer', minimum, maximum });
}
