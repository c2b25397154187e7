/**
 * Free text that is kept, shown and sent on (a session's description, an operation's comment):
 * masked here, once, as it is read — a card number or a security code typed into it never gets
 * further (`maskFreeText`: in a text that names a CVV, every 3–4-digit run but its dates' and
 * times'). A mask may be longer than what it hides (`[cvv]` for three digits), and the masked text
 * still has the gateway's limit to fit: one that would not is refused for that, not for a length
 * the text as sent does not have.
 */
import type * as z from 'zod';
import { maskFreeText } from '@payform/gateway';

export const maskedText = <T extends z.ZodType<string>>(text: T, max: number) =>
  text
    .transform(maskFreeText)
    .refine((masked) => masked.length <= max, {
      error: (issue) => `must be at most ${max} characters once its security codes are masked as [cvv] and card numbers as [card number]: it would be ${(issue.input as string).length}`,
    })
    // Said to a client generated from the OpenAPI document, which reads the text given back.
    .meta({ description: `At most ${max} characters. A card number in it is kept and given back as [card number], and in a text that names a CVV each 3–4-digit run but dates and times as [cvv]` });
