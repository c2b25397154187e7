/**
 * Whether a card has expired, as the widget's form and the pay request see it: a card is valid
 * through the last day of its expiry month (UTC), so it has expired once that month has ended.
 */
export function hasExpired(card: { readonly expMonth: number; readonly expYear: number }, now: number): boolean {
  return Date.UTC(card.expYear, card.expMonth) <= now;
}
