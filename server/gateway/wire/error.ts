/**
 * The gateway's error body, `{"message": String(≤512), "args": JSON}`. `args` comes in three
 * shapes and a client must accept all of them:
 *   - `{"code": "P-409"}` — a short machine code (≤16 characters);
 *   - `[{"field_name": "amount", "violation": "must be greater than 0"}]` — field violations;
 *   - `{"obj.amount": [{"msg": ["error.min"]}]}` — the legacy form, keyed by `obj` or `obj.<field>`.
 */
import * as z from 'zod';
import type { FieldIssue } from './issues.js';

export const CodeArgs = z.looseObject({ code: z.string().max(16) });
export const ViolationArgs = z.array(z.looseObject({ field_name: z.string(), violation: z.string() }));
export const LegacyArgs = z.record(z.string(), z.array(z.looseObject({ msg: z.array(z.string()) })));

export const ErrorBody = z.looseObject({
  message: z.string().max(512),
  args: z.union([CodeArgs, ViolationArgs, LegacyArgs]).nullish(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** The code of a duplicate order_id on create. */
export const DUPLICATE_ORDER_CODE = 'P-409';

/** What a client can learn from `args`, whatever its shape. */
export interface ErrorDetails {
  readonly code?: string;
  readonly fields: FieldIssue[];
}

export function readErrorArgs(args: unknown): ErrorDetails {
  const code = CodeArgs.safeParse(args);
  if (code.success) return { code: code.data.code, fields: [] };
  const violations = ViolationArgs.safeParse(args);
  if (violations.success) {
    return { fields: violations.data.map(({ field_name, violation }) => ({ field: field_name, reason: violation })) };
  }
  const legacy = LegacyArgs.safeParse(args);
  if (legacy.success) {
    return {
      fields: Object.entries(legacy.data).map(([key, entries]) => ({
        field: key.replace(/^obj\.?/, ''),
        reason: entries.flatMap((entry) => entry.msg).join('; '),
      })),
    };
  }
  return { fields: [] };
}

/** The field-violation form of `args`, as the sandbox answers a 400. */
export function violationArgs(issues: readonly FieldIssue[]): z.infer<typeof ViolationArgs> {
  return issues.map(({ field, reason }) => ({ field_name: field, violation: reason }));
}
