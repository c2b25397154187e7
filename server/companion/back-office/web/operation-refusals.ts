/**
 * Where each reason of the companion's refusal goes in the back office's dialogs, and in what
 * words. The envelope names the request's fields (`amount`, `split[1].amount`, `split`,
 * `description`) and words their reasons for a program, in English and minor units; the merchant
 * typed a decimal amount (per seller) in the page's language. In the operation dialog `split[i]`
 * is the i-th share sent, and empty shares are not sent: its row is found by its seller, not its
 * place. The charge dialog (a saved card's charge) has an amount and a description, and no
 * field for the customer's details the gateway may still need (`customer.email`…).
 */
import { wireStep } from '@payform/gateway/wire';
import { t } from './i18n.js';
import type { MessageKey } from './i18n.js';
import { preferences } from './preferences.js';
import { editableAmount, units } from './money.js';
import type { ApiAmount } from './money.js';
import { amountText, isolatedText } from './bidi-isolation.js';
import type { ApiError, Share } from './admin-api.js';

export interface OperationRefusals {
  /** The amount's field (a capture's or a refund's). */
  readonly amount?: string | undefined;
  /** Each seller's share, by the dialog's rows. */
  readonly shares: readonly (string | undefined)[];
  /** The shares as a whole: none typed, a seller twice, more in all than can be taken. */
  readonly split?: string | undefined;
  /** The fields said above, for the dialog's notice not to repeat. */
  readonly placed: readonly string[];
}

/** What an amount's reason is said with: the currency, and an amount to show what one looks like. */
export interface AmountField {
  readonly currency: string;
  /** What an amount may look like, for a reason that it is not one. */
  readonly example: ApiAmount;
}

export interface RefusedDialog extends AmountField {
  /** The dialog's rows of shares. */
  readonly sellers: readonly { readonly id: string }[];
  /** The shares the refused request sent; undefined when the dialog has none (a plain capture, a refund). */
  readonly sent?: readonly Share[] | undefined;
}

const SHARE = /^split\[(\d+)\](?:\.(\w+))?$/;
/** The companion's "must be at most 32000 (320.00 UAH)": the limit in minor units first. */
const AT_MOST = /^must be at most (\d+)/;

export function operationRefusals(error: ApiError | undefined, dialog: RefusedDialog): OperationRefusals {
  const shares: (string | undefined)[] = dialog.sellers.map(() => undefined);
  let amount: string | undefined;
  let split: string | undefined;
  const placed: string[] = [];
  for (const [field, reason] of Object.entries(error?.fields ?? {})) {
    if (!dialog.sent) {
      // No shares here. A plain refund of part of a split payment is refused for it: said at the
      // amount that asked for a part. Anything else is the notice's.
      if (field === 'amount') amount ??= amountWords(reason, dialog);
      else if (field === 'split' && error?.code === 'split_refund_required') amount ??= t('dialog.splitRefundRequired');
      else continue;
    } else if (field === 'amount') {
      // A split's amount is the total of its shares: no field of its own.
      split ??= totalWords(reason, dialog, dialog.sent);
    } else if (field === 'split') {
      split ??= splitWords(reason);
    } else if (SHARE.test(field)) {
      const [, index, leaf] = SHARE.exec(field)!;
      const seller = dialog.sent[Number(index)]?.sub_merchant_id.toLowerCase();
      const row = dialog.sellers.findIndex((candidate) => candidate.id.toLowerCase() === seller);
      const words =
        leaf === 'amount'
          ? amountWords(reason, dialog)
          : leaf === 'sub_merchant_id'
            ? t(error?.code === 'unknown_sub_merchant' ? 'dialog.sellerNoShare' : 'dialog.sellerRefused')
            : isolatedText(t('dialog.notAccepted', { reason: isolatedText(reason) }));
      if (row >= 0) shares[row] ??= words;
      else split ??= words;
    } else continue;
    placed.push(field);
  }
  return { amount, shares, split, placed };
}

/**
 * An amount field's reason in the page's words and the currency's units: past a limit ("must be
 * at most 32000 (320.00 UAH)…"), finer than the gateway carries ("must be a multiple of 10 minor
 * units"), else not an amount at all ("must be an integer number of minor units…").
 */
export function amountWords(reason: string, { currency, example }: AmountField): string {
  const most = AT_MOST.exec(reason)?.[1];
  if (most) return isolatedText(t('dialog.amountOver', { limit: amountText(Number(most), currency) }));
  if (reason.startsWith('must be a multiple of')) return t('dialog.amountStep', { currency, step: editableAmount(wireStep(currency), currency) });
  return t('dialog.amountFormat', { example: editableAmount(example, currency) });
}

function totalWords(reason: string, { currency }: RefusedDialog, sent: readonly Share[]): string {
  const most = AT_MOST.exec(reason)?.[1];
  if (!most) return isolatedText(t('dialog.notAccepted', { reason: isolatedText(reason) }));
  const total = sent.reduce((sum, share) => sum + units(share.amount), 0);
  return isolatedText(t('dialog.sharesOver', { total: amountText(total, currency), limit: amountText(Number(most), currency) }));
}

/** The reasons operation-request.ts and the wire give the split as a whole. */
function splitWords(reason: string): string {
  if (reason.startsWith('must have at least')) return t('dialog.sharesNone');
  if (reason.includes('each sub-merchant once')) return t('dialog.sharesTwice');
  if (reason.includes('must add up to')) return t('dialog.sharesTotal');
  return isolatedText(t('dialog.notAccepted', { reason: isolatedText(reason) }));
}

export interface ChargeRefusals {
  readonly amount?: string | undefined;
  readonly description?: string | undefined;
  /** A microfinance charge's borrower (merchant-sector.ts): the date of birth or the tax id, beside their fields. */
  readonly birthday?: string | undefined;
  readonly taxId?: string | undefined;
  /** The customer's details the gateway needs and the companion has none of: no field here, said in the notice. */
  readonly customer?: string | undefined;
  /** The fields said above, for the dialog's notice not to repeat. */
  readonly placed: readonly string[];
}

/** What the companion names when a charge needs more of the customer than their card's last payment gave (customer_required). */
const CUSTOMER_FIELDS = ['customer.fname', 'customer.lname', 'customer.email', 'customer.phone'] as const satisfies readonly MessageKey[];

/** The charge dialog's fields: its amount (`example`: what one looks like) and its description. */
export function chargeRefusals(error: ApiError | undefined, field: AmountField): ChargeRefusals {
  const fields = error?.fields ?? {};
  const amount = fields.amount === undefined ? undefined : amountWords(fields.amount, field);
  const description = fields.description === undefined ? undefined : descriptionWords(fields.description);
  const missing = error?.code === 'customer_required' ? CUSTOMER_FIELDS.filter((name) => fields[name] !== undefined) : [];
  const birthday = fields['customer.birthday'];
  const taxId = fields['customer.tax_id'];
  return {
    amount,
    description,
    birthday: birthday === undefined ? undefined : borrowerWords(birthday, 'charge.borrowerMissing'),
    taxId: taxId === undefined ? undefined : borrowerWords(taxId, 'charge.taxIdAbove'),
    customer: missing.length ? customerWords(missing) : undefined,
    placed: [...['amount', 'description', 'customer.birthday', 'customer.tax_id'].filter((name) => fields[name] !== undefined), ...missing],
  };
}

/** A borrower's field refused: required by the sector's rule (merchant-sector.ts), else the companion's reason as it gave it. */
function borrowerWords(reason: string, required: MessageKey): string {
  if (reason.includes('microfinance')) return t(required);
  return isolatedText(t('dialog.notAccepted', { reason: isolatedText(reason) }));
}

/** The details missing, named in the page's language ("e-mail address and phone number"), and what to do instead. */
function customerWords(missing: readonly MessageKey[]): string {
  const fields = new Intl.ListFormat(preferences().lang, { type: 'conjunction' }).format(missing.map((name) => t(name)));
  return t('charge.customerRequired', { fields });
}

/** A text field's reasons (requiredText on the wire): empty, too long, else the companion's own words. */
function descriptionWords(reason: string): string {
  if (reason === 'must not be empty') return t('dialog.descriptionEmpty');
  const most = /^must be at most (\d+) characters/.exec(reason)?.[1];
  if (most) return t('dialog.descriptionLong', { max: most });
  return isolatedText(t('dialog.notAccepted', { reason: isolatedText(reason) }));
}
