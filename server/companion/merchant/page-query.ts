/** `?limit=&cursor=` of the merchant API's lists, which page as the ledger does (newest first, by cursor). */
import * as z from 'zod';
import { queryInteger } from './query-integer.js';

export const PageQuery = {
  limit: queryInteger(/^\d{1,4}$/, 'must be a whole number', 1, 200).optional(),
  /** `next_cursor` of the previous page; the ledger refuses one it did not give (400 `cursor`). */
  cursor: z.string().min(1).max(256).optional(),
};
