/**
 * `validate(target, schema)`: @hono/zod-validator with payform's reasons (the gateway's error
 * map, which never quotes a value) and the companion's envelope: 400 `invalid_request` with
 * `fields`. Validated data flows typed into the handler through `c.req.valid(target)`.
 */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import type * as z from 'zod';
import { fieldIssues, wireErrorMap } from '@payform/gateway/wire';
import { ApiProblem, fieldReasons } from './problem.js';

export function validate<T extends z.ZodType, Where extends keyof ValidationTargets>(target: Where, schema: T) {
  return zValidator(
    target,
    schema,
    (result) => {
      if (result.success) return;
      throw ApiProblem.invalid(fieldReasons(fieldIssues(result.error as unknown as z.ZodError)));
    },
    // The library's result type is zod v3's and v4's union; the call is v4's own safeParseAsync.
    { validationFunction: (checked, value) => (checked as z.ZodType).safeParseAsync(value, { error: wireErrorMap }) as never },
  );
}
