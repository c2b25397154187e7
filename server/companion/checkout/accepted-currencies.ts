/**
 * The currencies a shop takes (`currencies`, PAYFORM_CURRENCIES): those its gateway project has
 * enabled. The gateway tells only by refusing a payment, once a customer has typed a card in a
 * session already opened; named here, a session or a charge in another currency is refused as
 * the shop's server opens it, naming the field and the setting.
 */
import * as z from 'zod';
import { Currency } from '@payform/gateway/wire';

/** A code written in lower case is named in capitals, the form it is taken in. */
const CurrencyCode = z
  .string()
  .superRefine((code, ctx) => {
    const capitals = code.toUpperCase();
    if (code !== capitals && Currency.safeParse(capitals).success) ctx.addIssue({ code: 'custom', message: `must be written in capitals: ${capitals}` });
  })
  .pipe(Currency);

export const Currencies = z
  .array(CurrencyCode)
  .min(1, { error: 'must name at least one currency (leave it unset to take any the gateway does)' })
  .superRefine((codes, ctx) => {
    codes.forEach((code, index) => {
      if (codes.indexOf(code) < index) ctx.addIssue({ code: 'custom', path: [index], message: `names ${code} twice` });
    });
  });

/** Why a session or charge in `currency` is refused; undefined when the shop takes it, or names none. */
export function currencyNotTaken(currency: string, taken: readonly string[] | undefined): string | undefined {
  if (!taken || taken.includes(currency)) return undefined;
  return `is not one this shop takes (${taken.join(', ')}; the currencies option, PAYFORM_CURRENCIES): open it in one of those, or enable ${currency} for the gateway project and add it there`;
}
