/** Identifiers the sandbox issues, shaped like the gateway's. */
import { randomFillSync, randomUUID } from 'node:crypto';

export const newUuid = (): string => randomUUID();

// Random bytes come from a pool refilled 4 KiB at a time (as randomUUID does): a randomBytes or
// randomInt call per identifier is a crypto job each, and a payment takes over forty of them.
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function randomByte(): number {
  if (poolOffset === POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** `bytes` random bytes as hexadecimal: tokens and capabilities. */
export function randomHex(bytes: number): string {
  if (poolOffset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const hex = pool.toString('hex', poolOffset, poolOffset + bytes);
  poolOffset += bytes;
  return hex;
}

/** An unguessable capability for links handed to browsers (checkout, challenge, receipt). */
export const newCapability = (): string => randomHex(16);

/** A string of random digits, never starting with 0 (acquirer order numbers, RRNs). */
export function randomDigits(length: number): string {
  let digits = '';
  while (digits.length < length) {
    const byte = randomByte();
    // 250 is 25 tens: a byte above it is dropped, so every digit is equally likely.
    if (byte >= 250) continue;
    const digit = byte % 10;
    if (digit !== 0 || digits !== '') digits += String(digit);
  }
  return digits;
}

/** Identifiers every transaction carries. */
export function transactionIdentifiers(): { transactionId: string; receiptKey: string; approvalCode: string; rrn: string } {
  return { transactionId: newUuid(), receiptKey: newCapability(), approvalCode: randomDigits(6), rrn: randomDigits(12) };
}
