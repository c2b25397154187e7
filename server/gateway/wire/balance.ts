/** Balances of accounts and terminals (interface endpoint 9): path parameters and responses. */
import * as z from 'zod';
import { Currency, ResponseAmount, Uuid } from './primitives.js';

export const BalancesParams = z.strictObject({ pos_id: Uuid });
export const AccountParams = z.strictObject({ pos_id: Uuid, account_id: Uuid });
export const TerminalParams = z.strictObject({ pos_id: Uuid, terminal_id: Uuid });

/**
 * Balances may be negative (refunds after payouts). The rolling reserve is spelt
 * `rollingReserve` in some samples and `rolling_reserve` in others: both are read.
 */
export const Balances = z.looseObject({
  available: ResponseAmount,
  rollingReserve: ResponseAmount.nullish(),
  rolling_reserve: ResponseAmount.nullish(),
});

export const AccountResponse = z.looseObject({ id: Uuid, name: z.string(), currency: Currency, balances: Balances });
export type AccountResponse = z.infer<typeof AccountResponse>;

export const AccountListResponse = z.looseObject({ accounts: z.array(AccountResponse) });
export type AccountListResponse = z.infer<typeof AccountListResponse>;

export const TerminalResponse = z.looseObject({ id: Uuid, name: z.string(), currency: Currency, balances: Balances });
export type TerminalResponse = z.infer<typeof TerminalResponse>;

/** A terminal whose balance could not be read; the list still answers 200. */
export const FailedTerminal = z.looseObject({ id: Uuid, message: z.string() });

export const TerminalListResponse = z.looseObject({
  terminals: z.array(TerminalResponse),
  failed_terminals: z.array(FailedTerminal).nullish(),
});
export type TerminalListResponse = z.infer<typeof TerminalListResponse>;
