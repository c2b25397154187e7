/**
 * The card scheme of a masked number (`424242******4242`) from its issuer prefix, as the widget
 * tells it while the customer types (@payform/card): the gateway reports the mask, not the scheme.
 */
import { detectBrand } from '@payform/card/fields';
import type { BrandId } from '@payform/card/fields';

export function brandOfMask(mask: string): BrandId | undefined {
  return detectBrand(/^\d+/.exec(mask)?.[0] ?? '')?.id;
}
