/** Identifiers the sandbox issues, shaped like the gateway's. */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';

export const newUuid = (): string => randomUUID();

/** An unguessable capability for links handed to browsers (checkout, challenge, receipt). */
export const newCapability = (): string => randomBytes(16).toString('hex');

/** A string of random digits, never starting with 0 (acquirer order numbers, RRNs). */
export function randomDigits(length: number): string {
  let digits = String(randomInt(1, 10));
  while (digits.length < length) digits += String(randomInt(0, 10));
  return digits;
}

/** Identifiers every transaction carries. */
export function transactionIdentifiers(): { transactionId: string; receiptKey: string; approvalCode: string; rrn: string } {
  return { transactionId: newUuid(), receiptKey: newCapability(), approvalCode: randomDigits(6), rrn: randomDigits(12) };
}
