/** Balances of the merchant's accounts and terminals — reads, retried like every GET. */
import { toAccount, toTerminalList } from '../objects.js';
import type { Account, Terminal, TerminalList } from '../objects.js';
import { fetchJson } from '../replies.js';
import { wireParams } from '../requests.js';
import type { RequestOptions } from '../transport.js';
import {
  AccountListResponse, AccountParams, AccountResponse, BalancesParams, TerminalListResponse, TerminalParams,
  TerminalResponse,
} from '../wire/balance.js';
import { routes } from '../wire/routes.js';
import type { GatewayContext } from './context.js';

export class Balances {
  readonly #gateway: GatewayContext;

  constructor(gateway: GatewayContext) {
    this.#gateway = gateway;
  }

  async listAccounts(options?: RequestOptions): Promise<Account[]> {
    const call = { route: routes.accounts, params: wireParams(BalancesParams, this.#pos()), ...options };
    return fetchJson(this.#gateway.transport, call, AccountListResponse, (list) => list.accounts.map(toAccount));
  }

  /** account_id as shown in the merchant portal under Balances. */
  async getAccount(accountId: string, options?: RequestOptions): Promise<Account> {
    const params = wireParams(AccountParams, { ...this.#pos(), account_id: accountId });
    return fetchJson(this.#gateway.transport, { route: routes.account, params, ...options }, AccountResponse, toAccount);
  }

  /** Terminals whose balance cannot be read are listed in `failed_terminals`, not thrown. */
  async listTerminals(options?: RequestOptions): Promise<TerminalList> {
    const call = { route: routes.terminals, params: wireParams(BalancesParams, this.#pos()), ...options };
    return fetchJson(this.#gateway.transport, call, TerminalListResponse, toTerminalList);
  }

  /** terminal_id as given by the gateway's support. */
  async getTerminal(terminalId: string, options?: RequestOptions): Promise<Terminal> {
    const params = wireParams(TerminalParams, { ...this.#pos(), terminal_id: terminalId });
    return fetchJson(this.#gateway.transport, { route: routes.terminal, params, ...options }, TerminalResponse, toAccount);
  }

  #pos(): { pos_id: string } {
    return { pos_id: this.#gateway.posId };
  }
}
