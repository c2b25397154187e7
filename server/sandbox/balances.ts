/**
 * Balances of a project's accounts and terminals. A project whose settings name none has a
 * settlement account in its currency and a test account in XTS, and three terminals: the
 * e-commerce one that the sandbox's payments go through, a recurring-payments one, and an
 * offline one whose balance can never be read (it shows up in `failed_terminals`). Ids are
 * derived from the pos_id, so they stay the same across restarts.
 *
 * Available balances start from an opening figure and follow the project's successful payments:
 * purchases, captures and recurring charges in, less commission and refunds; payouts (credits)
 * and their commission out.
 */
import { createHash } from 'node:crypto';
import { toWireAmount, wireStep } from '@payform/gateway/wire';
import type { MinorUnits } from './state/amounts.js';
import type { AccountResponse, TerminalResponse } from '@payform/gateway/wire';
import type { Project } from './config.js';
import { totalFee } from './state/fees.js';
import { succeeded, sumAmounts } from './state/records.js';
import type { Order } from './state/records.js';

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
  if (project.accounts) return project.accounts;
  return [
    { id: derivedId(project, 'account:settlement'), name: 'Settlement account', currency: project.currency, live: true, opening: 1_250_000 },
    { id: derivedId(project, 'account:test'), name: 'Test account', currency: 'XTS', live: true, opening: 0 },
  ];
}

export function terminalsOf(project: Project): readonly Ledger[] {
  if (project.terminals) return project.terminals;
  return [
    { id: derivedId(project, 'terminal:ecommerce'), name: 'E-commerce terminal', currency: project.currency, live: true, opening: 480_000 },
    { id: derivedId(project, 'terminal:recurring'), name: 'Recurring payments terminal', currency: project.currency, live: false, opening: 93_550 },
    {
      id: derivedId(project, 'terminal:offline'),
      name: 'Offline terminal',
      currency: project.currency,
      live: false,
      opening: 0,
      // The sandbox's own, so a merchant seeing it in the back office does not take it for a fault of theirs.
      unavailable: 'Terminal balance is temporarily unavailable: the acquiring bank did not answer (the sandbox\'s offline terminal, whose balance never reads: it shows how failed_terminals look)',
    },
  ];
}

/**
 * Net turnover of the project's orders in a currency: what was paid in, less commission and
 * refunds, less what was paid out (credits) with their commission. Payouts are not turnover: the
 * rolling reserve is held on what came in.
 */
function turnover(orders: readonly Order[], currency: string): { gross: MinorUnits; net: MinorUnits } {
  let gross = 0;
  let net = 0;
  for (const order of orders) {
    if (order.payment.currency !== currency || order.payment.status !== 'success') continue;
    if (order.payment.method === 'credit') {
      net -= order.payment.amount + (order.payment.fees ? totalFee(order.payment.fees) : 0);
      continue;
    }
    const { paid, fees } = settled(order);
    gross += paid;
    net += paid - fees - sumAmounts(succeeded(order, 'refund'));
  }
  return { gross, net };
}

/** Money an order brought in and the commission on it: an auth counts by its captures. */
function settled(order: Order): { paid: MinorUnits; fees: MinorUnits } {
  const payment = order.payment;
  if (payment.method === 'lookup') return { paid: 0, fees: 0 };
  if (payment.method === 'auth') {
    const captures = succeeded(order, 'capture');
    return { paid: sumAmounts(captures), fees: captures.reduce((sum, capture) => sum + (capture.fees ? totalFee(capture.fees) : 0), 0) };
  }
  const charges = order.recurring?.charges ?? [];
  const fees = [payment.fees, ...charges.map((charge) => charge.fees)].reduce((sum: MinorUnits, paid) => sum + (paid ? totalFee(paid) : 0), 0);
  return { paid: payment.amount + sumAmounts(charges), fees };
}

export function accountView(ledger: Ledger, orders: readonly Order[], reserveSpelling: 'rollingReserve' | 'rolling_reserve'): AccountResponse {
  const { gross, net } = ledger.live ? turnover(orders, ledger.currency) : { gross: 0, net: 0 };
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

export function terminalView(ledger: Ledger, orders: readonly Order[]): TerminalResponse {
  const { net } = ledger.live ? turnover(orders, ledger.currency) : { net: 0 };
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
