/**
 * Balances as the gateway reports them (bearer ADMIN_TOKEN), amounts in minor units. A terminal
 * whose balance cannot be read is listed under `failed_terminals`, not an error; read alone, it
 * is 503 `terminal_unavailable` with the gateway's reason.
 *
 *   GET /api/balances/accounts[/:id]   GET /api/balances/terminals[/:id]
 */
import { Hono } from 'hono';
import type { Context } from 'hono';
import * as z from 'zod';
import { GatewayError, GatewayUnavailableError, NotFoundError } from '@payform/gateway';
import type { Account } from '@payform/gateway';
import type { CompanionEnv } from '../context.js';
import { gatewayProblem, gatewayWords } from '../http/failure-problems.js';
import { ApiProblem } from '../http/problem.js';
import { AmountView } from '../http/amounts.js';

/** A balance's account or terminal id, as the gateway gives it. */
export const BALANCE_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const BalanceView = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  balances: z.object({ available: z.int().describe('Integer number of minor units of the currency; may be negative'), rolling_reserve: AmountView.optional() }),
});
export type BalanceView = z.output<typeof BalanceView>;

export const AccountList = z.object({ accounts: z.array(BalanceView) });
export const TerminalList = z.object({
  terminals: z.array(BalanceView),
  failed_terminals: z.array(z.object({ id: z.string(), message: z.string() })).describe('Terminals whose balance could not be read'),
});

export function balanceView(account: Account): BalanceView {
  const { available, rolling_reserve: reserve } = account.balances;
  return {
    id: account.id,
    name: account.name,
    currency: account.currency,
    balances: {
      available,
      ...(reserve === undefined ? {} : { rolling_reserve: reserve }),
    },
  };
}

export async function fromGateway<T>(read: () => Promise<T>, problemOf: (error: GatewayError) => ApiProblem = gatewayProblem): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw error instanceof GatewayError ? problemOf(error) : error;
  }
}

/**
 * A terminal the gateway cannot read answers its read with a 500 and its reason, as the list names
 * it under `failed_terminals`: that terminal's trouble (its acquirer), said with the gateway's
 * words, not the gateway away.
 */
function terminalProblem(error: GatewayError): ApiProblem {
  // 500, the gateway's "unexpected error": a balancer in front answers 502–504 when the gateway is away.
  if (!(error instanceof GatewayUnavailableError) || error.status !== 500) return balanceProblem('terminal')(error);
  return new ApiProblem(503, 'terminal_unavailable', `The gateway cannot read this terminal’s balance now: ${gatewayWords(error)}`, undefined, { 'Retry-After': '30' });
}

/** An id the gateway does not know is said as the account's or terminal's, not as an order's. */
const balanceProblem = (what: 'account' | 'terminal') => (error: GatewayError): ApiProblem =>
  error instanceof NotFoundError ? new ApiProblem(404, 'not_found_at_gateway', `The gateway knows no ${what} of this point of sale with this id`) : gatewayProblem(error);

function balanceId(c: Context<CompanionEnv>): string {
  const id = c.req.param('id') ?? '';
  if (!BALANCE_ID.test(id)) throw ApiProblem.invalid({ id: 'must be a UUID' });
  return id;
}

export function balanceRoutes(): Hono<CompanionEnv> {
  const balances = new Hono<CompanionEnv>();

  balances.get('/accounts', async (c) => {
    const accounts = await fromGateway(() => c.var.services.gateway.balances.listAccounts());
    return c.json({ accounts: accounts.map(balanceView) } satisfies z.output<typeof AccountList>);
  });
  balances.get('/accounts/:id', async (c) => {
    const id = balanceId(c);
    return c.json(balanceView(await fromGateway(() => c.var.services.gateway.balances.getAccount(id), balanceProblem('account'))));
  });
  balances.get('/terminals', async (c) => {
    const list = await fromGateway(() => c.var.services.gateway.balances.listTerminals());
    return c.json({ terminals: list.terminals.map(balanceView), failed_terminals: (list.failed_terminals ?? []).map(({ id, message }) => ({ id, message })) } satisfies z.output<typeof TerminalList>);
  });
  balances.get('/terminals/:id', async (c) => {
    const id = balanceId(c);
    return c.json(balanceView(await fromGateway(() => c.var.services.gateway.balances.getTerminal(id), terminalProblem)));
  });

  return balances;
}

