/**
 * What a microfinance merchant's payments need of the customer beyond what a payer types
 * (interface, endpoint 1, rule 4): the date of birth or the tax id, and the tax id above
 * 30 000 UAH. The merchant knows them (a loan's borrower), the widget asks for neither, so a
 * session or a saved card's charge without them is refused as the shop's server opens it,
 * rather than at each customer's card. (Rule 3, the names a hosted page needs, is the payer's to
 * give: missingCustomerFields asks for them.)
 */
import { formatLimit } from '@payform/gateway';
import type { MerchantSector } from '@payform/gateway';
import { MICROFINANCE_TAX_ID_THRESHOLD_UAH } from '@payform/gateway/wire';
import type { CustomerDetails, PaymentMethod } from '../../ledger/index.js';

interface PaymentTerms {
  readonly amount: number;
  readonly currency: string;
  readonly method: PaymentMethod;
  readonly customer?: CustomerDetails | undefined;
}

const SETTING = 'the gateway client’s merchantSector, PAYFORM_MERCHANT_SECTOR';
const TAX_ID_ABOVE = MICROFINANCE_TAX_ID_THRESHOLD_UAH * 100;

/** The customer's fields the sector's rules find missing, with their reasons; undefined when none. */
export function sectorDetailsMissing(sector: MerchantSector | undefined, terms: PaymentTerms): Record<string, string> | undefined {
  // A card verification pays nothing: the gateway asks these of payments only.
  if (sector !== 'microfinance' || terms.method === 'lookup') return undefined;
  const { birthday, taxId } = terms.customer ?? {};
  // The threshold is said in UAH, and payform converts no rates: other currencies are the gateway's to judge.
  if (taxId === undefined && terms.currency === 'UAH' && terms.amount > TAX_ID_ABOVE) {
    return { 'customer.tax_id': `is required above ${formatLimit(TAX_ID_ABOVE, 'UAH')} for a microfinance merchant (${SETTING}): the gateway refuses the payment without it` };
  }
  if (birthday === undefined && taxId === undefined) {
    return { 'customer.birthday': `or customer.tax_id is required for a microfinance merchant (${SETTING}): the gateway refuses a payment without the customer’s date of birth or tax id` };
  }
  return undefined;
}
