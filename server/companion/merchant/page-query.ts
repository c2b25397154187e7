/** `?limit=&cursor=` of the merchant API's lists, which page as the ledger does (newest first, by cursor). */
import * as z from 'zod';

const Count = z.string().regex(/^\d{1,4}$/, { error: 'must be a whole number' }).transform(Number);

export const PageQuery = {
  limit: Count.pipe(z.number().min(1).max(200)).optional(),
  /** `next_cursor` of the previous page; the ledger refuses one it did not give (400 `cursor`). */
  cursor: z.string().min(1).max(256).optional(),
};
