/**
 * Which of the gateway's captures, voids and refunds of an order is which of the ledger's. The
 * live gateway's order state promises no operation id on its entries, so after a lost answer a
 * reservation is found by what it is: its kind, its amount, and a time not before it was made.
 * The ledger's operations are taken in the order it made them, each pairing with the earliest
 * entry that fits and no other operation has taken — so operations already settled use up their
 * own entries first, and an older operation of the same amount made elsewhere is not mistaken
 * for a newer reservation.
 */
import type { OrderOperation } from '@payform/gateway';
import { sentInFull } from '../../ledger/index.js';
import type { Operation, Payment } from '../../ledger/index.js';
import { gatewayTime } from './gateway-time.js';

/**
 * How far the gateway's clock may run behind the ledger's. Its timestamps carry no zone; they
 * are read as UTC (a gateway writing local time east of UTC only makes entries look later).
 */
const CLOCK_SKEW_MS = 10 * 60_000;

const SECONDARY = new Set<string>(['capture', 'void', 'refund']);

export interface OperationMatches {
  /** Pending reservations the gateway's entries describe: ledger id → entry. */
  readonly settling: ReadonlyMap<string, OrderOperation>;
  /**
   * Pending reservations the gateway may be showing: matched ones, and those for which an entry
   * that fits them (fitsReservation) is left over. None of them may be given up as never sent.
   */
  readonly shown: ReadonlySet<string>;
  /** The gateway's entries no operation of the ledger's pairs with: made elsewhere, or late. */
  readonly unpaired: readonly OrderOperation[];
  /**
   * Pending reservations left unpaired with an entry of their kind and amount dated too early to
   * be theirs — by how many ms it precedes the reservation. Made elsewhere before, or this
   * machine's clock runs ahead of the gateway's by about that much.
   */
  readonly predated: ReadonlyMap<string, number>;
}

/**
 * Whether an entry of the gateway's may be a reservation's by kind and amount: its own amount, or
 * for one sent in the full form (the whole payment), any less — the gateway makes that of what it
 * holds, less than the ledger reserved when an operation made at the gateway never reached it.
 */
export function fitsReservation(payment: Pick<Payment, 'method' | 'amount'>, operation: Operation, kind: string, amount: number | undefined): boolean {
  if (operation.kind !== kind || amount === undefined) return false;
  return amount === operation.amount || (amount < operation.amount && sentInFull(payment, operation));
}

/** `operations` in the order the ledger made them; `entries` as the gateway listed them; `payment` theirs. */
export function matchOperations(payment: Pick<Payment, 'method' | 'amount'>, operations: readonly Operation[], entries: readonly OrderOperation[]): OperationMatches {
  const owners = new Map(operations.flatMap((operation) => (operation.operationId ? [[operation.operationId, operation] as const] : [])));
  const paired = new Map<string, OrderOperation>();
  const left: OrderOperation[] = [];
  for (const entry of entries.filter((candidate) => SECONDARY.has(candidate.method))) {
    const owner = entry.operation_id ? owners.get(entry.operation_id) : undefined;
    if (owner && owner.kind === entry.method) paired.set(owner.id, entry);
    else left.push(entry);
  }
  for (const operation of operations) {
    if (paired.has(operation.id) || !mayBeAtGateway(operation)) continue;
    const index = left.findIndex((entry) => entry.method === operation.kind && entry.amount === operation.amount && mayBe(operation, entry));
    if (index >= 0) paired.set(operation.id, left.splice(index, 1)[0]!);
  }
  // Then a pending reservation of the whole payment, left unpaired by its amount, takes the
  // latest entry of its kind for less that fits (its own amounts paired first): nothing of its
  // kind can follow it, as it took all there was, while a portal's refund before it may be listed.
  for (const operation of operations) {
    if (paired.has(operation.id) || operation.status !== 'pending') continue;
    const index = left.findLastIndex((entry) => entry.amount !== operation.amount && fitsReservation(payment, operation, entry.method, entry.amount) && mayBe(operation, entry));
    if (index >= 0) paired.set(operation.id, left.splice(index, 1)[0]!);
  }
  const pending = operations.filter((operation) => operation.status === 'pending');
  const settling = new Map(pending.flatMap((operation) => (paired.has(operation.id) ? [[operation.id, paired.get(operation.id)!] as const] : [])));
  const predated = new Map(
    pending.flatMap((operation) => {
      if (settling.has(operation.id)) return [];
      // Every entry of its kind and amount left over was refused for its date alone: another
      // operation id would have said whose it is.
      const alike = left.filter((entry) => entry.method === operation.kind && entry.amount === operation.amount && !(operation.operationId && entry.operation_id));
      const times = alike.map((entry) => gatewayTime(entry.created_at));
      const latest = Math.max(...times.filter((time) => time !== undefined));
      return Number.isFinite(latest) ? [[operation.id, operation.createdAt - latest] as const] : [];
    }),
  );
  const shown = new Set(
    pending
      .filter((operation) => settling.has(operation.id) || left.some((entry) => fitsReservation(payment, operation, entry.method, entry.amount)))
      .map((operation) => operation.id),
  );
  return { settling, shown, unpaired: left, predated };
}

/**
 * Whether the gateway can have this operation: still pending, or settled by the gateway's word
 * (an operation id, a success — only the gateway says success —, or a decline with its code).
 * A failure without either was ended here (refused before sending, given up) and never got there.
 */
function mayBeAtGateway(operation: Operation): boolean {
  return operation.status !== 'failure' || operation.operationId !== null || operation.statusCode !== null;
}

function mayBe(operation: Operation, entry: OrderOperation): boolean {
  if (operation.operationId && entry.operation_id && entry.operation_id !== operation.operationId) return false;
  const created = gatewayTime(entry.created_at);
  return created === undefined || created >= operation.createdAt - CLOCK_SKEW_MS;
}
