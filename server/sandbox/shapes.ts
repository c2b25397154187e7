/**
 * Wire shapes the live gateway is seen to send (gateway-notes.md) that the sandbox's own views
 * never do, switched on through PUT /_sandbox/faults `shapes`, so that a client meets them here
 * rather than in production. Each variant rewrites a copy of an answer or webhook event into
 * another form of the same facts: nothing it says changes, only how it is written.
 *
 * `shapes: ["numeric_status_code", …]` gives the listed variants to every value they touch;
 * `shapes: "varied"` gives each variant to each value by the toss of a seeded coin (the faults'
 * `seed`), so one run mixes the sandbox's forms with the live ones, and the same seed gives the
 * same mix.
 */
import * as z from 'zod';

export const ShapeVariant = z.enum([
  /** A 400's field violations as the legacy `{"obj.<field>": [{"msg": ["…"]}]}`. */
  'legacy_args',
  /** `status_code` as a JSON number (`1000`), not a digit string. */
  'numeric_status_code',
  /** Timestamps without their fractional seconds (`2026-03-02T10:00:00`). */
  'timestamps_without_fraction',
  /** Timestamps with a trailing `Z`. */
  'timestamps_with_z',
  /** Webhooks only: `pos_id`, `transaction_id`, `status_code` and the update time null. */
  'null_fields',
  /** A field the interface does not list, on every payment and operation object. */
  'unknown_fields',
  /** Order-state entries with only the fields the live service promises there: no currency, no ids. */
  'minimal_order_state',
]);
export type ShapeVariant = z.infer<typeof ShapeVariant>;

export const ShapesSetting = z.union(
  [z.literal('varied'), z.array(ShapeVariant).min(1, { error: 'name at least one variant, or send "varied"' })],
  { error: `must be "varied" or a list of variants (${ShapeVariant.options.join(', ')})` },
);
export type ShapesSetting = z.infer<typeof ShapesSetting>;

/** The field `unknown_fields` adds: an object, so a reader that skips only unknown scalars fails too. */
export const UNKNOWN_FIELD = 'sandbox_unlisted';
const UNKNOWN_VALUE = { note: 'a field the interface does not list: a client must ignore it' };

// The interface's TIMESTAMP fields, as the sandbox writes them: `yyyy-MM-ddTHH:mm:ss.SSS`.
const TIMESTAMP_FIELDS = ['created_at', 'processed_at', 'processing_time'] as const;
const FRACTION = /\.\d+$/;
// What the notes say a webhook may carry as null; the update time under either of its names.
const NULLABLE_IN_WEBHOOKS = ['pos_id', 'transaction_id', 'status_code', 'processed_at', 'processing_time'] as const;
// What the live service promises on an order-state entry (gateway-notes.md, "Reading an order's state").
const PROMISED_IN_ORDER_STATE = ['method', 'status', 'status_code', 'amount', 'created_at', 'processing_time', UNKNOWN_FIELD] as const;

type WireObject = Record<string, unknown>;

export class ShapeVariation {
  readonly #variants: ReadonlySet<ShapeVariant>;
  /** 1: every value the variant touches; ½: a seeded coin per value ("varied"). */
  readonly #share: number;
  readonly #random: () => number;

  constructor(setting: ShapesSetting, random: () => number) {
    this.#variants = new Set(setting === 'varied' ? ShapeVariant.options : setting);
    this.#share = setting === 'varied' ? 0.5 : 1;
    this.#random = random;
  }

  /**
   * An /api/v1 JSON answer as sent: an error body, a payment or operation, or a list of them.
   * `orderState`: the answer is an order-state read (`…/orders/<order_id>[/<operation>]`).
   */
  answer(body: unknown, orderState = false): unknown {
    if (isViolationBody(body)) return this.#applies('legacy_args') ? { ...body, args: legacyArgs(body.args) } : body;
    const shape = (item: unknown) => (orderState ? this.#orderEntry(this.#object(item, false)) : this.#object(item, false));
    return Array.isArray(body) ? body.map(shape) : shape(body);
  }

  /** A webhook event (or validation_url preflight) as posted. */
  event(event: object): object {
    return this.#object(event, true) as object;
  }

  #object(value: unknown, webhook: boolean): unknown {
    // Payment and operation objects only: balances and the like carry none of these fields.
    if (!isObject(value) || !('payment_id' in value)) return value;
    const varied: WireObject = { ...value };
    for (const field of TIMESTAMP_FIELDS) {
      const time = varied[field];
      if (typeof time === 'string') varied[field] = this.#timestamp(time);
    }
    if (typeof varied.status_code === 'string' && this.#applies('numeric_status_code')) varied.status_code = Number(varied.status_code);
    if (webhook) {
      for (const field of NULLABLE_IN_WEBHOOKS) {
        if (varied[field] != null && this.#applies('null_fields')) varied[field] = null;
      }
    }
    if (this.#applies('unknown_fields')) varied[UNKNOWN_FIELD] = UNKNOWN_VALUE;
    return varied;
  }

  /**
   * An entry reduced to what the live service promises: a client that needs its currency or ids
   * (to convert the amount, to find a transaction) must bring them, as it must against the live one.
   */
  #orderEntry(entry: unknown): unknown {
    if (!isObject(entry) || !('payment_id' in entry) || !this.#applies('minimal_order_state')) return entry;
    return Object.fromEntries(PROMISED_IN_ORDER_STATE.filter((field) => field in entry).map((field) => [field, entry[field]]));
  }

  #timestamp(time: string): string {
    let varied = time;
    if (FRACTION.test(varied) && this.#applies('timestamps_without_fraction')) varied = varied.replace(FRACTION, '');
    if (!varied.endsWith('Z') && this.#applies('timestamps_with_z')) varied = `${varied}Z`;
    return varied;
  }

  /** Whether the variant is on and, under "varied", this value's coin says so. */
  #applies(variant: ShapeVariant): boolean {
    if (!this.#variants.has(variant)) return false;
    return this.#share >= 1 || this.#random() < this.#share;
  }
}

interface ViolationBody {
  readonly message: string;
  readonly args: readonly { readonly field_name: string; readonly violation: string }[];
}

/** The sandbox's 400 for wrong fields; bodies with `{code}` keep it, which clients act on (`P-409`). */
function isViolationBody(body: unknown): body is ViolationBody {
  if (!isObject(body) || typeof body.message !== 'string' || !Array.isArray(body.args)) return false;
  return body.args.every((entry) => isObject(entry) && typeof entry.field_name === 'string' && typeof entry.violation === 'string');
}

/** Each field's reasons under `obj.<field>`; a problem of the body as a whole under `obj`. */
function legacyArgs(violations: ViolationBody['args']): Record<string, { msg: string[] }[]> {
  const legacy: Record<string, { msg: string[] }[]> = {};
  for (const { field_name: field, violation } of violations) {
    const key = field === '' ? 'obj' : `obj.${field}`;
    const entry = (legacy[key] ??= [{ msg: [] }])[0];
    entry?.msg.push(violation);
  }
  return legacy;
}

function isObject(value: unknown): value is WireObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
