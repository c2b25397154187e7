/**
 * @payform/widget/card: the card logic the widget uses, for code written against 0.2. The logic
 * is its own package now, `@payform/card`, which servers install without Lit: import it from there.
 */
export * from '@payform/card';
