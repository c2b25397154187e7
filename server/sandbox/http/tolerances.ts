/**
 * What the live gateway takes beyond the letter of its interface, one tolerance each, as the
 * integrations in production send it (docs/sandbox.md, "Tolerant reading and strict mode").
 *
 * A tolerance looks at one issue the shared wire schema reports and, when it is the kind the live
 * gateway passes over, says how to repair the request so that the schema can judge the rest:
 *
 * - `ignore`: the field is dropped (an unknown field, a `null`, a field "not sent" in this mode);
 * - `coerce`: the value is read as the interface types it (`"12"` → 12, `1` → true, 24 → 2024);
 * - `waive`: the schema parses a stand-in, and the request keeps what was sent (or its absence) —
 *   for a rule the live gateway does not hold (a hosted payment's phone, an email's format).
 *
 * A strict project repairs nothing; a tolerance's `strictRule` then tells why it was refused.
 * Before any tolerance, `guardedRefusals` sets apart what is refused in every mode because a
 * repair would move money by mistake: a capture's or refund's amount `null`, or sent under an
 * amount-like name, which dropped would capture or refund everything; a `split` sent to a payment,
 * capture or refund that takes none, which dropped would move it all to the merchant.
 * Each repair names what it did without quoting the value: a field may carry card data. Only a
 * Boolean's spelling is quoted — it comes from a closed list and is never anyone's data.
 */
import type * as z from 'zod';
import { CARD_FIELDS, CaptureRequest, CreatePaymentRequest, RefundRequest, SplitCaptureRequest, SplitRefundRequest, WIRE_MAX_DECIMALS, exactNumber, fieldPath, fractionDigits, isAmountField, routes } from '@payform/gateway/wire';

export type Path = readonly PropertyKey[];

export type Repair =
  | { readonly kind: 'ignore'; readonly path: Path; readonly what: string; readonly rule: string }
  | { readonly kind: 'coerce'; readonly path: Path; readonly value: unknown; readonly from: string; readonly to: string; readonly what: string; readonly rule: string }
  | { readonly kind: 'waive'; readonly path: Path; readonly standIn: unknown; readonly what: string; readonly rule: string };

/** One issue, with the request it was found in and every other issue of the same parse. */
export interface Finding {
  /** The schema the request is read with: which endpoint it is. */
  readonly schema: z.ZodType;
  readonly issue: z.core.$ZodIssue;
  /** The value at the issue's path (undefined when absent). */
  readonly value: unknown;
  readonly request: unknown;
  readonly issues: readonly z.core.$ZodIssue[];
}

export interface Tolerance {
  /** The repairs a tolerant project makes for this finding; none when it is not this tolerance's kind. */
  repair(finding: Finding): Repair[];
  /** The rule behind a strict project's refusal of what this tolerance would have repaired. */
  readonly strictRule: string;
}

const STRICT = 'refused because the project is strict (a tolerant project takes it, as the live gateway does)';

/** The rule behind each repair, and behind a strict project's refusal of what it would repair. */
export const RULES = {
  unknown:
    'not a request field of this endpoint in the interface: ignored, as the live gateway ignores fields it does not know (a strict project refuses it)',
  strictUnknown: `not a request field of this endpoint in the interface: ${STRICT}`,
  null:
    'null for an unset field, as SDKs send every field they have no value for: dropped, as the live gateway drops it; a required field is then missing (a strict project refuses the null)',
  strictNull: `null for an unset field: ${STRICT} — leave the field out`,
  notSent:
    'marked "not sent" for this mode in the interface: ignored like any field the endpoint does not know, as the live gateway does (a strict project refuses it; card data is refused in every mode)',
  strictNotSent: `marked "not sent" for this mode in the interface: ${STRICT}`,
  numeric:
    'a Number in the interface (an amount, exp_month, exp_year, order_timeout): the live gateway reads a numeric string as that number, under the same rules, when a number holds it exactly (a strict project refuses it)',
  strictNumeric: `a Number in the interface, sent as a numeric string: ${STRICT}`,
  exponent:
    'an amount is a Number in the interface, at most 2 decimal digits: written with an exponent (1E+2, 1.0E7, as Java prints round and large amounts) it is read as the plain decimal it is, though nothing says the live gateway reads that form (a strict project refuses it)',
  strictExponent: `an amount written with an exponent (1E+2), a form payform's client never sends and nothing says the live gateway reads: ${STRICT}`,
  boolean:
    'a Boolean in the interface: the live gateway reads 1/0 (how PHP writes true and false) and True/False as true and false (a strict project takes only true and false)',
  strictBoolean: `a Boolean in the interface, spelt otherwise than true or false: ${STRICT}`,
  year:
    'exp_year is a four-digit year in the interface; the live gateway takes two digits (its own published example sends 24) as 20yy (a strict project refuses it)',
  strictYear: `exp_year in two digits: ${STRICT}`,
  phone:
    'customer_phone is a String in the interface: the live gateway takes a phone number as the shopper typed it, +38 (050) 123-45-67, and the sandbox keeps its digits (a strict project refuses it)',
  strictPhone: `customer_phone with spaces, brackets or dashes: ${STRICT}`,
  email:
    'customer_email is a String in the interface: the live gateway takes one that is not an address, as its own plugins send unregistered for guests (a strict project refuses it)',
  strictEmail: `customer_email that is not an address: ${STRICT}`,
  contact:
    'required in hosted mode by the interface: the live gateway creates a hosted payment without it, as its own e-commerce plugins never send a phone and leave out an empty one (a strict project refuses it)',
  strictContact: `required in hosted mode, absent: ${STRICT}`,
  lookupCard:
    'required for a hosted lookup by the interface\'s table (cc_number, exp_month, exp_year, card_cvv): taken in every mode, strict included, and held to the card fields\' rules (all four together), then set aside unused, as the hosted page asks the customer for the card; a hosted lookup without them is taken too, as payform\'s client sends it',
  wholeAmount:
    'an omitted charge_amount captures the whole reserve and an omitted refund_amount refunds all that is left (the interface\'s capture and refund tables): a null amount, or an unknown field named like an amount (its name holds "amount" in any case, or is one typo from refund_amount or charge_amount; order_amount, which shop plugins send as the order\'s total, excepted) sent without the amount, is refused in every mode — the live gateway would drop it and move everything, hiding a partial capture or refund sent malformed',
  splitElsewhere:
    'split payments, captures and refunds have endpoints of their own (the interface\'s /api/v1/split/…): a split sent to the plain one is refused in every mode — the live gateway would drop it as an unknown field and move the whole amount to the merchant, the sub-merchants getting nothing',
  refused: 'breaks a rule of the interface: refused, in every mode',
} as const;

const unknownField: Tolerance = {
  repair: ({ issue }) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          kind: 'ignore',
          path: [...issue.path, key],
          what: 'unknown field ignored',
          rule: RULES.unknown,
        }))
      : [],
  strictRule: RULES.strictUnknown,
};

// Tried first: a null may also stand where a field is "not sent", or is of another type.
const nullField: Tolerance = {
  repair: ({ issue, value }) =>
    value === null && typeof issue.path.at(-1) === 'string'
      ? [{
          kind: 'ignore',
          path: issue.path,
          what: 'null dropped',
          rule: RULES.null,
        }]
      : [],
  strictRule: RULES.strictNull,
};

// Card data sent where the interface takes none is still refused: it means the merchant's
// server handled card data it should never see (hosted mode keeps it on the gateway's page).
// A hosted lookup's card fields, which the interface's table requires, are read apart (leniency.ts).
const CARD_DATA = new Set<PropertyKey>([...CARD_FIELDS, 'cc_token']);

const notSentField: Tolerance = {
  repair: ({ issue }) =>
    issue.code === 'invalid_type' && issue.expected === 'undefined' && issue.path.length === 1 && !CARD_DATA.has(issue.path[0] as PropertyKey)
      ? [{
          kind: 'ignore',
          path: issue.path,
          what: 'not sent in this mode: ignored',
          rule: RULES.notSent,
        }]
      : [],
  strictRule: RULES.strictNotSent,
};

// Only a string a number holds exactly: "0.100000000000000000001" is not read as 0.1, nor 400
// nines as Infinity; nor an amount written with more fraction digits than the wire takes, "10.100"
// as 10.1 (the number 10.100 is refused as written, amountsAsWritten). Such a string is refused
// saying what is wrong with it.
const numericString: Tolerance = {
  repair: ({ issue, value }) => {
    const numeric = issue.code === 'invalid_type' && issue.expected === 'number' && typeof value === 'string';
    const overScale = numeric && isAmountField(issue.path) && (fractionDigits(value) ?? 0) > WIRE_MAX_DECIMALS;
    const number = numeric && !overScale ? exactNumber(value) : undefined;
    return number === undefined
      ? []
      : [{
          kind: 'coerce',
          path: issue.path,
          value: number,
          from: 'string',
          to: 'number',
          what: 'numeric string read as a number',
          rule: RULES.numeric,
        }];
  },
  strictRule: RULES.strictNumeric,
};

/** How PHP (`1`, `0`) and Python (`True`, `False`) write a Boolean in a query or a form. */
const BOOLEAN_SPELLINGS: ReadonlyMap<string, boolean> = new Map([
  ['1', true], ['true', true], ['True', true], ['TRUE', true],
  ['0', false], ['false', false], ['False', false], ['FALSE', false],
]);

/** Query Booleans travel as the strings `true` / `false`; a JSON Boolean as itself. */
function expectsBoolean(issue: z.core.$ZodIssue): 'string' | 'boolean' | undefined {
  if (issue.code === 'invalid_type' && issue.expected === 'boolean') return 'boolean';
  if (issue.code === 'invalid_value' && issue.values.length > 0 && issue.values.every((allowed) => allowed === 'true' || allowed === 'false')) {
    return 'string';
  }
  return undefined;
}

const booleanSpelling: Tolerance = {
  repair: ({ issue, value }) => {
    const expected = expectsBoolean(issue);
    const spelling = typeof value === 'number' || typeof value === 'string' ? String(value) : undefined;
    const meaning = spelling === undefined ? undefined : BOOLEAN_SPELLINGS.get(spelling);
    if (expected === undefined || spelling === undefined || meaning === undefined) return [];
    const read = expected === 'string' ? String(meaning) : meaning;
    // `false` where only `true` will do is refused as it is, not read again.
    if (read === value) return [];
    return [{
      kind: 'coerce',
      path: issue.path,
      value: read,
      from: spelling,
      to: String(meaning),
      what: `\`${spelling}\` read as ${String(meaning)}`,
      rule: RULES.boolean,
    }];
  },
  strictRule: RULES.strictBoolean,
};

const twoDigitYear: Tolerance = {
  repair: ({ issue, value }) =>
    issue.path.at(-1) === 'exp_year' && issue.code === 'too_small' && Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 99
      ? [{
          kind: 'coerce',
          path: issue.path,
          value: 2000 + (value as number),
          from: 'two-digit year',
          to: 'four-digit year',
          what: 'two-digit year widened',
          rule: RULES.year,
        }]
      : [],
  strictRule: RULES.strictYear,
};

/** What shoppers type between a phone number's digits. */
const PHONE_AS_TYPED = /^\+?[\d\s().-]+$/;
const PHONE_DIGITS = /^\+?\d{7,15}$/;

const formattedPhone: Tolerance = {
  repair: ({ issue, value }) => {
    if (issue.path.at(-1) !== 'customer_phone' || issue.code !== 'invalid_format' || typeof value !== 'string' || !PHONE_AS_TYPED.test(value)) return [];
    const digits = value.replace(/[^\d+]/g, '');
    if (!PHONE_DIGITS.test(digits)) return [];
    return [{
      kind: 'coerce',
      path: issue.path,
      value: digits,
      from: 'phone as typed',
      to: 'digits',
      what: 'spaces, brackets and dashes left out',
      rule: RULES.phone,
    }];
  },
  strictRule: RULES.strictPhone,
};

/** A stand-in the schema accepts while the request keeps what was sent. */
const STAND_IN: Readonly<Record<string, string>> = { customer_email: 'stand-in@sandbox.invalid', customer_phone: '+10000000000' };

const nonAddressEmail: Tolerance = {
  repair: ({ issue, value, issues }) => {
    if (issue.path.at(-1) !== 'customer_email' || issue.code !== 'invalid_format' || typeof value !== 'string') return [];
    // Empty is no string a plugin sends for a guest (they leave an empty one out): refused, as a
    // required field of no value is, and as an empty name or phone is.
    if (value.trim() === '') return [];
    // Only the format is waived: an email breaking another rule too (its length) stays refused.
    if (issues.some((other) => other !== issue && samePath(other.path, issue.path))) return [];
    return [{
      kind: 'waive',
      path: issue.path,
      standIn: STAND_IN.customer_email,
      what: 'not an address: taken as a string',
      rule: RULES.email,
    }];
  },
  strictRule: RULES.strictEmail,
};

const hostedContact: Tolerance = {
  repair: ({ issue, value, request }) => {
    const field = issue.path.length === 1 ? issue.path[0] : undefined;
    const isContact = field === 'customer_email' || field === 'customer_phone';
    const hosted = typeof request === 'object' && request !== null && (request as { mode?: unknown }).mode === 'hosted';
    if (!isContact || !hosted || issue.code !== 'invalid_type' || value !== undefined) return [];
    return [{
      kind: 'waive',
      path: issue.path,
      standIn: STAND_IN[field],
      what: 'absent: taken without it',
      rule: RULES.contact,
    }];
  },
  strictRule: RULES.strictContact,
};

/** In the order they are tried: the first tolerance with a repair for an issue makes it. */
export const TOLERANCES: readonly Tolerance[] = [
  nullField, unknownField, notSentField, numericString, booleanSpelling, twoDigitYear, formattedPhone, nonAddressEmail, hostedContact,
];

/** The repairs a tolerant project makes for one finding. */
export function repairsFor(finding: Finding): Repair[] {
  for (const tolerance of TOLERANCES) {
    const repairs = tolerance.repair(finding);
    if (repairs.length > 0) return repairs;
  }
  return [];
}

/** Why a strict project refused a finding, when a tolerant one would have taken it. */
export function strictRuleFor(finding: Finding): string | undefined {
  return TOLERANCES.find((tolerance) => tolerance.repair(finding).length > 0)?.strictRule;
}

function samePath(a: Path, b: Path): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

/**
 * Where an omitted amount moves everything: capture and split capture take the whole reserve
 * without charge_amount, refund all that is left without refund_amount (split refund requires
 * its amount, so a look-alike there is named beside the missing one).
 */
interface AmountField {
  readonly field: string;
  readonly operation: string;
  /** What leaving the amount out does, in a few words. */
  readonly omitted: string;
}

const AMOUNT_FIELDS: ReadonlyMap<z.ZodType, AmountField> = new Map<z.ZodType, AmountField>([
  [CaptureRequest, { field: 'charge_amount', operation: 'capture', omitted: 'without charge_amount the whole reserve would be captured' }],
  [SplitCaptureRequest, { field: 'charge_amount', operation: 'split capture', omitted: 'without charge_amount the whole reserve would be captured' }],
  [RefundRequest, { field: 'refund_amount', operation: 'refund', omitted: 'without refund_amount all that is left would be refunded' }],
  [SplitRefundRequest, { field: 'refund_amount', operation: 'split refund', omitted: 'a split refund names the amount it refunds in refund_amount' }],
]);

/** The order's total, which shop plugins (the live gateway's own WooCommerce one) send with every operation. */
const ORDER_TOTAL = 'orderamount';

/**
 * The operations' amount fields as names are compared (lower case, letters and digits only): a
 * name one typo from either is taken for it. Not so `amount` itself, whose neighbours are words
 * of their own (`mount`); a name holding "amount" is caught without a typo.
 */
const AMOUNT_NAMES = ['refundamount', 'chargeamount'];

function amountFieldOf(finding: Finding): AmountField | undefined {
  return AMOUNT_FIELDS.get(finding.schema);
}

function amountOmitted(request: unknown, field: string): boolean {
  const value = typeof request === 'object' && request !== null ? (request as Record<string, unknown>)[field] : undefined;
  return value === undefined || value === null;
}

/** `refund_amount: null` (`charge_amount: null`): never dropped, for dropped it would mean everything. */
function isNullAmount(finding: Finding): boolean {
  const amount = amountFieldOf(finding);
  return amount !== undefined && finding.value === null && finding.issue.path.length === 1 && finding.issue.path[0] === amount.field;
}

/**
 * An unknown top-level field sent without the amount, whose name, in any case and without its
 * `_` or `-`, holds "amount" (`amount`, `refundAmount`, `Refund_Amount`, `charge_amount` on a
 * refund, `partial_amount`) or is one typo from `refund_amount` or `charge_amount` (a letter
 * added, left out or changed, or two swapped: `refund_ammount`, `charge_amout`) — except
 * the order's total, `order_amount` however spelt. With the amount sent, the amount decides and
 * such a field is ignored like any other.
 */
function isAmountLookAlike(finding: Finding, key: PropertyKey): boolean {
  const amount = amountFieldOf(finding);
  if (amount === undefined || typeof key !== 'string' || finding.issue.path.length !== 0) return false;
  if (!amountOmitted(finding.request, amount.field)) return false;
  const name = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (name === ORDER_TOTAL) return false;
  return name.includes('amount') || AMOUNT_NAMES.some((amountName) => withinOneTypo(name, amountName));
}

/** Optimal string alignment distance of at most 1: one letter added, left out, changed, or two neighbours swapped. */
function withinOneTypo(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  const restA = a.slice(start);
  const restB = b.slice(start);
  if (restA === restB) return true;
  return (
    restA.slice(1) === restB.slice(1) || // changed
    restA.slice(1) === restB || // added in a
    restA === restB.slice(1) || // left out of a
    (restA.length > 1 && restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2)) // swapped
  );
}

/** Where a split goes instead of the endpoint each of these schemas reads. */
const SPLIT_ENDPOINTS: ReadonlyMap<z.ZodType, string> = new Map<z.ZodType, string>([
  [CreatePaymentRequest, routes.splitPurchase.path],
  [CaptureRequest, routes.splitCapture.path],
  [RefundRequest, routes.splitRefund.path],
]);

/**
 * A top-level `split` where the endpoint takes none: refused, naming the endpoint that does. An
 * empty one (`[]`, `null`: plugins that always send the key) shares nothing out, and is read as
 * any unknown field is.
 */
function splitSentHere(finding: Finding): { refused: GuardRefusal[]; rest: Finding | undefined } | undefined {
  const endpoint = SPLIT_ENDPOINTS.get(finding.schema);
  const { issue } = finding;
  if (!endpoint || issue.code !== 'unrecognized_keys' || issue.path.length !== 0 || !issue.keys.includes('split')) return undefined;
  const split = (finding.request as Record<string, unknown>).split;
  if (split === null || (Array.isArray(split) && split.length === 0)) return undefined;
  const others = issue.keys.filter((key) => key !== 'split');
  return {
    refused: [{ field: 'split', reason: `is not taken here: send a split to POST ${endpoint}, or the whole amount would go to the merchant`, rule: RULES.splitElsewhere }],
    rest: others.length === 0 ? undefined : { ...finding, issue: { ...issue, keys: others } },
  };
}

export interface GuardRefusal {
  readonly field: string;
  readonly reason: string;
  readonly rule: string;
}

/**
 * What is refused in every mode, before any tolerance: a null amount or an amount look-alike on
 * an operation whose omitted amount moves everything. `rest` is what is left of the finding for
 * the tolerances (an unknown-keys issue without its look-alikes), if anything.
 */
export function guardedRefusals(finding: Finding): { refused: GuardRefusal[]; rest: Finding | undefined } {
  const split = splitSentHere(finding);
  if (split) {
    const after = split.rest ? guardedRefusals(split.rest) : { refused: [], rest: undefined };
    return { refused: [...split.refused, ...after.refused], rest: after.rest };
  }
  const amount = amountFieldOf(finding);
  if (amount === undefined) return { refused: [], rest: finding };
  if (isNullAmount(finding)) {
    const full = amount.operation === 'split refund' ? '' : ` (leave ${amount.field} out for a full ${amount.operation})`;
    return { refused: [{ field: amount.field, reason: `must be the amount, not null: ${amount.omitted}${full}`, rule: RULES.wholeAmount }], rest: undefined };
  }
  const { issue } = finding;
  if (issue.code !== 'unrecognized_keys') return { refused: [], rest: finding };
  const lookAlikes = issue.keys.filter((key) => isAmountLookAlike(finding, key));
  if (lookAlikes.length === 0) return { refused: [], rest: finding };
  const others = issue.keys.filter((key) => !lookAlikes.includes(key));
  return {
    refused: lookAlikes.map((key) => ({
      field: fieldPath([...issue.path, key]),
      reason: `is not a field of ${amount.operation}: ${amount.omitted} — send the amount as ${amount.field}`,
      rule: RULES.wholeAmount,
    })),
    rest: others.length === 0 ? undefined : { ...finding, issue: { ...issue, keys: others } },
  };
}
