/**
 * The pay request's names for the gateway's fields, so that a reason the gateway gives about
 * `cc_number` or `customer_email` reaches the widget as `card.number` or `customer.email`.
 */
// A Map, not an object literal: a field the gateway names `constructor` or `toString` must not
// find the object's prototype.
const CARD_FIELDS: ReadonlyMap<string, string> = new Map([
  ['cc_number', 'card.number'],
  ['exp_month', 'card.exp_month'],
  ['exp_year', 'card.exp_year'],
  ['card_cvv', 'card.cvv'],
  ['cc_token', 'card.token'],
]);

export function requestField(field: string): string {
  const card = CARD_FIELDS.get(field);
  if (card) return card;
  if (field.startsWith('customer_')) return `customer.${field.slice('customer_'.length)}`;
  if (field.startsWith('browser_fingerprint.')) return `fingerprint.${field.slice('browser_fingerprint.'.length)}`;
  return field;
}
