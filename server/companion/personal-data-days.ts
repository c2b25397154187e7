/**
 * How long a customer's personal details are kept after their order (`personalDataDays`,
 * PAYFORM_PERSONAL_DATA_DAYS): past it, reconciliation's pass erases them from the decided orders
 * (the ledger's retention.ts), as an erasure on request would. Unset: kept until erased on request.
 */
import * as z from 'zod';
import { kindOf } from './environment.js';

/**
 * A day at least (an order is decided and its webhooks in within one), ten years at most: longer
 * is no storage limit a shop would state, and far more likely a number of hours or seconds meant.
 */
export const PERSONAL_DATA_DAYS = { min: 1, max: 3650 } as const;

const RULE = `must be a whole number of days from ${PERSONAL_DATA_DAYS.min} to ${PERSONAL_DATA_DAYS.max}`;
const UNSET = 'leave it unset to keep them until erased on request';

/** What is wrong with `value` as the number of days, read from text (the variable, or an option given as a string); nothing when right. */
function textProblem(text: string, quoted: boolean): string | undefined {
  const trimmed = text.trim();
  // "30d", "30 days", "P30D", "30.0": a number of days written otherwise.
  const days = /^(?:p)?(\d+)(?:\.0+)?\s*(?:d|days?)?$/i.exec(trimmed)?.[1];
  if (days !== undefined && /^\d+$/.test(trimmed) && !quoted) return rangeProblem(Number(days));
  if (days !== undefined && Number(days) >= PERSONAL_DATA_DAYS.min && Number(days) <= PERSONAL_DATA_DAYS.max) {
    return `${RULE}: write ${Number(days)}${quoted ? ', a number without quotes' : ''}`;
  }
  return `${RULE} (it is ${JSON.stringify(text)}); ${UNSET}`;
}

function rangeProblem(days: number): string | undefined {
  if (Number.isSafeInteger(days) && days >= PERSONAL_DATA_DAYS.min && days <= PERSONAL_DATA_DAYS.max) return undefined;
  if (days === 0) return `${RULE} (it is 0, which would erase them at once); ${UNSET}`;
  return `${RULE} (it is ${String(days)})`;
}

/** The option's value: a number of days, refused with what to write instead. */
export const PersonalDataDays = z.unknown().transform((value, ctx) => {
  const problem = typeof value === 'number' ? rangeProblem(value) : typeof value === 'string' ? textProblem(value, true) : `${RULE}, not ${kindOf(value)}`;
  if (problem === undefined) return value as number;
  ctx.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
});

/** PAYFORM_PERSONAL_DATA_DAYS: the number of days as text. */
export const PersonalDataDaysVariable = z.string().transform((text, ctx) => {
  const problem = textProblem(text, false);
  if (problem === undefined) return Number(text.trim());
  ctx.addIssue({ code: 'custom', message: problem });
  return z.NEVER;
});
