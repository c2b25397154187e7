/** `?limit=&cursor=` of the merchant API's lists, which page as the ledger does (newest first, by cursor). */
import * as z from 'zod';
import { queryInteger } from './query-integer.js';

/** The ledger's largest page: its list reads refuse a `limit` above 200 (server/ledger/input.ts, pageShape). */
export const LARGEST_PAGE = 200;

export const PageQuery = {
  limit: queryInteger('must be a whole number', 1, LARGEST_PAGE).optional(),
  /** `next_cursor` of the previous page; the ledger refuses one it did not give (400 `cursor`). */
  cursor: z.string().min(1).max(256).optional(),
};
