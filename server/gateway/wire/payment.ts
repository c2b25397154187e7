/**
 * Primary payments on the wire: the create-payment and split-purchase requests (interface
 * endpoints 1 and 2), the payment response object, and the cancel response (endpoint 8).
 *
 * Requests are strict: a field the interface marks "not sent" for a mode/method is rejected
 * with that reason, and an unknown field is rejected too — a misspelt optional field would
 * otherwise vanish silently.
 */
import * as z from 'zod';
import { formatMinorUnits } from '../money.js';
import { wireHundredths } from './decimals.js';
import { checkCurrencyPrecision, checkSplitAmounts, SplitPayments } from './amounts.js';
import { BrowserFingerprint, CARD_FIELDS, CardNumber, CardToken, cardFields } from './card.js';
import type { FieldIssue } from './issues.js';
import {
  Currency, Fee, IsoDate, Mode, OrderId, PrimaryMethod, RequestAmount, ResponseAmount, Status,
  EMAIL_ADDRESS, StatusCodeField, Timestamp, Url, Uuid, reason, requiredText, text,
} from './primitives.js';

/** `order_3ds_bypass`: `supported` is the gateway's default; payform sends it when unset. */
export const ThreeDsBypass = z.enum(['supported', 'always', 'never']);
export type ThreeDsBypass = z.infer<typeof ThreeDsBypass>;

const Name = requiredText(256);
// zod's default pattern refuses one-letter TLDs and internationalised addresses, and with them
// shoppers whose address is real.
const Email = z.email({ pattern: EMAIL_ADDRESS, error: reason('must be an email address') }).max(256, { error: 'must be at most 256 characters' });
const Phone = z.string().regex(/^\+?\d{7,15}$/, { error: 'must be 7 to 15 digits, optionally after a +' });
const IpAddress = z.union([z.ipv4(), z.ipv6()], { error: reason('must be an IPv4 or IPv6 address') });
const Language = z.string().regex(/^[A-Z]{2}$/, { error: 'must be an upper-case two-letter code such as EN or UK' });
const Country = z.string().regex(/^[A-Z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 code' });
const Mcc = z.string().regex(/^\d{4}$/, { error: 'must be four digits' });
// Products and cryptogram: the interface does not show their fields, so any JSON object passes.
const Products = z.array(z.record(z.string(), z.unknown()));
const Cryptogram = z.record(z.string(), z.unknown());
const OrderTimeout = z.number().int().positive();

/** A field the interface marks "not sent" for this variant. */
const notSent = (where: string) => z.undefined({ error: `is not sent ${where}` }).optional();
const notSentEach = <K extends string>(keys: readonly K[], where: string) =>
  Object.fromEntries(keys.map((key) => [key, notSent(where)])) as Record<K, ReturnType<typeof notSent>>;

/** Fields every variant takes alike (R or O in all four columns of the table). */
const orderFields = {
  pos_id: Uuid,
  amount: RequestAmount,
  currency: Currency,
  description: requiredText(2048),
  order_id: OrderId,
  order_3ds_bypass: ThreeDsBypass,
  products: Products.optional(),
  customer_id: text().optional(),
  customer_patronym: Name.optional(),
  customer_country: Country.optional(),
  customer_birthday: IsoDate.optional(),
  customer_tax_id: requiredText(32).optional(),
  server_url: Url.optional(),
  result_url: Url.optional(),
  merchant_mcc: Mcc.optional(),
  payload: text(4000).optional(),
  validation_url: Url.optional(),
};

const customerContact = { customer_email: Email, customer_phone: Phone };
const optionalCard = z.object(cardFields).partial().shape;
const optionalContact = z.object({ ...customerContact, customer_fname: Name, customer_lname: Name, customer_ip: IpAddress }).partial().shape;

const directPayShape = {
  ...orderFields,
  mode: z.literal('direct'),
  method: z.enum(['auth', 'purchase']),
  ...optionalCard,
  cc_token: CardToken.optional(),
  customer_fname: Name,
  customer_lname: Name,
  ...customerContact,
  customer_ip: IpAddress,
  customer_lang: notSent('in direct mode'),
  customer_referrer: Url.optional(),
  browser_fingerprint: BrowserFingerprint,
  cryptogram: Cryptogram.optional(),
  order_timeout: notSent('in direct mode'),
};

const hostedPayShape = {
  ...orderFields,
  mode: z.literal('hosted'),
  method: z.enum(['auth', 'purchase']),
  // Hosted mode keeps card data off the merchant: the gateway's page collects it.
  ...notSentEach([...CARD_FIELDS, 'cc_token'], 'in hosted mode'),
  customer_fname: Name.optional(),
  customer_lname: Name.optional(),
  ...customerContact,
  customer_ip: notSent('in hosted mode'),
  customer_lang: Language.optional(),
  ...notSentEach(['customer_referrer', 'browser_fingerprint', 'cryptogram'], 'in hosted mode'),
  order_timeout: OrderTimeout.optional(),
};

const directLookupShape = {
  ...orderFields,
  mode: z.literal('direct'),
  method: z.literal('lookup'),
  ...optionalCard,
  ...notSentEach(['cc_token', 'cryptogram', 'customer_lang'], 'in a lookup'),
  ...optionalContact,
  customer_referrer: Url.optional(),
  browser_fingerprint: BrowserFingerprint,
  order_timeout: notSent('in direct mode'),
};

// The table marks card fields R for a hosted lookup (its rule 8: a sample sends them, although the
// page collects the card); payform's client keeps card data out of hosted mode altogether, as for
// hosted payments (docs/gateway-choices.md). The sandbox takes them (its http/leniency.ts).
const hostedLookupShape = {
  ...orderFields,
  mode: z.literal('hosted'),
  method: z.literal('lookup'),
  ...notSentEach([...CARD_FIELDS, 'cc_token', 'customer_ip', 'customer_referrer', 'browser_fingerprint', 'cryptogram'], 'in hosted mode'),
  customer_lang: notSent('in a lookup'),
  ...optionalContact,
  customer_ip: notSent('in hosted mode'),
  order_timeout: OrderTimeout.optional(),
};

type CardInput = Readonly<Record<string, unknown>>;
type Issues = Pick<z.core.$RefinementCtx, 'addIssue'>;

/** Full card data comes as all four fields or none. */
function checkCardComplete(request: CardInput, ctx: Issues): void {
  const given = CARD_FIELDS.filter((field) => request[field] !== undefined);
  if (given.length === 0 || given.length === CARD_FIELDS.length) return;
  for (const field of CARD_FIELDS) {
    if (request[field] === undefined) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'is required with the other card fields' });
    }
  }
}

/** Direct auth/purchase: full card data or a cc_token, never both. */
function checkCardOrToken(request: CardInput, ctx: Issues): void {
  const hasCard = CARD_FIELDS.some((field) => request[field] !== undefined);
  if (hasCard && request.cc_token !== undefined) {
    ctx.addIssue({ code: 'custom', path: ['cc_token'], message: 'is not sent together with card data' });
  } else if (!hasCard && request.cc_token === undefined) {
    ctx.addIssue({ code: 'custom', path: ['cc_number'], message: 'is required unless cc_token is sent' });
  } else {
    checkCardComplete(request, ctx);
  }
}

const directPay = <S extends z.core.$ZodLooseShape>(shape: S) => z.strictObject(shape).superRefine(checkCardOrToken);

/** POST /api/v1/payment — the four variants of the parameter table, chosen by mode and method. */
export const CreatePaymentRequest = z
  .discriminatedUnion('mode', [
    z.discriminatedUnion('method', [
      directPay(directPayShape),
      z.strictObject(directLookupShape).superRefine(checkCardComplete),
    ]),
    z.discriminatedUnion('method', [z.strictObject(hostedPayShape), z.strictObject(hostedLookupShape)]),
  ])
  .superRefine((request, ctx) => checkCurrencyPrecision(ctx, 'amount', request.amount, request.currency));
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequest>;

/**
 * POST /api/v1/split/purchase — a purchase with `split`. Hosted split purchases, unlike hosted
 * payments, may carry customer_ip.
 */
export const SplitPurchaseRequest = z
  .discriminatedUnion('mode', [
    directPay({ ...directPayShape, method: z.literal('purchase'), split: SplitPayments }),
    z.strictObject({
      ...hostedPayShape,
      method: z.literal('purchase'),
      customer_ip: IpAddress.optional(),
      split: SplitPayments,
    }),
  ])
  .superRefine((request, ctx) => checkSplitAmounts(ctx, 'amount', request.amount, request.currency, request.split));
export type SplitPurchaseRequest = z.infer<typeof SplitPurchaseRequest>;

/**
 * POST /api/v1/payment with `method: credit` — a payout to a card. The interface names `credit`
 * without its request; the live documentation ("Payouts to cards", gateway-notes.md) gives it:
 * direct mode only, the recipient's card number or a token, and no 3-D Secure data.
 */
const { products: _products, ...creditOrderFields } = orderFields;
export const CreditRequest = z
  .strictObject({
    ...creditOrderFields,
    mode: z.literal('direct', { error: 'must be direct: a credit has no hosted mode' }),
    method: z.literal('credit'),
    cc_number: CardNumber.optional(),
    cc_token: CardToken.optional(),
    customer_ip: IpAddress,
    customer_fname: Name.optional(),
    customer_lname: Name.optional(),
    customer_email: Email.optional(),
    customer_phone: Phone.optional(),
    customer_city: text().optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
    recipient_first_name: Name.optional(),
    recipient_middle_name: Name.optional(),
    recipient_last_name: Name.optional(),
    recipient_doc_number: requiredText(64).optional(),
  })
  .superRefine((request, ctx) => {
    if (request.cc_number !== undefined && request.cc_token !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['cc_token'], message: 'is not sent together with cc_number' });
    } else if (request.cc_number === undefined && request.cc_token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['cc_number'], message: 'is required unless cc_token is sent' });
    }
    checkCurrencyPrecision(ctx, 'amount', request.amount, request.currency);
  });
export type CreditRequest = z.infer<typeof CreditRequest>;

/**
 * What every variant of POST /api/v1/payment shares, read loosely, with the values `mode` and
 * `method` may take there (a payout's `credit` included; `p2p` has no request in the interface): for a request whose mode or method
 * picks no variant, of which a discriminated union says only that.
 */
export const PaymentRequestBasics = z.looseObject({ mode: Mode, method: PrimaryMethod.exclude(['p2p']), ...creditOrderFields });

/** The same for POST /api/v1/split/purchase. */
export const SplitPurchaseBasics = z.looseObject({ mode: Mode, method: z.literal('purchase'), ...creditOrderFields, split: SplitPayments });

/** Sectors with extra rules in the interface (rules 3 and 4 of endpoint 1). */
export type MerchantSector = 'microfinance' | 'igaming';

/** Above this many UAH a microfinance payment needs customer_tax_id. */
export const MICROFINANCE_TAX_ID_THRESHOLD_UAH = 30_000;

/**
 * Extra rules for microfinance and iGaming merchants. They depend on the merchant, not the
 * request, so they are applied on top of the schemas: the client takes the sector as an
 * option, the sandbox from its project settings.
 */
export function sectorIssues(
  request: CreatePaymentRequest | SplitPurchaseRequest,
  sector: MerchantSector | undefined,
): FieldIssue[] {
  if (sector === undefined || request.method === 'lookup') return [];
  const issues: FieldIssue[] = [];
  if (request.mode === 'hosted') {
    for (const field of ['customer_fname', 'customer_lname'] as const) {
      if (request[field] === undefined) issues.push({ field, reason: `is required for ${sector} merchants` });
    }
  }
  if (sector === 'microfinance') {
    if (request.customer_birthday === undefined && request.customer_tax_id === undefined) {
      issues.push({ field: 'customer_birthday', reason: 'or customer_tax_id is required for microfinance merchants' });
    }
    if (request.customer_tax_id === undefined && exceedsTaxIdThreshold(request)) {
      issues.push({ field: 'customer_tax_id', reason: `is required for microfinance payments above ${formatMinorUnits(MICROFINANCE_TAX_ID_THRESHOLD_UAH * 100, 'UAH')}` });
    }
  }
  return issues;
}

// Only UAH amounts are compared: the threshold is stated in UAH and payform converts no rates.
function exceedsTaxIdThreshold(request: { amount: number | string; currency: string }): boolean {
  return request.currency === 'UAH' && wireHundredths(request.amount) > BigInt(MICROFINANCE_TAX_ID_THRESHOLD_UAH * 100);
}

const nullableText = z.string().nullish();

/**
 * Fields of the payment response object. Besides the identity, amount and status, every field
 * is optional and may be null: responses differ per endpoint (cancel lists fewer fields) and
 * the gateway adds fields at will, so unknown ones are kept (loose objects).
 */
export const paymentFields = {
  payment_id: Uuid,
  order_id: z.string(),
  gateway_order_id: nullableText,
  billing_order_id: nullableText,
  transaction_id: Uuid.nullish(),
  pos_id: Uuid.nullish(),
  mode: Mode,
  method: PrimaryMethod,
  amount: ResponseAmount,
  currency: Currency,
  description: nullableText,
  status: Status,
  status_code: StatusCodeField,
  status_description: nullableText,
  user_action_required: z.boolean().nullish(),
  user_action_url: nullableText,
  eci: nullableText,
  mcc: nullableText,
  options_3ds: nullableText,
  cc_mask: nullableText,
  cc_token: nullableText,
  cc_token_expiration: nullableText,
  customer_id: nullableText,
  customer_ip: nullableText,
  customer_fname: nullableText,
  customer_lname: nullableText,
  customer_patronym: nullableText,
  customer_email: nullableText,
  customer_phone: nullableText,
  customer_birthday: nullableText,
  customer_city: nullableText,
  customer_country: nullableText,
  result_url: nullableText,
  created_at: Timestamp,
  /** Most responses. */
  processed_at: Timestamp.nullish(),
  /** The same field in the two-step direct and split purchase responses. */
  processing_time: Timestamp.nullish(),
  fee: Fee,
  fixed_fee: Fee,
  percent_fee: Fee,
  payload: nullableText,
  bank_short_name: nullableText,
  receipt_url: nullableText,
  processed_amount: ResponseAmount.nullish(),
  processed_currency: z.string().max(256).nullish(),
  /** Added by the webhook re-send of a recurring payment. */
  recurring: z.looseObject({ id: z.string(), status: z.string() }).nullish(),
};

/** The payment response object (direct create, split purchase). */
export const PaymentResponse = z.looseObject(paymentFields);
export type PaymentResponse = z.infer<typeof PaymentResponse>;

/** Cancel answers a JSON array of payment objects; the cancelled one is failure / 6007. */
export const CancelResponse = z.array(PaymentResponse);
export type CancelResponse = z.infer<typeof CancelResponse>;

/** Path of POST /api/v1/pos/<pos_id>/order/<order_id>/cancel. */
export const CancelParams = z.strictObject({ pos_id: Uuid, order_id: OrderId });
export type CancelParams = z.infer<typeof CancelParams>;
