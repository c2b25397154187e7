// Typed refusals of the store. Callers map `code` to an HTTP status; whenever one of these is
// thrown, nothing was written.

export type LedgerErrorCode = 'invalid_input' | 'not_found' | 'conflict' | 'operation_refused';

export abstract class LedgerError extends Error {
  abstract readonly code: LedgerErrorCode;
}

/** The caller sent something the store never accepts (a negative amount, an over-long text…). */
export class InvalidLedgerInput extends LedgerError {
  readonly code = 'invalid_input';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'InvalidLedgerInput';
  }
}

export type LedgerEntity = 'session' | 'order' | 'operation' | 'card';

export class LedgerNotFound extends LedgerError {
  readonly code = 'not_found';
  constructor(
    readonly entity: LedgerEntity,
    readonly key: string,
  ) {
    super(`unknown ${entity} ${JSON.stringify(key)}`);
    this.name = 'LedgerNotFound';
  }
}

export type ConflictReason =
  | 'order_id_taken'
  | 'operation_id_taken'
  | 'event_not_unmatched'
  | 'no_discrepancy'
  | 'discrepancy_changed'
  | 'discrepancy_settled'
  /** A customer's erasure while an order of theirs is still to be decided (erasure.ts). */
  | 'payment_in_flight';

export class LedgerConflict extends LedgerError {
  readonly code = 'conflict';
  constructor(
    readonly reason: ConflictReason,
    message: string,
  ) {
    super(message);
    this.name = 'LedgerConflict';
  }
}

/** An erasure held back by orders of the customer's not decided yet (erasure.ts): `orderIds` names them. */
export class OrdersInFlight extends LedgerConflict {
  constructor(
    readonly orderIds: readonly string[],
    message: string,
  ) {
    super('payment_in_flight', message);
    this.name = 'OrdersInFlight';
  }
}

export type RefusalReason =
  | 'payment_not_successful'
  | 'not_a_payment'
  | 'not_an_auth'
  | 'already_voided'
  /** A void whose answer is not in yet: it may still fail, and the auth be captured after all. */
  | 'void_pending'
  | 'already_captured'
  | 'nothing_captured'
  | 'nothing_left'
  | 'exceeds_capturable'
  | 'split_not_whole_reserve'
  | 'exceeds_refundable'
  | 'unknown_sub_merchant'
  | 'exceeds_sub_merchant_share'
  | 'split_refund_required';

/**
 * A money rule forbids the operation. `available` says how much would be allowed (minor units);
 * `subMerchantId` which share of a split refund broke the rule. Callers word their own answers
 * from these values; `message` is for logs.
 */
export class OperationRefused extends LedgerError {
  readonly code = 'operation_refused';
  readonly subMerchantId: string | undefined;
  constructor(
    readonly reason: RefusalReason,
    message: string,
    readonly available?: number,
    details: { readonly subMerchantId?: string } = {},
  ) {
    super(message);
    this.name = 'OperationRefused';
    this.subMerchantId = details.subMerchantId;
  }
}
