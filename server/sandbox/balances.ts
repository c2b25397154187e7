/**
 * Balances of a project's accounts and terminals. An account holds one currency and the gateway
 * converts nothing (neither the interface nor its notes speak of conversion), so a project whose
 * settings name none has an account and an e-commerce terminal in every currency it accepts, and
 * a payment moves those of its own currency. Accounts: the settlement account in the project's
 * currency, the test account in XTS, a settlement account in each other accepted currency.
 * Terminals: the e-commerce one in the project's currency, a recurring-payments one, an offline
 * one whose balance can never be read (it shows up in `failed_terminals`), and an e-commerce one
 * in each other accepted currency. Ids are derived from the pos_id, so they stay the same across
 * restarts.
 *
 * Available balances start from an opening figure and follow the project's successful payments:
 * purchases, captures and recurring charges in, less commission and refunds (with a split
 * refund's commission); payouts (credits) and their commission out: every fee an answer or
 * webhook reports is taken, and no other. A read adds the project's orders up once, for every
 * currency.
 */
import { createHash } from 'node:crypto';
import { toWireAmount, wireStep } from '@payform/gateway/wire';
import type { MinorUnits } from './state/amounts.js';
import type { AccountResponse, TerminalResponse } from '@payform/gateway/wire';
import type { Project } from './config.js';
import { totalFee } from './state/fees.js';
import { succeeded, sumAmounts } from './state/records.js';
import type { Operation, Order } from './state/records.js';

export interface Ledger {
  readonly id: string;
  readonly name: string;
  readonly currency: string;
  /** Whether the project's payments in that currency move it. */
  readonly live: boolean;
  /** Minor units before any sandbox payment. */
  readonly opening: MinorUnits;
  /** Terminals only: its balance cannot be read. */
  readonly unavailable?: string;
}

/** The share of turnover held back as rolling reserve, in basis points. */
const ROLLING_RESERVE_BASIS_POINTS = 500;

export function accountsOf(project: Project): readonly Ledger[] {
  if (project.accounts) return onePerCurrency(project.accounts);
  const own = project.currency;
  const accounts: Ledger[] = [{ id: derivedId(project, 'account:settlement'), name: 'Settlement account', currency: own, live: true, opening: 1_250_000 }];
  // One account per currency: a project whose own currency is XTS has no second XTS account.
  if (own !== 'XTS') accounts.push({ id: derivedId(project, 'account:test'), name: 'Test account', currency: 'XTS', live: true, opening: 0 });
  for (const currency of project.currencies) {
    if (currency === own || currency === 'XTS') continue;
    accounts.push({ id: derivedId(project, `account:settlement:${currency}`), name: `Settlement account (${currency})`, currency, live: true, opening: 0 });
  }
  return accounts;
}

export function terminalsOf(project: Project): readonly Ledger[] {
  if (project.terminals) return onePerCurrency(project.terminals);
  const own = project.currency;
  const terminals: Ledger[] = [
    { id: derivedId(project, 'terminal:ecommerce'), name: 'E-commerce terminal', currency: own, live: true, opening: 480_000 },
    { id: derivedId(project, 'terminal:recurring'), name: 'Recurring payments terminal', currency: own, live: false, opening: 93_550 },
    {
      id: derivedId(project, 'terminal:offline'),
      name: 'Offline terminal',
      currency: own,
      live: false,
      opening: 0,
      // The sandbox's own, so a merchant seeing it in the back office does not take it for a fault of theirs.
      unavailable: 'Terminal balance is temporarily unavailable: the acquiring bank did not answer (the sandbox\'s offline terminal, whose balance never reads: it shows how failed_terminals look)',
    },
  ];
  for (const currency of project.currencies) {
    if (currency === own) continue;
    terminals.push({ id: derivedId(project, `terminal:ecommerce:${currency}`), name: `E-commerce terminal (${currency})`, currency, live: true, opening: 0 });
  }
  return terminals;
}

/**
 * A payment settles to one account and one terminal: of a project's own ledgers receiving
 * payments in one currency, the first listed. The others keep their opening balance (each
 * moving by every payment counted the project's money twice).
 */
function onePerCurrency(ledgers: readonly Ledger[]): readonly Ledger[] {
  const receiving = new Set<string>();
  return ledgers.map((ledger) => {
    if (!ledger.live) return ledger;
    if (receiving.has(ledger.currency)) return { ...ledger, live: false };
    receiving.add(ledger.currency);
    return ledger;
  });
}

/** Of a project's own ledgers, those receiving payments in a currency another listed before them does: they do not (onePerCurrency). */
function idleReceivers(ledgers: readonly Ledger[] | undefined): Ledger[] {
  if (!ledgers) return [];
  const settled = onePerCurrency(ledgers);
  return ledgers.filter((ledger, at) => ledger.live && !settled[at]!.live);
}

/**
 * What a project's own accounts and terminals leave out, as lines to say at start: a currency it
 * accepts that none of them is in, whose payments would move no balance there, without a word;
 * ledgers receiving payments in a currency it does not accept, or in one a ledger listed before
 * them already does (only the first moves). Empty when all is in order (always, for a project
 * with the sandbox's own).
 */
export function ledgerProblems(project: Project): string[] {
  const who = `project "${project.name}" (pos_id ${project.posId})`;
  const named = (ledgers: readonly Ledger[]) => ledgers.map((ledger) => `"${ledger.name}" (${ledger.currency})`).join(', ');
  const foreign = [...(project.accounts ?? []), ...(project.terminals ?? [])].filter((ledger) => ledger.live && !project.currencies.includes(ledger.currency));
  const idle = [...idleReceivers(project.accounts), ...idleReceivers(project.terminals)];
  const gaps = ledgerGaps(project);
  return [
    ...(gaps ? [`${who} ${gaps}`] : []),
    ...(foreign.length > 0
      ? [`${who} lists ${named(foreign)} in a currency it does not accept: no payment moves them. Add the currency to the project's "currencies", or set "receives_payments": false on them to mean that`]
      : []),
    ...(idle.length > 0
      ? [
          `${who} lists ${named(idle)} to receive payments in a currency a ledger listed before already does: ` +
            'a payment moves one account and one terminal, the first listed, and these keep their opening balance. Set "receives_payments": false on them to mean that',
        ]
      : []),
  ];
}

/** The accepted currencies a project's own accounts or terminals hold none of, said after the project's name; undefined when none. */
function ledgerGaps(project: Project): string | undefined {
  const missing = (ledgers: readonly Ledger[] | undefined) => (ledgers ? project.currencies.filter((currency) => !ledgers.some((ledger) => ledger.currency === currency)) : []);
  const gaps = (
    [
      ['account', missing(project.accounts)],
      ['terminal', missing(project.terminals)],
    ] as const
  ).filter(([, currencies]) => currencies.length > 0);
  if (gaps.length === 0) return undefined;
  return (
    `lists its own ledgers with ${gaps.map(([kind, currencies]) => `no ${kind} in ${currencies.join(', ')}`).join(' and ')}, ` +
    'currencies it accepts: its payments in them move no balance there. Add one in each (with "receives_payments": false to mean that), ' +
    'or leave the currency out of the project\'s "currencies" (when not given: every currency the sandbox takes)'
  );
}

/** What a currency's orders came to: `gross` paid in (the reserve is held on it), `net` after everything. */
export interface Turnover {
  readonly gross: MinorUnits;
  readonly net: MinorUnits;
}

const NO_TURNOVER: Turnover = { gross: 0, net: 0 };

/**
 * Net turnover of the project's orders, per currency, in one pass: what was paid in, less
 * commission and refunds, less what was paid out (credits) with their commission. Payouts are not
 * turnover: the rolling reserve is held on what came in.
 */
export function turnovers(orders: readonly Order[]): ReadonlyMap<string, Turnover> {
  const totals = new Map<string, { gross: MinorUnits; net: MinorUnits }>();
  for (const order of orders) {
    const payment = order.payment;
    if (payment.status !== 'success') continue;
    let total = totals.get(payment.currency);
    if (!total) totals.set(payment.currency, (total = { gross: 0, net: 0 }));
    if (payment.method === 'credit') {
      total.net -= payment.amount + (payment.fees ? totalFee(payment.fees) : 0);
      continue;
    }
    const { paid, fees } = settled(order);
    // A refund returns its amount and pays its commission (a split refund's, split_fee; others none).
    const refunds = succeeded(order, 'refund');
    total.gross += paid;
    total.net += paid - fees - sumAmounts(refunds) - feesOf(refunds);
  }
  return totals;
}

/** Money an order brought in and the commission on it: an auth counts by its captures. */
function settled(order: Order): { paid: MinorUnits; fees: MinorUnits } {
  const payment = order.payment;
  if (payment.method === 'lookup') return { paid: 0, fees: 0 };
  if (payment.method === 'auth') {
    const captures = succeeded(order, 'capture');
    return { paid: sumAmounts(captures), fees: feesOf(captures) };
  }
  const charges = order.recurring?.charges ?? [];
  const fees = [payment.fees, ...charges.map((charge) => charge.fees)].reduce((sum: MinorUnits, paid) => sum + (paid ? totalFee(paid) : 0), 0);
  return { paid: payment.amount + sumAmounts(charges), fees };
}

/** The commission of operations, as their answers and webhooks report it. */
function feesOf(operations: readonly Operation[]): MinorUnits {
  return operations.reduce((sum, operation) => sum + (operation.fees ? totalFee(operation.fees) : 0), 0);
}

function turnoverOf(ledger: Ledger, totals: ReadonlyMap<string, Turnover>): Turnover {
  return (ledger.live && totals.get(ledger.currency)) || NO_TURNOVER;
}

export function accountView(ledger: Ledger, totals: ReadonlyMap<string, Turnover>, reserveSpelling: 'rollingReserve' | 'rolling_reserve'): AccountResponse {
  const { gross, net } = turnoverOf(ledger, totals);
  // Rounded down to what the wire carries: 10 fils in a three-decimal currency, whose 0.506 it cannot say.
  const step = wireStep(ledger.currency);
  const reserve = Math.floor((gross * ROLLING_RESERVE_BASIS_POINTS) / (10_000 * step)) * step;
  return {
    id: ledger.id,
    name: ledger.name,
    currency: ledger.currency,
    balances: {
      available: toWireAmount(ledger.opening + net - reserve, ledger.currency),
      [reserveSpelling]: toWireAmount(reserve, ledger.currency),
    },
  };
}

export function terminalView(ledger: Ledger, totals: ReadonlyMap<string, Turnover>): TerminalResponse {
  const { net } = turnoverOf(ledger, totals);
  return {
    id: ledger.id,
    name: ledger.name,
    currency: ledger.currency,
    balances: { available: toWireAmount(ledger.opening + net, ledger.currency) },
  };
}

/** A UUID-shaped id that is the same for the same project every time. */
function derivedId(project: Project, what: string): string {
  const hex = createHash('sha256').update(`${project.posId}|${what}`).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
