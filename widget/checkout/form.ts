/** The form of a payment: what `<pay-form>` lends it, and how `<pay-button>`, which has none, is told apart. */
import type { Brand, Check } from '@payform/card/fields';
import type { FieldName } from '../events.js';
import type { FieldError } from '../pay-form/pay-form.js';
import type { CheckoutElement } from './checkout-element.js';

/** What `<pay-form>` lends the payment of its form: its fields, their checks and errors, the card's brand, the chosen saved card. */
export interface Form extends CheckoutElement {
  brand?: Brand;
  inputs(): HTMLInputElement[];
  /** Empties the fields, the first saved card chosen (`reset`). */
  empty(): void;
  field(name: FieldName): HTMLInputElement | null;
  check(input: HTMLInputElement): Check;
  errors: Partial<Record<FieldName, FieldError>>;
  show(errors: Partial<Record<FieldName, FieldError>>): void;
  /** Whether a field shows an error. */
  invalid: boolean;
  edited: Partial<Record<FieldName, string>>;
  token: string;
  mode?: string;
}

/** `<pay-form>`, which has fields; `<pay-button>` has none. */
export const isForm = (element: CheckoutElement): element is Form => 'inputs' in element;
