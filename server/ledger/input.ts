// What the store accepts. Every public write parses its input here first, so a bad value is
// refused with an InvalidLedgerInput naming the field before anything touches the database.
import { z } from 'zod';
import { maskFreeText } from '@payform/gateway';
import { BIDI_CONTROLS, compiled, SOMETHING_VISIBLE, wireRangeRefusal } from '@payform/gateway/wire';
import { InvalidLedgerInput } from './errors.js';
import { splitTotal } from './money-rules.js';
import { isTimeZone } from './time-zone.js';

export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = compiled(schema).safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || 'input';
  throw new InvalidLedgerInput(field, issue?.message ?? 'is invalid');
}

/** The most a settlement's note holds: a sentence or two, what was done and where. */
export const SETTLEMENT_NOTE_MAX = 500;

export const minorAmount = z
  .number({ error: 'must be a number of minor units' })
  .int('must be a whole number of minor units')
  .positive('must be positive')
  .max(Number.MAX_SAFE_INTEGER, 'is too large');

/**
 * An amount the gateway reported, compared with the order's: 0 when it named nothing (readable)
 * — a payer who paid nothing, or an amount the companion could not read — never a match.
 */
const reportedAmount = z.number({ error: 'must be a number of minor units' }).int('must be a whole number of minor units').min(0, 'must not be negative').max(Number.MAX_SAFE_INTEGER, 'is too large');

/**
 * What the gateway reports, with every NUL character replaced by U+FFFD: PostgreSQL's text
 * cannot hold one, and the same report must be kept alike on either database. `data` is never
 * stored (its hash is the event's identity), so it stays exactly as received.
 */
function withoutNul<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (typeof value === 'object' && value !== null && holdsNul(value) ? replaceNul(value) : value), schema);
}

/** Reports almost never hold one: checked first, so the usual report is not copied. */
function holdsNul(value: object): boolean {
  for (const [key, field] of Object.entries(value)) if (typeof field === 'string' && key !== 'data' && field.includes('\0')) return true;
  return false;
}

function replaceNul(value: object): object {
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, typeof field === 'string' && key !== 'data' ? field.replaceAll('\0', '\uFFFD') : field]));
}

const currency = z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code in capitals');

// Order ids travel in gateway URL paths (cancel, receipts, order state), so keep them plain.
// A session's own order id leaves room for its retries, `<order_id>:<attempt>`: no colon (so a
// merchant's id can never be a retry's) and at most 28 characters (so `:999` still fits the
// 32 that capture, void and refund accept).
export const orderId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,27}$/, 'must be 1–28 characters of letters, digits and . _ -');

const text = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const webUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .max(2048, 'must be at most 2048 characters');

/** A mask keeps at most first six and last four digits; anything longer may be a card number. */
const ccMask = text(32).refine((mask) => (mask.match(/\d/g)?.length ?? 0) <= 10, 'must be masked');

const splitShares = z
  .array(z.strictObject({ subMerchantId: text(64), amount: minorAmount }), 'must be a list of shares')
  .min(1, 'must name at least one sub-merchant')
  .max(100, 'must name at most 100 sub-merchants')
  .refine(
    (shares) => new Set(shares.map((share) => share.subMerchantId)).size === shares.length,
    'must name each sub-merchant once',
  );

const customer = z.strictObject({
  fname: text(256).optional(),
  lname: text(256).optional(),
  patronym: text(256).optional(),
  email: text(320).optional(),
  phone: text(64).optional(),
  ip: text(64).optional(),
  country: z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code').optional(),
  birthday: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be yyyy-MM-dd').optional(),
  city: text(256).optional(),
  lang: text(16).optional(),
  taxId: text(64).optional(),
});

const mode = z.enum(['direct', 'hosted']);
const statusCode = z.string().max(16, 'must be at most 16 characters');

/** A session's lifetime in seconds. */
export const sessionLifetime = z.number().int().min(60, 'must be at least 60').max(7 * 86_400, 'must be at most 7 days');

export const newSessionInput = z
  .strictObject({
    amount: minorAmount,
    currency,
    description: text(2048),
    method: z.enum(['purchase', 'auth', 'lookup']),
    orderId: orderId.optional(),
    split: splitShares.optional(),
    customer: customer.optional(),
    customerId: text(128).optional(),
    cardId: text(64).optional(),
    saveCard: z.boolean().optional(),
    returnUrl: webUrl.optional(),
    allowedModes: z.array(mode).min(1, 'must allow at least one mode').optional(),
    ttlSeconds: sessionLifetime.optional(),
    extendable: z.boolean().optional(),
  })
  .refine((session) => !session.split || splitTotal(session.split) === session.amount, {
    path: ['split'],
    message: 'shares must add up to the amount',
  })
  // What the gateway takes in the session's currency (JPY's whole yen up to 9999999999999, KWD's
  // tens of fils): a session of another amount could never be paid.
  .superRefine((session, ctx) => {
    const refusal = wireRangeRefusal(session.amount, session.currency);
    if (refusal) ctx.addIssue({ code: 'custom', path: ['amount'], message: refusal });
  })
  .refine((session) => !session.split || session.method !== 'lookup', { path: ['split'], message: 'a card verification is not split' })
  .refine((session) => session.cardId === undefined || session.customerId !== undefined, { path: ['cardId'], message: 'a saved card needs its customerId' })
  .refine((session) => session.saveCard === undefined || session.customerId !== undefined, { path: ['saveCard'], message: 'a card is saved for a customerId' })
  .refine((session) => session.saveCard !== false || session.method !== 'lookup', { path: ['saveCard'], message: 'a card verification saves the card' });

export const payAttemptInput = z.strictObject({ mode, customer: customer.optional() });

export const paymentDetailsShape = {
  statusCode: statusCode.optional(),
  statusDescription: text(2048).optional(),
  paymentId: text(64).optional(),
  gatewayOrderId: text(256).optional(),
  billingOrderId: text(256).optional(),
  transactionId: text(64).optional(),
  ccMask: ccMask.optional(),
  cardBrand: text(32).optional(),
  ccToken: text(512).optional(),
  ccTokenExpiration: text(64).optional(),
  userActionUrl: webUrl.optional(),
  checkoutUrl: webUrl.optional(),
  receiptUrl: webUrl.optional(),
};

export const paymentUpdateInput = withoutNul(
  z.strictObject({
    status: z.enum(['init', 'pending', 'success', 'failure']),
    ...paymentDetailsShape,
    method: z.enum(['purchase', 'auth']).optional(),
    amount: reportedAmount.optional(),
    currency: currency.optional(),
    paidAmount: reportedAmount.optional(),
    paidCurrency: currency.optional(),
  }),
);

export const overCapturePercent = z.number().min(0, 'must not be negative').max(100, 'must be at most 100');

export const operationRequestInput = z
  .strictObject({
    kind: z.enum(['capture', 'void', 'refund']),
    amount: minorAmount.optional(),
    comment: text(2048).optional(),
    split: splitShares.optional(),
    overCapturePercent: overCapturePercent.optional(),
    requestKey: text(64).optional(),
  })
  .refine((request) => request.kind !== 'void' || (request.amount === undefined && !request.split), {
    path: ['amount'],
    message: 'a void takes no amount or split',
  })
  .refine((request) => !request.split || request.amount === undefined || splitTotal(request.split) === request.amount, {
    path: ['split'],
    message: 'shares must add up to the amount',
  });

export const operationResultInput = withoutNul(
  z.strictObject({
    status: z.enum(['pending', 'success', 'failure']),
    operationId: text(64).optional(),
    transactionId: text(64).optional(),
    amount: minorAmount.optional(),
    statusCode: statusCode.optional(),
    statusDescription: text(2048).optional(),
    receiptUrl: webUrl.optional(),
  }),
);

/** An operation the order state shows that none of the ledger's accounts for. */
export const gatewayOperationInput = withoutNul(
  z.strictObject({
    kind: z.enum(['capture', 'void', 'refund']),
    status: z.enum(['pending', 'success', 'failure']),
    operationId: text(64).optional(),
    transactionId: text(64).optional(),
    amount: minorAmount,
    statusCode: statusCode.optional(),
    statusDescription: text(2048).optional(),
    receiptUrl: webUrl.optional(),
    shown: z.number().int().min(1),
  }),
);

export const gatewayEventInput = withoutNul(
  z.strictObject({
    data: text(1_000_000),
    body: text(1_000_000),
    method: text(32),
    status: text(32),
    orderId: text(256),
    operationId: text(64).optional(),
    otherPosId: text(64).optional(),
    unreadable: z.literal(true).optional(),
    recurring: z.literal(true).optional(),
    amount: reportedAmount.optional(),
    currency: currency.optional(),
    paidAmount: reportedAmount.optional(),
    paidCurrency: currency.optional(),
    ...paymentDetailsShape,
  }),
);

/**
 * How a person settled a held order, and the discrepancy's version they read. The note is kept
 * and shown to every operator: a card number or security code typed into it is masked here,
 * whoever calls (the merchant API masks it as it reads it too).
 */
export const discrepancySettlementInput = z.strictObject({
  note: z
    .string()
    .trim()
    // Spaces or invisible characters alone say nothing: the detail would read “Settled (“”)”.
    .regex(SOMETHING_VISIBLE, 'must say how the order was settled')
    // Line breaks and tabs are a note's; other controls are a sender's bug (NUL: PostgreSQL's text refuses it).
    .refine((note) => !/[^\P{Cc}\n\r\t]/u.test(note), 'must not hold control characters but line breaks and tabs')
    // An override or isolate would show every operator the note's words reordered ("05.00" as "00.50").
    .refine((note) => !BIDI_CONTROLS.test(note), 'must not hold bidirectional overrides or isolates: they would show it reordered')
    .transform(maskFreeText)
    .refine((note) => note.length <= SETTLEMENT_NOTE_MAX, `must be at most ${SETTLEMENT_NOTE_MAX} characters once card numbers and security codes are masked`),
  version: z.number().int('must be a whole number').min(1, 'must be at least 1'),
});

export const newSavedCardInput = z.strictObject({
  customerId: text(128),
  ccToken: text(512),
  ccMask,
  brand: text(32).optional(),
  tokenExpiration: text(64).optional(),
});

export const schemaName = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case SQL identifier');

/** A page of a back-office list: how many rows, after which (a `nextCursor` the ledger gave). */
const pageShape = {
  limit: z.number().int().min(1, 'must be at least 1').max(200, 'must be at most 200').optional(),
  cursor: text(256).optional(),
};

const epochMs = z.number().int('must be epoch milliseconds').min(0, 'must not be negative');

// As long as a customer's stored one may be (customerInput): any address held can be found.
const searchedEmail = z.string().min(3, 'must be an e-mail address').max(320, 'must be at most 320 characters').regex(/^[^@\s]+@[^@\s]+$/, 'must be an e-mail address');

export const orderListInput = z
  .strictObject({
    status: z.enum(['init', 'pending', 'success', 'failure']).optional(),
    kind: z.enum(['payments', 'verifications']).optional(),
    sessionId: text(64).optional(),
    held: z.boolean().optional(),
    email: searchedEmail.optional(),
    customerId: text(128).optional(),
    cardLastFour: z.string().regex(/^\d{4}$/, 'must be the last four digits of the card').optional(),
    amount: minorAmount.optional(),
    currency: currency.optional(),
    createdFrom: epochMs.optional(),
    createdTo: epochMs.optional(),
    ...pageShape,
  })
  .refine((query) => query.createdFrom === undefined || query.createdTo === undefined || query.createdTo > query.createdFrom, {
    path: ['createdTo'],
    message: 'must be after createdFrom',
  });

export const eventListInput = z.strictObject({
  outcome: z.enum(['parked', 'unmatched']),
  ...pageShape,
});

export const statsInput = z
  .strictObject({
    from: epochMs,
    to: epochMs,
    bucket: z.enum(['hour', 'day']),
    utcOffsetMinutes: z.number().int().min(-14 * 60).max(14 * 60).optional(),
    timeZone: z.string().refine(isTimeZone, 'is not a time zone this runtime knows (an IANA name such as Europe/Kyiv)').optional(),
  })
  .refine((query) => query.to > query.from, { path: ['to'], message: 'must be after from' })
  .refine((query) => query.timeZone === undefined || query.utcOffsetMinutes === undefined, { path: ['timeZone'], message: 'is not taken with utcOffsetMinutes' });

export const moneyTotalsInput = z
  .strictObject({ from: epochMs, to: epochMs, datedBy: z.enum(['order', 'movement']).optional() })
  .refine((query) => query.to > query.from, { path: ['to'], message: 'must be after from' });

export const movementListInput = z
  .strictObject({ from: epochMs, to: epochMs, ...pageShape })
  .refine((query) => query.to > query.from, { path: ['to'], message: 'must be after from' });

export const staleInput = z.strictObject({
  quietForMs: z.number().int().min(0, 'must not be negative'),
  absentQuietForMs: z.number().int().min(0, 'must not be negative').optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});

export const absentReadInput = z.strictObject({
  readAt: z.number().int().min(0, 'must not be negative'),
  // One "not there" is never enough: it must hold over a window of reads.
  reads: z.number().int().min(2, 'must be at least 2').max(100),
  spacingMs: z.number().int().min(0, 'must not be negative'),
});

export const noticeClaimInput = z.strictObject({
  limit: z.number().int().min(1).max(1000),
  leaseMs: z.number().int().min(1, 'must be positive'),
  kind: z.enum(['payment', 'operation']).optional(),
});

export const noticeRetryInput = z.strictObject({ retryAt: epochMs });
export const giveUpInput = z.strictObject({ lastSentBefore: epochMs });
export const noticeDropInput = z.strictObject({ dueBefore: epochMs });

/** Whose personal data to erase (erasure.ts): an e-mail's, a customer id's, or both. */
export const erasureInput = z
  .strictObject({ email: searchedEmail.optional(), customerId: text(128).optional() })
  .refine((request) => request.email !== undefined || request.customerId !== undefined, { path: ['email'], message: 'is required unless customerId is given' });
