/** Split shares in the companion's JSON: each sub-merchant's amount, in minor units. */
import * as z from 'zod';
import { Uuid } from '@payform/gateway/wire';
import { Amount } from './amounts.js';

export const SplitShare = z.strictObject({ amount: Amount, sub_merchant_id: Uuid });
export const SplitShares = z.array(SplitShare).min(1).max(100);
