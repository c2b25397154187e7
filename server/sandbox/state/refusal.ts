/**
 * Requests the sandbox refuses outright, with the HTTP status and error body the gateway gives
 * them. (A business decline of a payment, capture, void or refund is not a refusal: it is a
 * payment or operation with status `failure`, answered with 200.)
 */
import { maskCardData } from '@payform/gateway';
import { DUPLICATE_ORDER_CODE, violationArgs, describeIssues } from '@payform/gateway/wire';
import type { ErrorBody, FieldIssue } from '@payform/gateway/wire';

export type RefusalStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 413 | 421 | 500;

export class Refusal extends Error {
  override readonly name = 'Refusal';
  readonly status: RefusalStatus;
  readonly args: ErrorBody['args'];
  /** The message was masked issue by issue (`invalid`): masked whole again, one field's CVV would mask another's figures. */
  #maskedByIssue = false;

  constructor(status: RefusalStatus, message: string, args?: ErrorBody['args']) {
    super(message);
    this.status = status;
    this.args = args;
  }

  /** The gateway's error body: message of at most 512 characters and args; a path or id it quotes never gives a card number back. */
  get body(): ErrorBody {
    const masked = this.#maskedByIssue ? this.message : maskCardData(this.message);
    const message = masked.length > 512 ? `${masked.slice(0, 509)}...` : masked;
    return this.args === undefined ? { message } : { message, args: this.args };
  }

  /**
   * Each issue masked by its own words, in the message and the args alike: `card_cvv` refused
   * beside `description: must be at most 2048 characters` leaves that 2048 as it is.
   */
  static invalid(issues: readonly FieldIssue[]): Refusal {
    const masked = issues.map((issue) => maskCardData(issue));
    const refusal = new Refusal(400, `Invalid request: ${describeIssues(masked)}`, violationArgs(masked));
    refusal.#maskedByIssue = true;
    return refusal;
  }

  static invalidField(field: string, reason: string): Refusal {
    return Refusal.invalid([{ field, reason }]);
  }

  static duplicateOrder(orderId: string): Refusal {
    return new Refusal(409, `Order ${orderId} already exists`, { code: DUPLICATE_ORDER_CODE });
  }

  static notFound(what: string): Refusal {
    return new Refusal(404, `${what} not found`, { code: 'P-404' });
  }

  /** The request is well formed but the order's state does not allow it. */
  static notAllowed(message: string): Refusal {
    return new Refusal(400, message, { code: '4150' });
  }
}
