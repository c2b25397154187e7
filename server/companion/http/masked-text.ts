/**
 * Free text that is kept, shown and sent on with its card data masked (a session's description,
 * an operation's comment). A mask may be longer than what it hides (`[cvv]` for three digits),
 * and the masked text still has the gateway's limit to fit: one that would not is refused for
 * that, not for a length the text as sent does not have.
 */
import type * as z from 'zod';
import { maskStoredText } from '../log/redact.js';

export const fitsMasked = <T extends z.ZodType<string>>(text: T, max: number) =>
  text.refine((value) => maskStoredText(value).length <= max, {
    error: (issue) =>
      `must be at most ${max} characters once its security codes are masked as [cvv] and card numbers as [card number]: it would be ${maskStoredText(issue.input as string).length}`,
  });
