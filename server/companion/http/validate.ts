/**
 * `validate(target, schema)`: @hono/zod-validator with payform's reasons (the gateway's error
 * map, which never quotes a value) and the companion's envelope: 400 `invalid_request` with
 * `fields`. Validated data flows typed into the handler through `c.req.valid(target)`.
 *
 * A JSON body is read here and nowhere before: after the route's guards (admin token, pay
 * limits), which answer without waiting for it. NUL characters in it are refused first.
 */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type * as z from 'zod';
import { compiled, fieldIssues, wireErrorMap } from '@payform/gateway/wire';
import { nulRefused } from './guards.js';
import { ApiProblem, fieldReasons } from './problem.js';

export function validate<T extends z.ZodType, Where extends keyof ValidationTargets>(target: Where, schema: T) {
  const validator = zValidator(
    target,
    schema,
    (result) => {
      if (result.success) return;
      throw ApiProblem.invalid(fieldReasons(fieldIssues(result.error as unknown as z.ZodError)));
    },
    // The library's result type is zod v3's and v4's union; the call is v4's own. Synchronous
    // (no schema here refines asynchronously), through the schema's compiled parser.
    { validationFunction: (checked, value) => compiled(checked as z.ZodType).safeParse(value, { error: wireErrorMap }) as never },
  );
  if (target !== 'json') return validator;
  const guarded: typeof validator = async (c, next) => {
    const text = await c.req.text();
    if (text.includes('\\u0000') || text.includes('\0')) throw nulRefused();
    return validator(c, next);
  };
  return guarded;
}
